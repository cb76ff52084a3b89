import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { eventsPerCompetition, generateDemoFeeds } from '../../src/demo/generate.ts';
import { COMPETITIONS } from '../../src/domain/competitions.ts';
import { EVENT_STATUSES } from '../../src/domain/enumerations.ts';
import { all, NOW } from '../helpers/demo-feeds.ts';

// A file of its own, which runs alongside the other files. Unpriced (markets: false): what is asserted is
// the layout and the chunking, which pricing leaves alone (generate-chunking.test.ts shows it).
describe('demo data generator', () => {
  test('events: 5000 spreads exactly 5000 events over the competitions', () => {
    assert.deepEqual(
      eventsPerCompetition(5000).reduce((a, b) => a + b, 0),
      5000,
    );
    const docs = [...generateDemoFeeds({ now: NOW, events: 5000, maxEventsPerChunk: 100, markets: false })];
    assert.ok(docs.length > COMPETITIONS.length, 'more than one chunk per competition');
    assert.equal(all(docs, 'events').length, 5000);
    for (const doc of docs) assert.ok((doc.events?.length ?? 0) <= 100);
    assert.equal(all(docs, 'odds').length, 0);
    const statuses = new Set(all(docs, 'events').map((e) => e.eventStatus));
    assert.deepEqual(statuses, new Set(EVENT_STATUSES));
  });
});
