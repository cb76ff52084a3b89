import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { marketStatus, STATUS_REASONS, type StatusFacts } from '../../../src/domain/markets/market-status.ts';

const OPEN: StatusFacts = {
  marketStatus: 'OPEN',
  marketStatusReason: null,
  oddStatus: 'OPEN',
  oddStatusReason: null,
  resulted: false,
  eventStatus: 'LIVE',
  feedStale: false,
  scoreChange: false,
};

describe('market status and bet stop', () => {
  test('table', () => {
    const table: Array<[Partial<StatusFacts>, ReturnType<typeof marketStatus>]> = [
      [{}, { status: 'OPEN' }],
      [{ feedStale: true }, { status: 'SUSPENDED', statusReason: 'FEED_STALE' }],
      [{ feedStale: true, eventStatus: 'UPCOMING' }, { status: 'OPEN' }],
      [{ scoreChange: true }, { status: 'SUSPENDED', statusReason: 'SCORE_CHANGE' }],
      [
        { feedStale: true, scoreChange: true },
        { status: 'SUSPENDED', statusReason: 'FEED_STALE' },
      ],
      [{ scoreChange: true, eventStatus: 'UPCOMING' }, { status: 'OPEN' }],
      // The ingest writes a pre-match price's EVENT_STARTED as the outcome's status.
      [
        { oddStatus: 'SUSPENDED', oddStatusReason: 'EVENT_STARTED', scoreChange: true },
        { status: 'SUSPENDED', statusReason: 'EVENT_STARTED' },
      ],
      [
        { scoreChange: true, oddStatus: 'SUSPENDED', oddStatusReason: 'OPERATOR' },
        { status: 'SUSPENDED', statusReason: 'OPERATOR' },
      ],
      [
        { oddStatus: 'SUSPENDED', oddStatusReason: 'EVENT_STARTED', resulted: true },
        { status: 'CLOSED', statusReason: 'RESULTED' },
      ],
      [{ oddStatus: 'SUSPENDED' }, { status: 'SUSPENDED', statusReason: 'OPERATOR' }],
      [
        { marketStatus: 'SUSPENDED', marketStatusReason: 'SCORE_CHANGE' },
        { status: 'SUSPENDED', statusReason: 'SCORE_CHANGE' },
      ],
      [
        { oddStatus: 'SUSPENDED', feedStale: true },
        { status: 'SUSPENDED', statusReason: 'OPERATOR' },
      ],
      [{ marketStatus: 'CLOSED' }, { status: 'CLOSED', statusReason: 'OPERATOR' }],
      [
        { oddStatus: 'CLOSED', oddStatusReason: 'EVENT_STARTED' },
        { status: 'CLOSED', statusReason: 'EVENT_STARTED' },
      ],
      [
        { resulted: true, feedStale: true },
        { status: 'CLOSED', statusReason: 'RESULTED' },
      ],
      [{ eventStatus: 'COMPLETED' }, { status: 'CLOSED', statusReason: 'RESULTED' }],
      [
        { eventStatus: 'CANCELLED', oddStatus: 'SUSPENDED' },
        { status: 'CLOSED', statusReason: 'RESULTED' },
      ],
    ];
    for (const [facts, expected] of table)
      assert.deepEqual(marketStatus({ ...OPEN, ...facts }), expected, JSON.stringify(facts));
  });

  test('properties: a reason exactly when not open; the operator closing wins; silence only suspends what is open', () => {
    const status = fc.constantFrom('OPEN', 'SUSPENDED', 'CLOSED');
    const reason = fc.option(fc.constantFrom(...STATUS_REASONS), { nil: null });
    const facts = fc.record({
      marketStatus: status,
      marketStatusReason: reason,
      oddStatus: status,
      oddStatusReason: reason,
      resulted: fc.boolean(),
      eventStatus: fc.constantFrom('LIVE', 'UPCOMING', 'COMPLETED', 'CANCELLED', 'POSTPONED'),
      feedStale: fc.boolean(),
      scoreChange: fc.boolean(),
    });
    fc.assert(
      fc.property(facts, (f) => {
        const out = marketStatus(f);
        assert.equal(out.status === 'OPEN', out.statusReason === undefined);
        if (f.oddStatus === 'CLOSED' || f.marketStatus === 'CLOSED') assert.equal(out.status, 'CLOSED');
        const fresh = marketStatus({ ...f, feedStale: false, scoreChange: false });
        if (fresh.status !== 'OPEN')
          assert.deepEqual(out, fresh, 'a derived bet stop changes nothing that is not open');
        else if (f.eventStatus !== 'LIVE') assert.deepEqual(out, { status: 'OPEN' }, 'only a LIVE event is stopped');
        else if (f.feedStale) assert.equal(out.statusReason, 'FEED_STALE');
        else if (f.scoreChange) assert.equal(out.statusReason, 'SCORE_CHANGE');
        else assert.equal(out.status, 'OPEN');
      }),
    );
  });
});
