import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { renameImports } from '../../scripts/build.ts';

/** The tree this file runs in: dist/ under npm test. */
const DIST = fileURLToPath(new URL('../../', import.meta.url));

describe('the compiled copy (scripts/build.ts)', () => {
  test('relative imports of .ts files are renamed .js; anything else is left alone', () => {
    const table: Array<[string, string]> = [
      [`import { a } from "./a.ts";`, `import { a } from "./a.js";`],
      [`import { a } from '../b/c.ts';`, `import { a } from '../b/c.js';`],
      [`export { a } from "./a.ts";`, `export { a } from "./a.js";`],
      [`export * from "../x.ts";`, `export * from "../x.js";`],
      [`import "./side-effect.ts";`, `import "./side-effect.js";`],
      [`const m = await import("./commands/serve.ts");`, `const m = await import("./commands/serve.js");`],
      [`const m = await import( './a.ts' );`, `const m = await import( './a.js' );`],
      // Packages, other extensions and strings that are not imports stay as written.
      [`import { a } from "tsx/esm/api";`, `import { a } from "tsx/esm/api";`],
      [
        `import data from "./help.json" with { type: "json" };`,
        `import data from "./help.json" with { type: "json" };`,
      ],
      [`const path = "./a.ts";`, `const path = "./a.ts";`],
      [`spawn("node", ["--import", "tsx", "examples/a.ts"]);`, `spawn("node", ["--import", "tsx", "examples/a.ts"]);`],
      [`import { a } from "./a.tsx.ts";`, `import { a } from "./a.tsx.js";`],
    ];
    for (const [source, compiled] of table) assert.equal(renameImports(source), compiled, source);
  });

  test('properties: renaming twice changes nothing more, and only the extensions of relative imports change', () => {
    const segment = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/);
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 4 }), fc.constantFrom('./', '../'), (parts, lead) => {
        const source = `import { x } from "${lead}${parts.join('/')}.ts";`;
        const once = renameImports(source);
        assert.equal(once, `import { x } from "${lead}${parts.join('/')}.js";`);
        assert.equal(renameImports(once), once);
      }),
    );
  });

  test('dist/ holds every source beside its compiled copy, with no .ts import left (npm test builds it first)', () => {
    const compiled = join(DIST, 'test', 'scripts', 'build.test.js');
    assert.ok(existsSync(compiled), `${compiled} is missing: the suite runs from dist/ (npm test)`);
    assert.ok(existsSync(join(DIST, 'test', 'scripts', 'build.test.ts')), 'the source is mirrored beside it');
    assert.ok(existsSync(join(DIST, 'src', 'cli', 'main.js')), 'the CLI is compiled');
    assert.ok(existsSync(join(DIST, 'src', 'cli', 'help.json')), 'files read at run time are there');
    assert.doesNotMatch(readFileSync(compiled, 'utf8'), /from "\.{1,2}\/[^"]+\.ts"/, 'no .ts import left');
    const source = readFileSync(join(DIST, 'src', 'domain', 'odds-format.ts'), 'utf8');
    assert.match(source, /: number/);
    assert.doesNotMatch(
      readFileSync(join(DIST, 'src', 'domain', 'odds-format.js'), 'utf8'),
      /: number/,
      'types are stripped',
    );
  });

  test('each compiled file links a source map of its own, which names the original: a stack trace points at the .ts line', () => {
    const compiled = readFileSync(join(DIST, 'src', 'domain', 'odds-format.js'), 'utf8');
    assert.ok(compiled.endsWith('\n//# sourceMappingURL=odds-format.js.map\n'), 'the map is linked');
    assert.doesNotMatch(compiled, /base64/, 'no inline map held in the module text');
    const map = JSON.parse(readFileSync(join(DIST, 'src', 'domain', 'odds-format.js.map'), 'utf8'));
    assert.deepEqual(map.sources, ['../../../src/domain/odds-format.ts'], 'the file in the checkout');
    // The suite runs with --enable-source-maps (scripts/run-tests.ts): the stack names this file's own line.
    const stack = new Error('marker for the source map test').stack ?? '';
    const line = Number(/build\.test\.ts:(\d+):\d+/.exec(stack)?.[1]);
    const source = readFileSync(join(DIST, 'test', 'scripts', 'build.test.ts'), 'utf8').split('\n');
    assert.match(source[line - 1] ?? '', /marker for the source map test/, stack);
  });
});
