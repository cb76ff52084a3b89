/**
 * keepTickObjectShape (src/http/tick-object-shape.ts): with one tick object kept, full garbage
 * collections leave `process.nextTick`'s tick-object literal monomorphic, so V8 keeps building tick
 * objects inline. Read from V8's own feedback (%DebugPrint), not timed.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

/** The IC state of each keyed definition in the tick-object literal, as %DebugPrint reports it. */
async function tickLiteralFeedback(keep: boolean): Promise<string[]> {
  // %DebugPrint writes through C's stdout, which a pipe can cut short at exit: a file takes it whole.
  const dir = await mkdtemp(join(tmpdir(), 'altsports-tick-'));
  try {
    const output = await open(join(dir, 'stdout'), 'w');
    const child = spawn(
      process.execPath,
      ['--allow-natives-syntax', '--expose-gc', '--import', 'tsx', 'test/helpers/tick-object-gc.ts'],
      {
        env: { ...process.env, KEEP: keep ? '1' : '0' },
        stdio: ['ignore', output.fd, 'inherit'],
      },
    );
    const [code] = await once(child, 'exit');
    await output.close();
    assert.equal(code, 0, 'the helper exits cleanly');
    return parseStates(await readFile(join(dir, 'stdout'), 'utf8'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function parseStates(stdout: string): string[] {
  return [...stdout.matchAll(/slot #\d+ DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((match) => match[1] as string);
}

test('with a tick object kept, the tick-object literal stays monomorphic through full collections', async () => {
  const states = await tickLiteralFeedback(true);
  assert.ok(
    states.length >= 2,
    `the tick-object literal's keyed definitions are in nextTick's feedback (found ${states.length})`,
  );
  assert.deepEqual(
    states.filter((state) => state !== 'MONOMORPHIC'),
    [],
  );
});

test('without it, the same collections turn the literal megamorphic (what the kept object prevents)', async () => {
  // If a newer Node stops doing this, this test fails and the workaround can go.
  const states = await tickLiteralFeedback(false);
  assert.ok(states.includes('MEGAMORPHIC'), `expected a MEGAMORPHIC key, found ${states.join(', ')}`);
});
