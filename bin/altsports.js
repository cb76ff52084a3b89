#!/usr/bin/env node
// Runs the TypeScript sources through tsx's loader, or their compiled copies in dist/ (docs/decisions.md, "Runtime"). Help is
// answered from src/cli/help.json (written by `npm run cli:help` from the commands' own usage, and
// checked by test/cli/help.test.ts) without loading tsx, which takes most of a second to start.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const asksHelp = (arg) => arg === '--help' || arg === '-h';
const topic = args.length === 0 || (args.length === 1 && (asksHelp(args[0]) || args[0] === 'help')) ? '' : args[0];
const help = args.length <= 2 && (topic === '' || (args.length === 2 && asksHelp(args[1])));
const texts = help ? JSON.parse(readFileSync(new URL('../src/cli/help.json', import.meta.url), 'utf8')) : {};

if (help && topic in texts) {
  console.log(texts[topic]);
  process.exitCode = args.length === 0 ? 1 : 0;
} else {
  const { importSource } = await import('../src/import-source.mjs');
  const { main } = await importSource(new URL('../src/cli/main.ts', import.meta.url));
  const code = await main(args);
  if (code !== 0 || args[0] !== 'serve') process.exitCode = code;
}
