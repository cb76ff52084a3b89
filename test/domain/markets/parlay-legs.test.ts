import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { type LegFacts, legProblems, type OptionFacts, optionReason } from '../../../src/domain/markets/parlay-legs.ts';

/** An open odd of the event, named by its own id unless told otherwise. */
const leg = (odd: string | null, facts: Partial<LegFacts> = {}): LegFacts => ({
  oddId: odd ?? 'missing',
  odd,
  otherEvent: false,
  open: true,
  exclusiveMarket: null,
  ...facts,
});

/** Legs clash when they name odds of one letter ("a1" and "a2"): a stand-in for the conflict search. */
const byLetter =
  (legs: readonly LegFacts[]) =>
  (eligible: readonly number[]): number[] => {
    const letter = (i: number) => (legs[i]?.odd ?? '').slice(0, 1);
    return eligible.filter((i) => eligible.some((j) => j !== i && letter(j) === letter(i)));
  };

const codesOf = (legs: LegFacts[], max = 12) =>
  legProblems(legs, max, byLetter(legs)).map(({ oddId, code }) => `${oddId}:${code}`);

describe('legProblems', () => {
  test('walks every rule', () => {
    const table: Array<[string, LegFacts[], number, string[]]> = [
      ['a valid parlay', [leg('a1'), leg('b1'), leg('c1')], 12, []],
      ['an unknown odd', [leg('a1'), leg(null, { oddId: 'x' })], 12, ['x:UNKNOWN_ODD']],
      ['an odd of another event', [leg('a1'), leg(null, { oddId: 'y', otherEvent: true })], 12, ['y:OTHER_EVENT']],
      ['a suspended or closed odd', [leg('a1'), leg('b1', { open: false })], 12, ['b1:NOT_OPEN']],
      ['a repeated id: the second mention', [leg('a1'), leg('b1'), leg('a1')], 12, ['a1:DUPLICATE']],
      ['an odd named by id and by outcomeId', [leg('a1'), leg('a1', { oddId: '1001' })], 12, ['1001:DUPLICATE']],
      [
        'a repeated unknown id',
        [leg(null, { oddId: 'x' }), leg(null, { oddId: 'x' })],
        12,
        ['x:UNKNOWN_ODD', 'x:DUPLICATE'],
      ],
      ['legs that cannot win together', [leg('a1'), leg('a2'), leg('b1')], 12, ['a1:CONTRADICTS', 'a2:CONTRADICTS']],
      [
        'two outcomes of one single-winner market',
        [leg('w1', { exclusiveMarket: 'w' }), leg('w2', { exclusiveMarket: 'w' }), leg('b1')],
        12,
        ['w1:SAME_MARKET', 'w2:SAME_MARKET'],
      ],
      [
        'a leg contradicting the first of a shared market is named in the same answer',
        [leg('a1', { exclusiveMarket: 'm' }), leg('z1', { exclusiveMarket: 'm' }), leg('a2')],
        12,
        ['a1:SAME_MARKET', 'z1:SAME_MARKET', 'a2:CONTRADICTS'],
      ],
      [
        'a closed outcome of the market is NOT_OPEN, not SAME_MARKET',
        [leg('w1', { exclusiveMarket: 'w' }), leg('w2', { exclusiveMarket: 'w', open: false })],
        12,
        ['w2:NOT_OPEN'],
      ],
      ['a closed leg is not checked for contradictions', [leg('a1'), leg('a2', { open: false })], 12, ['a2:NOT_OPEN']],
      ['one leg past the maximum', [leg('a1'), leg('b1'), leg('c1')], 2, ['c1:TOO_MANY_LEGS']],
      ['past the maximum, nothing else is said of a leg', [leg('a1'), leg('b1'), leg('a1')], 2, ['a1:TOO_MANY_LEGS']],
      [
        'every problem at once, in the request order',
        [leg('a1'), leg('a2'), leg(null, { oddId: 'x' }), leg('b1', { open: false }), leg('a1'), leg('c1')],
        5,
        ['a1:CONTRADICTS', 'a2:CONTRADICTS', 'x:UNKNOWN_ODD', 'b1:NOT_OPEN', 'a1:DUPLICATE', 'c1:TOO_MANY_LEGS'],
      ],
    ];
    for (const [name, legs, max, expected] of table) assert.deepEqual(codesOf(legs, max), expected, name);
  });

  const ODDS = ['a1', 'a2', 'b1', 'c1', 'c2', 'd1'] as const;
  const MISSING = ['x', 'y', 'z'] as const;
  // Facts of one odd agree wherever it is named: it is open or not, the missing ids of another event or none.
  const request = fc.record({
    named: fc.array(
      fc.record({
        odd: fc.option(fc.constantFrom(...ODDS), { nil: null }),
        alias: fc.boolean(),
        missing: fc.constantFrom(...MISSING),
      }),
      { maxLength: 10 },
    ),
    closed: fc.subarray([...ODDS]),
    foreign: fc.subarray([...MISSING]),
  });

  test('what is left unnamed is a parlay: within the maximum, distinct odds of the event, open, none clashing', () => {
    fc.assert(
      fc.property(request, fc.integer({ min: 1, max: 8 }), ({ named: raw, closed, foreign }, max) => {
        const legs = raw.map(
          (f): LegFacts => ({
            oddId: f.odd === null ? f.missing : f.alias ? `outcome-${f.odd}` : f.odd,
            odd: f.odd,
            otherEvent: f.odd === null && (foreign as string[]).includes(f.missing),
            open: f.odd !== null && !(closed as string[]).includes(f.odd),
            // c1 and c2 share a single-winner market (and clash by letter too).
            exclusiveMarket: f.odd?.startsWith('c') ? 'c' : null,
          }),
        );
        const problems = legProblems(legs, max, byLetter(legs));
        // One code per bad leg, in the request's order.
        const named = new Set(problems.map((p) => p.index));
        assert.equal(named.size, problems.length);
        assert.deepEqual(
          problems.map((p) => p.index),
          [...named].sort((a, b) => a - b),
        );
        for (const p of problems) assert.equal(p.oddId, legs[p.index]?.oddId);
        const kept = legs.flatMap((l, i) => (named.has(i) ? [] : [{ ...l, i }]));
        assert.ok(kept.every((l) => l.i < max && l.odd !== null && l.open));
        assert.equal(new Set(kept.map((l) => l.odd)).size, kept.length);
        const shared = kept.flatMap((l) => (l.exclusiveMarket ? [l.exclusiveMarket] : []));
        assert.equal(new Set(shared).size, shared.length, 'no two legs left share a single-winner market');
        assert.deepEqual(
          byLetter(legs)(kept.map((l) => l.i)),
          [],
          'the legs left cannot clash: every clashing leg is named',
        );
      }),
    );
  });
});

