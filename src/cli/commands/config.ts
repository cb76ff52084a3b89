import { CONFIG_VARIABLES, describeConfig, loadConfig } from '../../config.ts';
import type { Command } from '../main.ts';
import { columns } from '../table.ts';

/** The README's markdown, read in a terminal. */
const plain = (text: string) => text.replaceAll('`', '');

export const configCommand: Command = {
  usage: [
    'Usage: altsports config',
    '',
    'Validates the environment and prints the effective settings, secrets masked.',
    '',
    'Variables:',
    ...columns(CONFIG_VARIABLES.map(([name, fallback, text]) => [`  ${name}`, plain(`${text} (default ${fallback})`)])),
  ].join('\n'),
  async run() {
    const effective = describeConfig(loadConfig());
    for (const line of columns(Object.entries(effective))) console.log(line);
  },
};
