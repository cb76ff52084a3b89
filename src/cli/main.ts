import { type ParseArgsConfig, parseArgs } from 'node:util';
import { CodedError, type ErrorCode } from '../domain/errors.ts';
import { FeedValidationError } from '../ingest/feed-errors.ts';
import { VERSION } from '../version.ts';

export interface Command {
  usage: string;
  options?: ParseArgsConfig['options'];
  /** Resolves with the exit code; anything else (nothing) means 0. */
  run(args: { values: Record<string, string | boolean | undefined>; positionals: string[] }): Promise<unknown>;
}

/** Commands load on demand, so that `--help` or `keys` does not pay for the HTTP stack. */
export const COMMANDS: Record<string, { summary: string; load: () => Promise<Command> }> = {
  serve: {
    summary: 'start the HTTP API (what `npm start` runs)',
    load: async () => (await import('./commands/serve.ts')).serveCommand,
  },
  migrate: {
    summary: 'apply pending store migrations',
    load: async () => (await import('./commands/migrate.ts')).migrateCommand,
  },
  import: {
    summary: 'ingest a feed file (JSON or NDJSON) into the store',
    load: async () => (await import('./commands/import.ts')).importCommand,
  },
  keys: {
    summary: 'create, list, limit, rotate or revoke API keys; read their usage',
    load: async () => (await import('./commands/keys.ts')).keysCommand,
  },
  plans: {
    summary: 'create, list or change plans (monthly quota, limits, competitions)',
    load: async () => (await import('./commands/plans.ts')).plansCommand,
  },
  demo: {
    summary: 'write the demo dataset into the store (or to an NDJSON file)',
    load: async () => (await import('./commands/demo.ts')).demoCommand,
  },
  simulate: {
    summary: 'move the demo data forward in real time (live heats, scores, odds)',
    load: async () => (await import('./commands/simulate.ts')).simulateCommand,
  },
  markets: {
    summary: "generate an event's markets from win probabilities or ratings",
    load: async () => (await import('./commands/markets.ts')).marketsCommand,
  },
  openapi: {
    summary: 'print the OpenAPI 3.1 document',
    load: async () => (await import('./commands/openapi.ts')).openapiCommand,
  },
  config: {
    summary: 'print the effective configuration (secrets masked)',
    load: async () => (await import('./commands/config.ts')).configCommand,
  },
};

export function mainHelp(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length));
  return [
    'altsports: the Alternative Sports Data Public API server',
    '',
    'Usage: altsports <command> [options]',
    '       altsports --version',
    '',
    'Commands:',
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`),
    '',
    'Settings come from environment variables: see `altsports config` and the README.',
    "Run `altsports <command> --help` for a command's options.",
  ].join('\n');
}

/** Exit codes of the catalogue's errors (domain/errors.ts) other than 1: 78 is sysexits' EX_CONFIG. */
export const EXIT_CODES: Partial<Record<ErrorCode, number>> = { CONFIG_INVALID: 78 };

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(mainHelp());
    return name ? 0 : 1;
  }
  if (name === '--version' || name === '-v') {
    console.log(VERSION);
    return 0;
  }
  const entry = COMMANDS[name];
  if (!entry) {
    console.error(`altsports: unknown command "${name}"\n\n${mainHelp()}`);
    return 2;
  }
  const command = await entry.load();
  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({
      args: rest,
      options: { ...command.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    }) as typeof parsed;
  } catch (error) {
    console.error(`altsports ${name}: ${(error as Error).message}\n\n${command.usage}`);
    return 2;
  }
  if (parsed.values.help) {
    console.log(command.usage);
    return 0;
  }
  try {
    const code = await command.run(parsed);
    return typeof code === 'number' ? code : 0;
  } catch (error) {
    if (error instanceof CodedError) {
      // A refused configuration names every variable on lines of its own, as sysexits' EX_CONFIG.
      console.error(error.code === 'CONFIG_INVALID' ? error.message : `altsports ${name}: ${error.message}`);
      // The message names a feed's first problem: the list is for more than one.
      if (error instanceof FeedValidationError && error.problems.length > 1)
        for (const p of error.problems)
          console.error(`  - ${p.item}${p.id ? ` (id "${p.id}")` : ''}${p.field ? `.${p.field}` : ''}: ${p.message}`);
      return EXIT_CODES[error.code] ?? 1;
    }
    const { code, path } = error as { code?: string; path?: string };
    if (typeof code === 'string' && typeof path === 'string') {
      console.error(`altsports ${name}: cannot read ${path} (${code})`);
      return 1;
    }
    console.error(`altsports ${name}: ${(error as Error).stack ?? error}`);
    return 1;
  }
}

/**
 * Every help text, by command (`""` for the command list): what `npm run cli:help` writes to
 * src/cli/help.json, from which bin/altsports.js answers `--help` without loading TypeScript.
 */
export async function helpTexts(): Promise<Record<string, string>> {
  const texts: Record<string, string> = { '': mainHelp() };
  for (const [name, entry] of Object.entries(COMMANDS)) texts[name] = (await entry.load()).usage;
  return texts;
}