describe('optionReason', () => {
  const option = (facts: Partial<OptionFacts> = {}): OptionFacts => ({
    isLeg: false,
    open: true,
    legs: 2,
    sameExclusiveMarket: false,
    contradicts: false,
    ...facts,
  });

  test('walks every rule', () => {
    const table: Array<[string, OptionFacts, string | null]> = [
      ['combinable', option(), null],
      ['already a leg', option({ isLeg: true, contradicts: true }), 'DUPLICATE'],
      ['not open', option({ open: false, sameExclusiveMarket: true }), 'NOT_OPEN'],
      ['the legs are at the maximum', option({ legs: 12, contradicts: true }), 'TOO_MANY_LEGS'],
      [
        'another outcome of a single-winner market that is a leg',
        option({ sameExclusiveMarket: true, contradicts: true }),
        'SAME_MARKET',
      ],
      ['cannot win with the legs', option({ contradicts: true }), 'CONTRADICTS'],
    ];
    for (const [name, facts, expected] of table) assert.equal(optionReason(facts, 12), expected, name);
  });

  test('an option is combinable exactly when nothing stands in its way', () => {
    fc.assert(
      fc.property(
        fc.record({
          isLeg: fc.boolean(),
          open: fc.boolean(),
          legs: fc.integer({ min: 0, max: 15 }),
          sameExclusiveMarket: fc.boolean(),
          contradicts: fc.boolean(),
        }),
        fc.integer({ min: 2, max: 12 }),
        (facts, max) => {
          const blocked =
            facts.isLeg || !facts.open || facts.legs >= max || facts.sameExclusiveMarket || facts.contradicts;
          assert.equal(optionReason(facts, max) === null, !blocked);
        },
      ),
    );
  });
});
