import { CONFIG_VARIABLES, describeConfig, loadConfig } from '../../config.ts';
import type { Command } from '../main.ts';
import { columns } from '../table.ts';

export const configCommand: Command = {
  usage: [
    'Usage: altsports config',
    '',
    'Validates the environment and prints the effective settings, secrets masked.',
    '',
    'Variables:',
    ...columns(CONFIG_VARIABLES.map(([name, fallback, text]) => [`  ${name}`, `${text} (default ${fallback})`])),
  ].join('\n'),
  async run() {
    const effective = describeConfig(loadConfig());
    for (const line of columns(Object.entries(effective))) console.log(line);
  },
};
