import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { generateDemoFeeds } from '../../src/demo/generate.ts';
import type { FeedDocument } from '../../src/ingest/feed-schema.ts';
import { all, NOW, priorChunks } from '../helpers/demo-feeds.ts';

// A file of its own: 600 events in whole documents and in two chunkings, which runs alongside the other
// files; both describe blocks compare their chunks with the one whole generation. Only the chunking
// whose documents are validated is priced: the others are compared on what pricing leaves alone.
let whole: FeedDocument[] | undefined;
const wholeDocs = () => {
  whole ??= [...generateDemoFeeds({ now: NOW, seed: 3, events: 600, markets: false })];
  return whole;
};

describe('demo data generator', () => {
  test('chunking changes the packaging, not the content; later chunks validate against earlier ones', async () => {
    const whole = wholeDocs();
    const chunked = [...generateDemoFeeds({ now: NOW, seed: 3, events: 600, maxEventsPerChunk: 7 })];
    for (const key of [
      'events',
      'rounds',
      'heats',
      'roundScores',
      'eventParticipants',
      'heatEntries',
      'laps',
      'heatResults',
      'teamGames',
      'tours',
      'athletes',
      'teams',
      'futureOdds',
    ] as const) {
      assert.deepEqual(all(chunked, key), all(whole, key), key);
    }
    // Pricing draws from streams of its own: leaving it out changes nothing else.
    assert.equal(all(whole, 'markets').length + all(whole, 'odds').length, 0);
    assert.ok(all(chunked, 'markets').length > 0 && all(chunked, 'odds').length > 0);
    // Parents travel in each competition's first chunk only.
    const later = chunked.filter((d) => !d.tours);
    assert.ok(later.length > 0);
    for (const d of later) assert.ok(!d.athletes && !d.teams && !d.futures && !d.tourYears);
    const { validate } = priorChunks();
    for (const doc of chunked) await validate(doc);
  });
});

describe('demo results', () => {
  test('chunking keeps each event with its participants, entries, laps, results and team games', () => {
    const docs = [
      ...generateDemoFeeds({
        now: NOW,
        seed: 3,
        events: 600,
        maxEventsPerChunk: 5,
        maxItemsPerChunk: 2000,
        markets: false,
      }),
    ];
    const whole = wholeDocs();
    for (const key of ['eventParticipants', 'heatEntries', 'laps', 'heatResults', 'teamGames'] as const)
      assert.deepEqual(all(docs, key), all(whole, key), key);
    assert.ok(docs.length > whole.length);
    for (const doc of docs) {
      assert.ok((doc.events?.length ?? 0) <= 5);
      const events = new Set(doc.events?.map((e) => e.id));
      const heats = new Set(doc.heats?.map((h) => h.id));
      const entries = new Set(doc.heatEntries?.map((e) => e.id));
      for (const h of doc.heats ?? []) assert.ok(doc.rounds?.some((r) => r.id === h.roundId));
      for (const p of doc.eventParticipants ?? []) assert.ok(events.has(p.eventId), p.id);
      for (const e of doc.heatEntries ?? []) assert.ok(heats.has(e.heatId), e.id);
      for (const l of doc.laps ?? []) assert.ok(entries.has(l.heatEntryId), l.heatEntryId);
      for (const r of doc.heatResults ?? []) assert.ok(heats.has(r.heatId), r.heatId);
      for (const g of doc.teamGames ?? []) assert.ok(heats.has(g.heatId), g.heatId);
    }
    // The item bound closes documents early: lap-racing chunks hold fewer events than the event bound.
    const lapDocs = docs.filter((d) => (d.laps?.length ?? 0) > 0);
    assert.ok(lapDocs.some((d) => (d.events?.length ?? 0) < 5));
  });
});
