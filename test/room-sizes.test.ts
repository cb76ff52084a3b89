import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';

/**
 * Rooms a newcomer can read: no source file over 600 lines, and no function over 80 lines unless the
 * comment before it says why it is long (a repository's list of short methods, a migration's tables).
 */

const MAX_FILE_LINES = 600;
const MAX_FUNCTION_LINES = 80;
const SRC = new URL('../src/', import.meta.url).pathname;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Functions longer than the limit whose leading comment does not say why they are long. */
function unexplainedLongFunctions(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line;
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const lines = lineOf(node.getEnd()) - lineOf(node.getStart()) + 1;
      // The comment before the declaration (a `const x = () =>` carries it on its statement).
      const owner = ts.isVariableDeclaration(node.parent) ? node.parent.parent.parent : node;
      const comment = text.slice(owner.getFullStart(), owner.getStart());
      if (lines > MAX_FUNCTION_LINES && !/\blong\b/i.test(comment))
        found.push(`${file.slice(SRC.length)}:${lineOf(node.getStart()) + 1} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test(`no file in src/ is over ${MAX_FILE_LINES} lines`, () => {
  const long = sources(SRC)
    .map((file) => ({ file: file.slice(SRC.length), lines: readFileSync(file, 'utf8').split('\n').length }))
    .filter(({ lines }) => lines > MAX_FILE_LINES);
  assert.deepEqual(long, []);
});

test(`a function over ${MAX_FUNCTION_LINES} lines says why it is long`, () => {
  const found = sources(SRC).flatMap((file) => unexplainedLongFunctions(file, readFileSync(file, 'utf8')));
  assert.deepEqual(found, []);
});
