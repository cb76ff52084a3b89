import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { Settlement } from '../../../src/domain/enumerations.ts';
import type { ScopeResult } from '../../../src/domain/markets/scope-result.ts';
import { calledOffResult, competitionRanks } from '../../../src/domain/markets/scope-results.ts';
import type { Selection } from '../../../src/domain/markets/selection.ts';
import {
  type MarketOutcome,
  marketPlaces,
  type OperatorSettlement,
  settleMarket,
} from '../../../src/domain/markets/settle-market.ts';

const decided = (ranks: Record<string, number | null>): ScopeResult => ({
  state: 'decided',
  ranks: new Map(Object.entries(ranks)),
});
const VOIDED: ScopeResult = { state: 'void', ranks: new Map() };
const PENDING: ScopeResult = { state: 'pending', ranks: new Map() };

const win = (athleteId: string): Selection => ({ kind: 'place', athleteId, place: 1 });
const top3 = (athleteId: string): Selection => ({ kind: 'top', athleteId, places: 3 });
const op = (settlement: Settlement, updatedAt = 't1', deadHeatFactor = 1): OperatorSettlement => ({
  settlement,
  deadHeatFactor,
  updatedAt,
});
const outcome = (id: string, selection: Selection, operator: OperatorSettlement | null = null): MarketOutcome => ({
  id,
  selection,
  operator,
});
const winners = (ids: string[], operator: Record<string, OperatorSettlement> = {}) =>
  ids.map((id) => outcome(id, win(id), operator[id] ?? null));
const short = (settled: ReturnType<typeof settleMarket>) =>
  settled.map(
    (s) => `${s.settlement}${s.deadHeatFactor === 1 ? '' : `@${s.deadHeatFactor}`}${s.byOperator ? '*' : ''}`,
  );

