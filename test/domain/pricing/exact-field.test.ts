import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { ExactField } from '../../../src/domain/pricing/exact-field.ts';
import {
  fitFinishingOrder,
  plackettLuceSequence,
  simulateFinishingOrders,
} from '../../../src/domain/pricing/finishing-order.ts';
import { exactJoint, type OrderLeg } from '../../../src/domain/pricing/parlay.ts';
import { Random } from '../../../src/domain/random.ts';
import { close } from '../../helpers/close.ts';
import { FieldMarkets } from '../../helpers/field-markets.ts';

const EXACT = 1e-9;

/** Every order of n runners. */
function permutations(n: number): number[][] {
  if (n === 0) return [[]];
  return permutations(n - 1).flatMap((p) =>
    Array.from({ length: n }, (_, at) => [...p.slice(0, at), n - 1, ...p.slice(at)]),
  );
}

const fields = fc.array(fc.double({ min: 0.05, max: 5, noNaN: true }), { minLength: 3, maxLength: 8 });
const shapes = fc.constantFrom(1, 2, 4, 12);

describe('exact finishing-order probabilities', () => {
  test('Plackett-Luce: places, head-to-heads and sequences equal the sums over every order', () => {
    const win = [0.35, 0.25, 0.2, 0.12, 0.08];
    const field = new ExactField(fitFinishingOrder(win, 1));
    const orders = permutations(win.length).map((order) => ({ order, p: plackettLuceSequence(win, order) }));
    for (let i = 0; i < win.length; i++) {
      for (let k = 1; k <= win.length; k++) {
        const brute = orders.filter(({ order }) => order[k - 1] === i).reduce((s, o) => s + o.p, 0);
        close(field.place(i, k), brute, 1e-12, `runner ${i} ${k}th`);
      }
    }
    const ahead = orders.filter(({ order }) => order.indexOf(3) < order.indexOf(1)).reduce((s, o) => s + o.p, 0);
    close(field.headToHead(3, 1), ahead, 1e-12, '3 ahead of 1');
    close(field.sequence([4, 0, 2]), plackettLuceSequence(win, [4, 0, 2]), 1e-15, 'trifecta 4-0-2');
    assert.equal(field.sequence([1, 1]), 0);
    assert.equal(field.sequenceCount(3), 60);
  });

  test('a gamma race agrees with its simulation (within four standard errors)', () => {
    const model = fitFinishingOrder([0.4, 0.25, 0.15, 0.12, 0.08], 6);
    const field = new ExactField(model);
    const rng = new Random(5);
    const samples = 200_000;
    const simulated = new FieldMarkets(
      simulateFinishingOrders(model, samples, () => rng.next()),
      5,
    );
    const within = (exact: number, estimate: number, what: string) =>
      close(estimate, exact, 4 * Math.sqrt((exact * (1 - exact)) / samples), what);
    within(field.win(0), simulated.win(0), 'win 0');
    within(field.place(2, 3), simulated.place(2, 3), 'runner 2 third');
    within(field.top(4, 3), simulated.top(4, 3), 'runner 4 on the podium');
    within(field.headToHead(1, 2), simulated.headToHead(1, 2), '1 ahead of 2');
    within(field.sequence([0, 1]), simulated.sequence([0, 1]), 'exacta 0-1');
    within(field.sequence([1, 0, 2]), simulated.sequence([1, 0, 2]), 'trifecta 1-0-2');
    within(field.sequence([0, 1, 2, 3]), simulated.sequence([0, 1, 2, 3]), 'superfecta 0-1-2-3');
  });

  test('identities hold under every shape: winners, places, top k, exactas, trifectas, head-to-heads', () => {
    fc.assert(
      fc.property(fields, shapes, (raw, shape) => {
        const n = raw.length;
        const field = new ExactField(fitFinishingOrder(raw, shape));
        const runners = Array.from({ length: n }, (_, i) => i);
        for (const i of runners) {
          close(
            runners.reduce((s, k) => s + field.place(i, k + 1), 0),
            1,
            EXACT,
            `runner ${i}'s places`,
          );
          close(
            runners.reduce((s, j) => s + field.place(j, i + 1), 0),
            1,
            EXACT,
            `place ${i + 1}`,
          );
          assert.ok(field.top(i, 3) >= field.win(i) - EXACT, 'win implies podium');
          let exactas = 0;
          let trifectas = 0;
          for (const b of runners) {
            if (b === i) continue;
            close(field.headToHead(i, b) + field.headToHead(b, i), 1, EXACT, `${i} v ${b}`);
            exactas += field.sequence([i, b]);
            for (const c of runners) if (c !== i && c !== b) trifectas += field.sequence([i, b, c]);
          }
          close(exactas, field.win(i), EXACT, `exactas of ${i} first`);
          close(trifectas, field.win(i), EXACT, `trifectas of ${i} first`);
          close(
            runners.filter((a) => a !== i).reduce((s, a) => s + field.sequence([a, i]), 0),
            field.place(i, 2),
            EXACT,
            `exactas of ${i} second`,
          );
        }
        close(
          runners.reduce((s, i) => s + field.top(i, 3), 0),
          Math.min(3, n),
          n * EXACT,
          'top 3 sums to 3',
        );
      }),
      { numRuns: 40 },
    );
  });

  test('runners of equal strength get equal prices to the last digit', () => {
    fc.assert(
      fc.property(fields, shapes, fc.nat(), (raw, shape, at) => {
        const copy = at % raw.length;
        const field = new ExactField(fitFinishingOrder([...raw, raw[copy] as number], shape));
        const twin = raw.length;
        for (let k = 1; k <= twin + 1; k++) assert.equal(field.place(copy, k), field.place(twin, k));
      }),
      { numRuns: 30 },
    );
  });

  test('the likeliest sequences are found among the strongest runners, likeliest first', () => {
    fc.assert(
      fc.property(fields, shapes, fc.integer({ min: 2, max: 3 }), (raw, shape, k) => {
        const field = new ExactField(fitFinishingOrder(raw, shape));
        const top = field.topSequences(k, 4);
        const every = permutations(raw.length)
          .map((order) => order.slice(0, k).join())
          .filter((key, i, all) => all.indexOf(key) === i)
          .map((key) => field.sequence(key.split(',').map(Number)))
          .sort((a, b) => b - a);
        for (const [i, s] of top.entries()) close(s.probability, every[i] as number, EXACT, `sequence ${i + 1}`);
      }),
      { numRuns: 20 },
    );
  });
});

