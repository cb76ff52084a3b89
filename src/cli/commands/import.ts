import { loadConfig } from '../../config.ts';
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
    'a file of any size takes the memory of its largest line. A bad file writes nothing and every',
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
    const { readFeedDocuments } = await import('../../ingest/read-feed-file.ts');
    const config = loadConfig();
    const store = await openMigratedStore(config);
    const bar = progress(`import ${file}`);
    try {
      let percent = 0;
      const documents = readFeedDocuments(file, (read, total) => {
        percent = Math.round((100 * read) / Math.max(total, 1));
      });
      const summary = await ingestDocuments(store, documents, {
        onCollection: (collection, counts) => bar.update(`read ${percent}%, wrote ${counts.received} ${collection}`),
      });
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
