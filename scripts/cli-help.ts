/** Writes src/cli/help.json: every help text of the `altsports` command, for bin/altsports.js's fast path. */
import { writeFile } from 'node:fs/promises';
import { helpTexts } from '../src/cli/main.ts';

export const HELP_FILE = new URL('../src/cli/help.json', import.meta.url);

export async function helpDocument(): Promise<string> {
  return `${JSON.stringify(await helpTexts(), null, 2)}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await writeFile(HELP_FILE, await helpDocument());
  console.log(`cli-help: wrote ${HELP_FILE.pathname}`);
}