describe('the exact joint of parlay legs', () => {
  const legs = fc.array(
    fc.oneof(
      fc.record({ kind: fc.constant('place' as const), runner: fc.nat(5), place: fc.integer({ min: 1, max: 4 }) }),
      fc.record({ kind: fc.constant('top' as const), runner: fc.nat(5), places: fc.integer({ min: 1, max: 4 }) }),
      fc.uniqueArray(fc.nat(5), { minLength: 2, maxLength: 3 }).map((runners) => ({ kind: 'order' as const, runners })),
    ),
    { minLength: 1, maxLength: 3 },
  );

  test('equals the sum over every order in which all legs win, under every shape', () => {
    const raw = [0.3, 0.22, 0.18, 0.14, 0.1, 0.06];
    const orders = permutations(raw.length);
    const won = (leg: OrderLeg, order: number[]) =>
      leg.kind === 'place'
        ? order[leg.place - 1] === leg.runner
        : leg.kind === 'top'
          ? order.indexOf(leg.runner) < leg.places
          : leg.runners.every((r, k) => order[k] === r);
    for (const shape of [1, 3]) {
      const field = new ExactField(fitFinishingOrder(raw, shape));
      const probabilities = field.sequences(orders);
      fc.assert(
        fc.property(legs, (drawn) => {
          const brute = orders.reduce(
            (sum, order, i) => (drawn.every((leg) => won(leg, order)) ? sum + (probabilities[i] as number) : sum),
            0,
          );
          close(exactJoint(field, drawn) as number, brute, EXACT, JSON.stringify(drawn));
        }),
        { numRuns: 60 },
      );
    }
  });

  test('under every shape, Σ_B [A wins, B second] = P(A wins) and [A wins, A on the podium] = P(A wins)', () => {
    fc.assert(
      fc.property(fields, shapes, fc.nat(), (raw, shape, pick) => {
        const field = new ExactField(fitFinishingOrder(raw, shape));
        const a = pick % raw.length;
        let sum = 0;
        for (let b = 0; b < raw.length; b++) {
          if (b === a) continue;
          const pair = exactJoint(field, [
            { kind: 'place', runner: a, place: 1 },
            { kind: 'place', runner: b, place: 2 },
          ]) as number;
          close(pair, field.sequence([a, b]), EXACT, `[${a} wins, ${b} second] = exacta`);
          sum += pair;
        }
        close(sum, field.win(a), EXACT, 'Σ_B');
        const podium = exactJoint(field, [
          { kind: 'place', runner: a, place: 1 },
          { kind: 'top', runner: a, places: 3 },
        ]) as number;
        close(podium, field.win(a), EXACT, 'win and podium');
      }),
      { numRuns: 30 },
    );
  });

  test('[A wins, B second] is the exacta, a win implies the podium, two winners cannot be', () => {
    const field = new ExactField(fitFinishingOrder([0.4, 0.3, 0.2, 0.1], 1));
    const joint = (legs: OrderLeg[]) => exactJoint(field, legs) as number;
    close(
      joint([
        { kind: 'place', runner: 0, place: 1 },
        { kind: 'place', runner: 2, place: 2 },
      ]),
      field.sequence([0, 2]),
      1e-15,
      'exacta',
    );
    close(
      joint([
        { kind: 'place', runner: 1, place: 1 },
        { kind: 'top', runner: 1, places: 3 },
      ]),
      field.win(1),
      1e-15,
      'win and podium',
    );
    assert.equal(
      joint([
        { kind: 'place', runner: 0, place: 1 },
        { kind: 'place', runner: 1, place: 1 },
      ]),
      0,
    );
    assert.equal(exactJoint(field, [{ kind: 'top', runner: 0, places: 4 }], 3), null, 'over the budget: null');
  });
});