describe('settleMarket: precedence', () => {
  const cases: Array<[string, MarketOutcome[], ScopeResult | undefined, string[]]> = [
    ['the results alone', winners(['A', 'B', 'C']), decided({ A: 1, B: 2, C: 3 }), ['WIN', 'LOSE', 'LOSE']],
    ['pending: nothing settles', winners(['A', 'B']), PENDING, ['NOT_SET', 'NOT_SET']],
    ['no result at all', winners(['A', 'B']), undefined, ['NOT_SET', 'NOT_SET']],
    [
      'a dead heat of the results',
      winners(['A', 'B', 'C']),
      decided({ A: 1, B: 1, C: 3 }),
      ['WIN@0.5', 'WIN@0.5', 'LOSE'],
    ],
    [
      "the operator's WIN against the results: the results' winner loses, a loser stays the results'",
      winners(['A', 'B', 'C'], { B: op('WIN') }),
      decided({ A: 1, B: 2, C: 3 }),
      ['LOSE*', 'WIN*', 'LOSE'],
    ],
    [
      "the operator's WIN before any result: the rest lose",
      winners(['A', 'B', 'C'], { A: op('WIN') }),
      PENDING,
      ['WIN*', 'LOSE*', 'LOSE*'],
    ],
    [
      'two WINs of the operator: the latest stands, the earlier loses',
      winners(['A', 'B', 'C'], { A: op('WIN', 't1'), B: op('WIN', 't2') }),
      PENDING,
      ['LOSE*', 'WIN*', 'LOSE*'],
    ],
    [
      "the operator's dead heat: its two shares stand, the rest lose",
      winners(['A', 'B', 'C'], { A: op('WIN', 't1', 0.5), B: op('WIN', 't1', 0.5) }),
      PENDING,
      ['WIN@0.5*', 'WIN@0.5*', 'LOSE*'],
    ],
    [
      "the operator's dead heat of one: the results' tied winner shares it, the rest stand",
      winners(['A', 'B', 'C'], { A: op('WIN', 't1', 0.5) }),
      decided({ A: 1, B: 1, C: 3 }),
      ['WIN@0.5*', 'WIN@0.5', 'LOSE'],
    ],
    [
      "the operator's dead heat of one before the results: the others await its word",
      winners(['A', 'B', 'C'], { A: op('WIN', 't1', 0.5) }),
      PENDING,
      ['WIN@0.5*', 'NOT_SET', 'NOT_SET'],
    ],
    [
      "the operator's dead heat against an outright winner of the results: that one awaits the operator",
      winners(['A', 'B', 'C'], { A: op('WIN', 't1', 0.5) }),
      decided({ A: 2, B: 1, C: 3 }),
      ['WIN@0.5*', 'NOT_SET', 'LOSE'],
    ],
    [
      "the operator's VOID and LOSE settle their own outcomes only",
      winners(['A', 'B', 'C'], { A: op('VOID'), B: op('LOSE') }),
      decided({ A: 1, B: 2, C: 3 }),
      ['VOID*', 'LOSE*', 'LOSE'],
    ],
    [
      'a called-off scope voids what the operator did not settle',
      winners(['A', 'B'], { B: op('LOSE') }),
      VOIDED,
      ['VOID', 'LOSE*'],
    ],
    [
      "the operator's WIN in a called-off scope: the others lose, as the operator decided the market",
      winners(['A', 'B'], { A: op('WIN') }),
      VOIDED,
      ['WIN*', 'LOSE*'],
    ],
    [
      "a non-runner stays void beside the operator's WIN",
      winners(['A', 'B', 'Z'], { B: op('WIN') }),
      decided({ A: 1, B: 2 }),
      ['LOSE*', 'WIN*', 'VOID'],
    ],
    [
      "top 3: the operator's WIN takes a place, the worst-placed winner of the results gives it up",
      ['A', 'B', 'C', 'D'].map((id) => outcome(id, top3(id), id === 'D' ? op('WIN') : null)),
      decided({ A: 1, B: 2, C: 3, D: 4 }),
      ['WIN', 'WIN', 'LOSE*', 'WIN*'],
    ],
    [
      'top 3: a dead heat across the cut shares the last place',
      ['A', 'B', 'C', 'D'].map((id) => outcome(id, top3(id))),
      decided({ A: 1, B: 2, C: 3, D: 3 }),
      ['WIN', 'WIN', 'WIN@0.5', 'WIN@0.5'],
    ],
  ];
  for (const [name, outcomes, result, expected] of cases)
    test(name, () => assert.deepEqual(short(settleMarket(outcomes, result)), expected));

  test('places: a top-k market pays k, every other market one', () => {
    assert.equal(marketPlaces([top3('A')]), 3);
    assert.equal(marketPlaces([win('A')]), 1);
    assert.equal(marketPlaces([{ kind: 'ahead', athleteId: 'A', otherId: 'B' }]), 1);
    assert.equal(marketPlaces([]), 1);
  });
});

describe('calledOffResult: a cancelled event voids every scope, an abandoned one what was not decided', () => {
  const done = decided({ A: 1 });
  const cases: Array<[string, ScopeResult | undefined, { eventStatus: string; abandoned?: boolean }, string]> = [
    ['an event still on keeps its scope', PENDING, { eventStatus: 'LIVE' }, 'pending'],
    ['an event still on, no result', undefined, { eventStatus: 'UPCOMING' }, 'none'],
    ['cancelled: a pending heat voids', PENDING, { eventStatus: 'CANCELLED' }, 'void'],
    ['cancelled: a decided heat voids too', done, { eventStatus: 'CANCELLED' }, 'void'],
    ['cancelled: a scope with no result voids', undefined, { eventStatus: 'CANCELLED' }, 'void'],
    ['abandoned: a decided heat stands', done, { eventStatus: 'CANCELLED', abandoned: true }, 'decided'],
    ['abandoned: a heat that never ran voids', PENDING, { eventStatus: 'CANCELLED', abandoned: true }, 'void'],
    [
      'abandoned: a drawn fight stands',
      { state: 'push', ranks: new Map() },
      { eventStatus: 'CANCELLED', abandoned: true },
      'push',
    ],
  ];
  for (const [name, result, event, expected] of cases)
    test(name, () => assert.equal(calledOffResult(result, event)?.state ?? 'none', expected));
});

