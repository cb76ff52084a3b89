/**
 * Generates src/schema.ts from the OpenAPI document.
 *
 *   npm run client:generate                          # from this checkout's server (bin/altsports.js openapi)
 *   npm run client:generate -- --input <file|url>    # from a saved document or a running server's /openapi.json
 *
 * The default builds the document from the server's sources (an in-memory store, no network), which is
 * what the drift test compares against.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderSchema, SCHEMA_FILE } from './render-schema.ts';

const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = resolve(packageRoot, '../..');

async function loadDocument(input: string | undefined): Promise<unknown> {
  if (input === undefined) {
    const json = execFileSync(process.execPath, [join(repoRoot, 'bin/altsports.js'), 'openapi'], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    return JSON.parse(json);
  }
  if (/^https?:\/\//.test(input)) {
    const response = await fetch(input);
    if (!response.ok) throw new Error(`GET ${input}: ${response.status} ${response.statusText}`);
    return response.json();
  }
  return JSON.parse(readFileSync(resolve(process.env.INIT_CWD ?? process.cwd(), input), 'utf8'));
}

const args = process.argv.slice(2);
const inputAt = args.indexOf('--input');
const input = inputAt >= 0 ? args[inputAt + 1] : undefined;
if (inputAt >= 0 && input === undefined) {
  process.stderr.write('generate: --input needs a file or a URL\n');
  process.exit(2);
}

const target = join(packageRoot, SCHEMA_FILE);
writeFileSync(target, await renderSchema(await loadDocument(input)));
process.stdout.write(`generate: wrote ${target}\n`);
