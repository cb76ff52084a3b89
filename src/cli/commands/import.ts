import { loadConfig } from '../../config.ts';
import { FeedValidationError } from '../../ingest/feed-errors.ts';
import type { IngestSummary } from '../../ingest/ingest-feed.ts';
import type { Command } from '../main.ts';
import { progress } from '../progress.ts';
import { columns } from '../table.ts';
import { openMigratedStore } from './open-store.ts';

export const importCommand: Command = {
  usage: [
    'Usage: altsports import FILE',
    '',
    'Reads FILE (one JSON feed document, or NDJSON: one feed document per line), validates it whole, and',
    'writes it in one transaction through the same path as POST /api/v1/admin/feed. A bad file writes',
    'nothing and every offending item and field is listed. Progress is shown on a terminal; a summary',
    'is printed at the end.',
  ].join('\n'),
  async run({ positionals }) {
    const [file] = positionals;
    if (!file || positionals.length > 1) {
      console.error(this.usage);
      return 2;
    }
    const { ingestFeed } = await import('../../ingest/ingest-feed.ts');
    const { readFeedFile } = await import('../../ingest/read-feed-file.ts');
    const config = loadConfig();
    const store = await openMigratedStore(config);
    const bar = progress(`import ${file}`);
    try {
      const feed = await readFeedFile(file, (read, total) =>
        bar.update(`reading ${Math.round((100 * read) / Math.max(total, 1))}%`),
      );
      bar.update('validating', true);
      let summary: IngestSummary;
      try {
        summary = await ingestFeed(store, feed.document, {
          onCollection: (collection, counts) => bar.update(`wrote ${counts.received} ${collection}`, true),
        });
      } catch (error) {
        if (error instanceof FeedValidationError) {
          throw new FeedValidationError(
            error.problems.map((p) => {
              const match = /^(\w+)\[(\d+)\]$/.exec(p.item);
              const line = match ? feed.lineOf(match[1] as string, Number(match[2])) : undefined;
              return line ? { ...p, item: `${p.item} (line ${line})` } : p;
            }),
          );
        }
        throw error;
      }
      bar.done();
      const { changedEventIds, changes, ...collections } = summary;
      console.log(`Imported ${file} into ${store.dialect} ${store.location}`);
      const counted = Object.entries(collections).filter(([, c]) => c.received > 0);
      const table = columns(
        [
          ['collection', 'received', 'inserted', 'updated', 'unchanged', 'stale'],
          ...counted.map(([name, c]) => [
            name,
            ...[c.received, c.inserted, c.updated, c.unchanged, c.stale].map(String),
          ]),
        ],
        ['left', 'right', 'right', 'right', 'right', 'right'],
      );
      for (const line of table) console.log(`  ${line}`);
      console.log(`  ${changedEventIds.length} event document(s) changed, ${changes.length} change(s) logged`);
    } finally {
      bar.done();
      await store.close();
    }
  },
};