describe('settleMarket: properties over random markets', () => {
  const ids = ['A', 'B', 'C', 'D', 'E'];
  const operator = fc.option(
    fc.record({
      settlement: fc.constantFrom<Settlement>('WIN', 'LOSE', 'VOID', 'PUSH'),
      deadHeatFactor: fc.constantFrom(1, 0.5, 1 / 3),
      updatedAt: fc.constantFrom('t1', 't2', 't3'),
    }),
    { nil: null },
  );
  const result = fc.oneof(
    fc.constant(PENDING),
    fc.constant(VOIDED),
    // Competition ranks (1, 1, 3) of random times, as the read layer builds them; E did not start.
    fc.array(fc.option(fc.integer({ min: 1, max: 4 }), { nil: null }), { minLength: 4, maxLength: 4 }).map(
      (times): ScopeResult => ({
        state: 'decided',
        ranks: competitionRanks(new Map(times.map((t, i) => [ids[i] as string, t]))),
      }),
    ),
  );
  const market = fc.record({
    places: fc.constantFrom(1, 3),
    operators: fc.array(operator, { minLength: 5, maxLength: 5 }),
    result,
  });
  const outcomesOf = (m: { places: number; operators: Array<OperatorSettlement | null> }) =>
    ids.map((id, i) =>
      outcome(
        id,
        m.places === 1 ? win(id) : top3(id),
        m.operators[i]?.settlement === 'WIN'
          ? m.operators[i]
          : m.operators[i] && { ...m.operators[i], deadHeatFactor: 1 },
      ),
    );

  test('a market never pays more full winners than it has places', () => {
    fc.assert(
      fc.property(market, (m) => {
        const paid = settleMarket(outcomesOf(m), m.result)
          .filter((s) => s.settlement === 'WIN')
          .reduce((sum, s) => sum + s.deadHeatFactor, 0);
        assert.ok(paid <= m.places + 1e-9, `${paid} winners in ${m.places} places`);
      }),
    );
  });

  test("the operator's settlement of an outcome is what it publishes, unless a later WIN took its place", () => {
    fc.assert(
      fc.property(market, (m) => {
        const outcomes = outcomesOf(m);
        settleMarket(outcomes, m.result).forEach((s, i) => {
          const own = outcomes[i]?.operator;
          if (!own) return;
          assert.equal(s.byOperator, true);
          if (own.settlement !== 'WIN') assert.equal(s.settlement, own.settlement);
          else assert.ok(s.settlement === 'WIN' || s.settlement === 'LOSE');
        });
      }),
    );
  });

  test("an operator's full WIN in a single-winner market leaves no other winner and nothing open", () => {
    fc.assert(
      fc.property(market, (m) => {
        const outcomes = outcomesOf({ ...m, places: 1 });
        const settled = settleMarket(outcomes, m.result);
        const fullWin = settled.some(
          (s, i) => s.settlement === 'WIN' && s.deadHeatFactor === 1 && outcomes[i]?.operator,
        );
        if (!fullWin) return;
        settled.forEach((s, i) => {
          if (outcomes[i]?.operator) return;
          assert.ok(['LOSE', 'VOID'].includes(s.settlement), `${outcomes[i]?.id}: ${s.settlement}`);
        });
      }),
    );
  });

  test('without the operator, a market settles as its outcomes settle one by one', () => {
    fc.assert(
      fc.property(market, (m) => {
        const outcomes = outcomesOf({ ...m, operators: ids.map(() => null) });
        const settled = settleMarket(outcomes, m.result);
        assert.ok(settled.every((s) => !s.byOperator));
        if (m.result.state !== 'decided')
          assert.ok(settled.every((s) => s.settlement === (m.result.state === 'void' ? 'VOID' : 'NOT_SET')));
      }),
    );
  });
});
