import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * No runtime import cycles in src/: a module's static imports, less those only of types, never lead
 * back to it. Modules are read with the TypeScript compiler's parser; the cycles are the strongly
 * connected components of the import graph (Tarjan).
 */

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

function sourceFiles(): string[] {
  return (readdirSync(SRC, { recursive: true }) as string[])
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts') && !file.endsWith('.d.cts'))
    .map((file) => join(SRC, file));
}

/** The files this one imports at run time: static imports and re-exports of values, by relative path. */
export function runtimeImports(file: string, text = readFileSync(file, 'utf8')): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const out: string[] = [];
  for (const statement of source.statements) {
    let specifier: ts.Expression | undefined;
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      const typesOnly =
        clause?.isTypeOnly === true ||
        (clause !== undefined &&
          clause.name === undefined &&
          clause.namedBindings !== undefined &&
          ts.isNamedImports(clause.namedBindings) &&
          clause.namedBindings.elements.length > 0 &&
          clause.namedBindings.elements.every((element) => element.isTypeOnly));
      if (!typesOnly) specifier = statement.moduleSpecifier;
    } else if (ts.isExportDeclaration(statement) && !statement.isTypeOnly) {
      specifier = statement.moduleSpecifier;
    }
    if (specifier && ts.isStringLiteral(specifier) && specifier.text.startsWith('.'))
      out.push(resolve(dirname(file), specifier.text));
  }
  return out;
}

/** The strongly connected components of more than one module, or of one importing itself. */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node) as number, low.get(target) as number));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node) as number, index.get(target) as number));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

test('the cycle finder finds a cycle, a self-import, and no cycle in a chain', () => {
  const graph = new Map([
    ['a', ['b']],
    ['b', ['c']],
    ['c', ['a']],
    ['d', ['d']],
    ['e', ['a']],
  ]);
  assert.deepEqual(importCycles(graph), [['a', 'b', 'c'], ['d']]);
  assert.deepEqual(
    importCycles(
      new Map([
        ['x', ['y']],
        ['y', []],
      ]),
    ),
    [],
  );
});

test('imports of types only do not count: they leave nothing at run time', () => {
  const text = [
    "import type { A } from './a.ts';",
    "import { type B } from './b.ts';",
    "import { c } from './c.ts';",
    "import { type D, d } from './d.ts';",
    "export { e } from './e.ts';",
    "export type { F } from './f.ts';",
  ].join('\n');
  // The compiled copy of this file has its import-like strings renamed .js (scripts/build.ts): by name only.
  const found = runtimeImports('/x/m.ts', text).map((path) => relative('/x', path).replace(/\.[jt]s$/, ''));
  assert.deepEqual(found, ['c', 'd', 'e']);
});

test('src/ has no runtime import cycle', () => {
  const graph = new Map(sourceFiles().map((file) => [file, runtimeImports(file)]));
  const cycles = importCycles(graph).map((cycle) => cycle.map((file) => relative(SRC, file)).join(' <-> '));
  assert.deepEqual(cycles, [], 'a cycle: move what both need below both');
});
