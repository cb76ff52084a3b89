import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { loadConfig } from '../../config.ts';
import type { Command } from '../main.ts';
import { progress } from '../progress.ts';
import { openMigratedStore } from './open-store.ts';

export const demoCommand: Command = {
  usage: [
    'Usage: altsports demo [--events N] [--seed S] [--out FILE]',
    '',
    'Generates the deterministic demo dataset (every competition, events in every status, dates',
    'relative to today) and loads it through the ingest path. --events sets the total number of',
    'events (default: a small dataset); --out writes NDJSON feed documents to FILE instead, for',
    '`altsports import`.',
  ].join('\n'),
  options: { events: { type: 'string' }, seed: { type: 'string' }, out: { type: 'string' } },
  async run({ values }) {
    const events = values.events === undefined ? undefined : Number(values.events);
    const seed = values.seed === undefined ? undefined : Number(values.seed);
    if (events !== undefined && !(Number.isInteger(events) && events > 0 && events <= 10_000_000)) {
      console.error('altsports demo: --events must be a whole number from 1 to 10000000');
      return 2;
    }
    if (seed !== undefined && !Number.isInteger(seed)) {
      console.error('altsports demo: --seed must be a whole number');
      return 2;
    }
    const bar = progress('demo');
    const started = Date.now();
    if (typeof values.out === 'string') {
      const { generateDemoFeeds } = await import('../../demo/generate.ts');
      const out = createWriteStream(values.out);
      let written = 0;
      for (const feed of generateDemoFeeds({ now: new Date(), seed, events })) {
        if (!out.write(`${JSON.stringify(feed)}\n`)) await once(out, 'drain');
        written += feed.events?.length ?? 0;
        bar.update(`${written} events written`);
      }
      out.end();
      await once(out, 'finish');
      bar.done();
      console.log(`Wrote ${written} demo events to ${values.out} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      return;
    }
    const { loadDemoData } = await import('../../demo/load-demo.ts');
    const store = await openMigratedStore(loadConfig());
    try {
      const result = await loadDemoData(store, {
        seed,
        events,
        onProgress: (n) => bar.update(`${n}${events ? ` of ${events}` : ''} events loaded`),
      });
      bar.done();
      console.log(
        `Loaded ${result.events} demo events into ${store.dialect} ${store.location} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
    } finally {
      await store.close();
    }
  },
};
