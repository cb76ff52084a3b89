/**
 * Writes the README's table of environment variables from the config schema (src/config.ts), between
 * its markers; test/config.test.ts fails while the README's copy differs.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { configTable } from '../src/config.ts';

export const README = new URL('../README.md', import.meta.url);
const START = '<!-- config table: npm run config:readme writes it from src/config.ts -->\n';
const END = '\n<!-- end of the config table -->';

/** The README with its config table as the schema makes it. */
export function withConfigTable(readme: string): string {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END, start);
  if (start < 0 || end < 0) throw new Error(`README.md has lost its config table markers: ${START.trim()}`);
  return `${readme.slice(0, start + START.length)}${configTable()}${readme.slice(end)}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(README, withConfigTable(readFileSync(README, 'utf8')));
}
