import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { generateDemoFeeds } from '../../src/demo/generate.ts';
import { all, NOW, priorChunks } from '../helpers/demo-feeds.ts';

// A file of its own: it generates 600 events twice, which runs alongside the other files.
describe('demo data generator', () => {
  test('chunking changes the packaging, not the content; later chunks validate against earlier ones', async () => {
    const whole = [...generateDemoFeeds({ now: NOW, seed: 3, events: 600 })];
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
    // Parents travel in each competition's first chunk only.
    const later = chunked.filter((d) => !d.tours);
    assert.ok(later.length > 0);
    for (const d of later) assert.ok(!d.athletes && !d.teams && !d.futures && !d.tourYears);
    const { validate } = priorChunks();
    for (const doc of chunked) await validate(doc);
  });
});
