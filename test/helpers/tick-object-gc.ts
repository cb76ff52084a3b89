import { keepTickObjectShape } from '../../src/http/tick-object-shape.ts';

/**
 * Child process of test/http/tick-object-shape.test.ts, run with `--allow-natives-syntax --expose-gc`:
 * queues ticks, runs full garbage collections while no tick object is alive (from a timer), queues
 * ticks again, then prints V8's feedback of `process.nextTick` (%DebugPrint), whose tick-object
 * literal keys say MONOMORPHIC or MEGAMORPHIC. KEEP=1 keeps a tick object first, as the server does.
 */
if (process.env.KEEP === '1') keepTickObjectShape();

const ticks = (count: number): Promise<void> =>
  new Promise((resolve) => {
    let left = count;
    const one = (): void => {
      left--;
      if (left === 0) resolve();
    };
    for (let i = 0; i < count; i++) process.nextTick(one);
  });

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
for (let round = 0; round < 20; round++) await ticks(1000);
await new Promise<void>((resolve) =>
  setTimeout(() => {
    for (let i = 0; i < Number(process.env.COLLECTIONS ?? 5); i++) gc();
    resolve();
  }, 10),
);
for (let round = 0; round < 20; round++) await ticks(1000);
new Function('f', '%DebugPrint(f)')(process.nextTick);
