import { CONFIG_VARIABLES, describeConfig, loadConfig } from '../../config.ts';
import type { Command } from '../main.ts';

export const configCommand: Command = {
  usage: [
    'Usage: altsports config',
    '',
    'Validates the environment and prints the effective settings, secrets masked.',
    '',
    'Variables:',
    ...CONFIG_VARIABLES.map(([name, fallback, text]) => `  ${name.padEnd(18)} ${text} (default ${fallback})`),
  ].join('\n'),
  async run() {
    const effective = describeConfig(loadConfig());
    for (const [name, value] of Object.entries(effective)) console.log(`${name.padEnd(18)} ${value}`);
  },
};
