import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { outcomeHistory, type RecordedPrice } from '../../../src/domain/markets/price-history.ts';
import { decimalToAmerican, decimalToProbability } from '../../../src/domain/odds-format.ts';

const row = (decimalOdds: number, status: string, changedAt: string, extra: Partial<RecordedPrice> = {}) => ({
  decimalOdds,
  probability: null,
  status,
  statusReason: null,
  changedAt,
  isFirst: 0,
  ...extra,
});
const point = (odds: number, at: string) => ({
  odds,
  americanOdds: decimalToAmerican(odds),
  probability: decimalToProbability(odds),
  at,
});

const OPENING = row(2.5, 'OPEN', '2026-05-01T03:00:00.000Z', { isFirst: 1 });
const MOVED = row(2.2, 'OPEN', '2026-05-01T04:00:00.000Z');
const SUSPENDED = row(2.2, 'SUSPENDED', '2026-05-01T04:01:00.000Z', { statusReason: 'SCORE_CHANGE' });

describe('price history of an outcome', () => {
  test('table', () => {
    const table: Array<[string, Parameters<typeof outcomeHistory>[0], ReturnType<typeof outcomeHistory>]> = [
      [
        'open: no closing',
        { oldest: OPENING, lastOpen: MOVED, changes: [OPENING, MOVED], closedForGood: false },
        {
          opening: point(2.5, OPENING.changedAt),
          openingRetained: true,
          closing: null,
          changes: [
            { ...point(2.5, OPENING.changedAt), status: 'OPEN' },
            { ...point(2.2, MOVED.changedAt), status: 'OPEN' },
          ],
        },
      ],
      [
        'suspended, then closed for good: closing is the last open price',
        { oldest: OPENING, lastOpen: MOVED, changes: [SUSPENDED], closedForGood: true },
        {
          opening: point(2.5, OPENING.changedAt),
          openingRetained: true,
          closing: point(2.2, MOVED.changedAt),
          changes: [{ ...point(2.2, SUSPENDED.changedAt), status: 'SUSPENDED', statusReason: 'SCORE_CHANGE' }],
        },
      ],
      [
        'opening pruned (or older than the history): not retained',
        { oldest: MOVED, lastOpen: MOVED, changes: [], closedForGood: false },
        { opening: point(2.2, MOVED.changedAt), openingRetained: false, closing: null, changes: [] },
      ],
      [
        'closed without ever being open: no closing',
        { oldest: SUSPENDED, lastOpen: undefined, changes: [], closedForGood: true },
        { opening: point(2.2, SUSPENDED.changedAt), openingRetained: false, closing: null, changes: [] },
      ],
    ];
    for (const [name, facts, expected] of table) assert.deepEqual(outcomeHistory(facts), expected, name);
  });

  test('properties: changes keep their order and prices; closing only once closed for good; formats agree', () => {
    const recorded = fc.record({
      decimalOdds: fc.double({ min: 1.01, max: 1000, noNaN: true }),
      // Fed prices: their probability and American odds are the decimal's own.
      probability: fc.constant(null),
      status: fc.constantFrom('OPEN', 'SUSPENDED', 'CLOSED'),
      statusReason: fc.option(fc.constantFrom('OPERATOR', 'SCORE_CHANGE'), { nil: null }),
      changedAt: fc
        .date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true })
        .map((d) => d.toISOString()),
      isFirst: fc.constantFrom(0, 1),
    });
    fc.assert(
      fc.property(
        recorded,
        fc.option(recorded, { nil: undefined }),
        fc.array(recorded),
        fc.boolean(),
        (oldest, lastOpen, changes, closedForGood) => {
          const history = outcomeHistory({ oldest, lastOpen, changes, closedForGood });
          assert.deepEqual(
            history.changes.map((c) => [c.odds, c.status, c.statusReason ?? null, c.at]),
            changes.map((c) => [c.decimalOdds, c.status, c.statusReason, c.changedAt]),
          );
          assert.equal(history.closing === null, !closedForGood || lastOpen === undefined);
          assert.equal(history.openingRetained, oldest.isFirst === 1);
          for (const p of [history.opening, history.closing, ...history.changes])
            if (p) {
              assert.equal(p.americanOdds, decimalToAmerican(p.odds));
              assert.equal(p.probability, decimalToProbability(p.odds));
            }
        },
      ),
    );
  });
});

test("an engine price's point carries the model probability it was published from", () => {
  const engine = row(6.82, 'OPEN', '2026-05-01T03:00:00.000Z', { probability: 14.654, isFirst: 1 });
  const history = outcomeHistory({ oldest: engine, lastOpen: engine, changes: [engine], closedForGood: false });
  // American from the exact price the probability implies (6.8241), rounded towards the house.
  assert.deepEqual(history.opening, { odds: 6.82, americanOdds: 582, probability: 14.654, at: engine.changedAt });
});
