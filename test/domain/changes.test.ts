import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  ALL_DOCUMENTS,
  type BatchChanges,
  CHANGE_KINDS,
  type ChangeRecord,
  cacheTagsOfChange,
  changeRecords,
  competitionTag,
  type EventChanges,
  eventTag,
  futuresTag,
  MAX_ODDS_PER_RECORD,
} from '../../src/domain/changes.ts';
import { assertStreamData } from '../helpers/stream-data.ts';

/** A record's data as the stream and GET /changes publish it: with the server time of its commit (read/change-stream.ts). */
const published = (data: object | undefined) => ({ ...data, publishedAt: '2026-04-05T00:00:00.000Z' });

const AT = '2026-11-21T10:00:00.000Z';
const E1 = 'a1a1a1a1-0000-4000-8000-000000000001';
const E2 = 'a1a1a1a1-0000-4000-8000-000000000002';

const quiet = (changes: Partial<EventChanges> = {}): EventChanges => ({
  competition: 'wsl',
  heatIds: [],
  completedHeatIds: [],
  roundIds: [],
  participantsChanged: false,
  eventFinal: false,
  marketIds: [],
  odds: [],
  updatedAt: AT,
  ...changes,
});
const batch = (events: Array<[string, EventChanges]>, more: Partial<BatchChanges> = {}): BatchChanges => ({
  events: new Map(events),
  futures: new Map(),
  reference: [],
  ...more,
});
const odd = (id: string, settlement: string | null = null) => ({
  id,
  marketId: 'm-1',
  decimalOdds: 2.5,
  status: 'OPEN',
  settlement,
});
const kinds = (records: ChangeRecord[]) => records.map((r) => r.kind);

