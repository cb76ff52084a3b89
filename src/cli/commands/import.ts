import { stat } from 'node:fs/promises';
import { loadConfig } from '../../config.ts';
import type { IngestOptions } from '../../ingest/ingest-feed.ts';
import type { Command } from '../main.ts';
import { progress } from '../progress.ts';
import { columns } from '../table.ts';
import { openMigratedStore } from './open-store.ts';

export const importCommand: Command = {
  usage: [
    'Usage: altsports import FILE',
    '',
    'Reads FILE (one JSON feed document, or NDJSON: one feed document per line) and writes it as one batch',
    'through the same path as POST /api/v1/admin/feed: each document is validated against the store as the',
    'lines before it left it, and all are written in one transaction. NDJSON is read a line at a time, so',
    'a file of any size takes the memory of its largest line; one JSON document over a megabyte is read a',
    'slice of items at a time, as the admin feed reads a large body. A bad file writes nothing and every',
    'offending item and field is listed with its line. Progress is shown on a terminal; a summary is',
    'printed at the end.',
  ].join('\n'),
  async run({ positionals }) {
    const [file] = positionals;
    if (!file || positionals.length > 1) {
      console.error(this.usage);
      return 2;
    }
    const { ingestDocuments } = await import('../../ingest/ingest-feed.ts');
    const { ingestInSlices } = await import('../../ingest/feed-slices.ts');
    const { LARGE_JSON_BYTES } = await import('../../ingest/large-json.ts');
    const { feedFileBytes, readFeedDocuments } = await import('../../ingest/read-feed-file.ts');
    const config = loadConfig();
    const store = await openMigratedStore(config);
    const bar = progress(`import ${file}`);
    try {
      let percent = 0;
      const onBytes = (read: number, total: number) => {
        percent = Math.round((100 * read) / Math.max(total, 1));
      };
      const options: IngestOptions = {
        onCollection: (collection, counts) => bar.update(`read ${percent}%, wrote ${counts.received} ${collection}`),
      };
      // A large file that is one feed document (not NDJSON) is read in slices; else, or when it is not one
      // the slices answer for, a line at a time or whole, as below.
      const inSlices =
        (await stat(file)).size > LARGE_JSON_BYTES
          ? await ingestInSlices(store, feedFileBytes(file, onBytes), options)
          : null;
      const summary = inSlices ?? (await ingestDocuments(store, readFeedDocuments(file, onBytes), options));
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
