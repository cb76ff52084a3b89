import { type ParseArgsConfig, parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.ts';
import { ApiError } from '../domain/errors.ts';
import { FeedValidationError } from '../ingest/feed-errors.ts';
import { configCommand } from './commands/config.ts';
import { demoCommand } from './commands/demo.ts';
import { importCommand } from './commands/import.ts';
import { keysCommand } from './commands/keys.ts';
import { migrateCommand } from './commands/migrate.ts';
import { openapiCommand } from './commands/openapi.ts';
import { serveCommand } from './commands/serve.ts';

export interface Command {
  summary: string;
  usage: string;
  options?: ParseArgsConfig['options'];
  run(args: { values: Record<string, string | boolean | undefined>; positionals: string[] }): Promise<number | void>;
}

const COMMANDS: Record<string, Command> = {
  serve: serveCommand,
  migrate: migrateCommand,
  import: importCommand,
  keys: keysCommand,
  demo: demoCommand,
  openapi: openapiCommand,
  config: configCommand,
};

function mainHelp(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length));
  return [
    'altsports: the Alternative Sports Data Public API server',
    '',
    'Usage: altsports <command> [options]',
    '',
    'Commands:',
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`),
    '',
    'Settings come from environment variables: see `altsports config` and the README.',
    'Run `altsports <command> --help` for a command\'s options.',
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(mainHelp());
    return name ? 0 : 1;
  }
  const command = COMMANDS[name];
  if (!command) {
    console.error(`altsports: unknown command "${name}"\n\n${mainHelp()}`);
    return 2;
  }
  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({ args: rest, options: { ...command.options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true }) as typeof parsed;
  } catch (error) {
    console.error(`altsports ${name}: ${(error as Error).message}\n\n${command.usage}`);
    return 2;
  }
  if (parsed.values.help) {
    console.log(command.usage);
    return 0;
  }
  try {
    return (await command.run(parsed)) ?? 0;
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      return 78;
    }
    if (error instanceof FeedValidationError) {
      console.error(`altsports ${name}: ${error.message}`);
      for (const p of error.problems) console.error(`  - ${p.item}${p.id ? ` (id "${p.id}")` : ''}${p.field ? `.${p.field}` : ''}: ${p.message}`);
      return 1;
    }
    if (error instanceof ApiError) {
      console.error(`altsports ${name}: ${error.message}`);
      return 1;
    }
    console.error(`altsports ${name}: ${(error as Error).stack ?? error}`);
    return 1;
  }
}

export { loadConfig };

const code = await main(process.argv.slice(2));
if (code !== 0 || process.argv[2] !== 'serve') process.exitCode = code;