describe('changeRecords', () => {
  const cases: Array<{ name: string; input: BatchChanges; kinds: string[]; data?: Record<string, unknown> }> = [
    { name: 'nothing changed: no record', input: batch([]), kinds: [] },
    {
      name: "the event's own row",
      input: batch([[E1, quiet({ event: { eventStatus: 'LIVE', updatedAt: AT } })]]),
      kinds: ['event'],
      data: { eventId: `wsl:${E1}`, competition: 'wsl', eventStatus: 'LIVE', updatedAt: AT },
    },
    {
      name: 'a heat (its entries, laps, result)',
      input: batch([[E1, quiet({ heatIds: ['h-2', 'h-1', 'h-2'] })]]),
      kinds: ['heatScore'],
      data: { eventId: `wsl:${E1}`, competition: 'wsl', heatIds: ['h-1', 'h-2'], roundIds: [], updatedAt: AT },
    },
    { name: 'a round score', input: batch([[E1, quiet({ roundIds: ['r-1'] })]]), kinds: ['heatScore'] },
    { name: 'the participants', input: batch([[E1, quiet({ participantsChanged: true })]]), kinds: ['heatScore'] },
    {
      name: 'a market without prices',
      input: batch([[E1, quiet({ marketIds: ['m-1'] })]]),
      kinds: ['odds'],
      data: { eventId: `wsl:${E1}`, competition: 'wsl', marketIds: ['m-1'], odds: [], updatedAt: AT },
    },
    { name: 'a price', input: batch([[E1, quiet({ odds: [odd('o-1')] })]]), kinds: ['odds'] },
    {
      name: 'an operator settlement: odds and settlement',
      input: batch([[E1, quiet({ odds: [odd('o-1', 'WIN')] })]]),
      kinds: ['odds', 'settlement'],
    },
    {
      name: 'a completed heat: heat score and settlement',
      input: batch([[E1, quiet({ heatIds: ['h-1'], completedHeatIds: ['h-1'] })]]),
      kinds: ['heatScore', 'settlement'],
      data: undefined,
    },
    {
      name: 'the event completed',
      input: batch([[E1, quiet({ event: { eventStatus: 'COMPLETED', updatedAt: AT }, eventFinal: true })]]),
      kinds: ['event', 'settlement'],
    },
    {
      name: 'the event cancelled',
      input: batch([[E1, quiet({ event: { eventStatus: 'CANCELLED', updatedAt: AT }, eventFinal: true })]]),
      kinds: ['event', 'settlement'],
    },
    {
      name: "a finished event's participants (their places)",
      input: batch([[E1, quiet({ participantsChanged: true, eventFinal: true })]]),
      kinds: ['heatScore', 'settlement'],
    },
    {
      name: "a finished event's odds prices alone: no settlement",
      input: batch([[E1, quiet({ odds: [odd('o-1')], eventFinal: true })]]),
      kinds: ['odds'],
    },
    {
      name: 'the event postponed: no settlement',
      input: batch([[E1, quiet({ event: { eventStatus: 'POSTPONED', updatedAt: AT } })]]),
      kinds: ['event'],
    },
    {
      name: 'two events, in id order',
      input: batch([
        [E2, quiet({ heatIds: ['h-9'] })],
        [E1, quiet({ marketIds: ['m-1'] })],
      ]),
      kinds: ['odds', 'heatScore'],
    },
    {
      name: 'futures, per competition',
      input: batch([], { futures: new Map([['spr', { futureIds: ['f-2', 'f-1'], updatedAt: AT }]]) }),
      kinds: ['future'],
      data: { competition: 'spr', futureIds: ['f-1', 'f-2'], updatedAt: AT },
    },
    {
      name: 'shared facts (athletes): one reset',
      input: batch([[E1, quiet({ heatIds: ['h-1'] })]], { reference: ['athletes'] }),
      kinds: ['reset'],
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const records = changeRecords(c.input);
      assert.deepEqual(kinds(records), c.kinds);
      if (c.data) assert.deepEqual(records[0]?.data, c.data);
    });
  }

  test('a bulk batch is one reset', () => {
    const events = Array.from({ length: 6 }, (_, i): [string, EventChanges] => [`e-${i}`, quiet({ heatIds: ['h'] })]);
    assert.deepEqual(kinds(changeRecords(batch(events), 5)), ['reset']);
    for (const record of [...changeRecords(batch(events), 5), ...changeRecords(batch([], { reference: ['athletes'] }))])
      assertStreamData(record.kind, published(record.data));
    assert.equal(changeRecords(batch(events), 6).length, 6);
  });

  test('an odds record lists at most MAX_ODDS_PER_RECORD prices and says when it was cut', () => {
    const many = Array.from({ length: MAX_ODDS_PER_RECORD + 1 }, (_, i) => odd(`o-${String(i).padStart(4, '0')}`));
    const [record] = changeRecords(batch([[E1, quiet({ odds: many })]]));
    assert.equal((record?.data.odds as unknown[] | undefined)?.length, MAX_ODDS_PER_RECORD);
    assert.equal(record?.data.truncated, true);
    assertStreamData('odds', published(record?.data));
  });

  test('property: every record names a known kind, its data as the OpenAPI document describes it; event records carry the public event id and their competition', () => {
    const eventChanges = fc.record({
      heats: fc.array(fc.constantFrom('h-1', 'h-2', 'h-3'), { maxLength: 3 }),
      completed: fc.boolean(),
      rounds: fc.array(fc.constantFrom('r-1', 'r-2'), { maxLength: 2 }),
      markets: fc.array(fc.constantFrom('m-1', 'm-2'), { maxLength: 2 }),
      odds: fc.array(fc.record({ id: fc.constantFrom('o-1', 'o-2', 'o-3'), settled: fc.boolean() }), { maxLength: 3 }),
      status: fc.option(fc.constantFrom('LIVE', 'COMPLETED', 'UPCOMING'), { nil: undefined }),
      competition: fc.constantFrom('wsl', 'spr', 'gsoc'),
    });
    fc.assert(
      fc.property(fc.dictionary(fc.uuid(), eventChanges, { maxKeys: 5 }), (input) => {
        const events = Object.entries(input).map(([id, e]): [string, EventChanges] => [
          id,
          quiet({
            competition: e.competition,
            heatIds: e.heats,
            completedHeatIds: e.completed ? e.heats : [],
            roundIds: e.rounds,
            marketIds: e.markets,
            odds: e.odds.map((o) => odd(o.id, o.settled ? 'WIN' : null)),
            ...(e.status ? { event: { eventStatus: e.status, updatedAt: AT } } : {}),
            eventFinal: e.status === 'COMPLETED',
          }),
        ]);
        const records = changeRecords(batch(events));
        for (const record of records) {
          assert.ok((CHANGE_KINDS as readonly string[]).includes(record.kind));
          assertStreamData(record.kind, published(record.data));
          const source = input[record.eventId as string];
          assert.ok(source, 'every record is about an event of the batch');
          assert.equal(record.competition, source.competition);
          assert.equal(record.data.eventId, `${source.competition}:${record.eventId}`);
        }
        // At most one record per kind and event.
        const keys = records.map((r) => `${r.eventId} ${r.kind}`);
        assert.equal(new Set(keys).size, keys.length);
      }),
    );
  });
});

describe('cacheTagsOfChange', () => {
  const cases: Array<[Pick<ChangeRecord, 'kind' | 'competition' | 'eventId'>, string[]]> = [
    [{ kind: 'heatScore', competition: 'wsl', eventId: E1 }, [eventTag(E1), competitionTag('wsl')]],
    [{ kind: 'event', competition: 'wsl', eventId: E1 }, [eventTag(E1), competitionTag('wsl')]],
    [{ kind: 'odds', competition: 'spr', eventId: E2 }, [eventTag(E2), competitionTag('spr')]],
    [{ kind: 'settlement', competition: 'spr', eventId: E2 }, [eventTag(E2), competitionTag('spr')]],
    [{ kind: 'future', competition: 'spr', eventId: null }, [futuresTag('spr')]],
    [{ kind: 'reset', competition: null, eventId: null }, [ALL_DOCUMENTS]],
  ];
  for (const [change, tags] of cases) {
    test(`${change.kind} of ${change.competition ?? 'every competition'} drops ${tags.join(', ')}`, () => {
      assert.deepEqual(cacheTagsOfChange(change), tags);
    });
  }

  test("a change to one event never drops another event's documents", () => {
    fc.assert(
      fc.property(
        fc.uuid(),
        fc.uuid(),
        fc.constantFrom('event', 'heatScore', 'odds', 'settlement' as const),
        (a, b, kind) => {
          fc.pre(a !== b);
          assert.ok(!cacheTagsOfChange({ kind, competition: 'wsl', eventId: a }).includes(eventTag(b)));
        },
      ),
    );
  });
});
