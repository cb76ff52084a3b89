import { readFileSync } from 'node:fs';

/**
 * What grew between two V8 heap snapshots (`npm run soak -- --heap-snapshots DIR` writes one at the
 * end of the warm-up and one at the end): live objects counted by kind and constructor name, and
 * strings by their first characters, so that a structure that keeps growing (a Map of cache keys,
 * a Set of ids) shows as the rows whose count climbs.
 *
 * Usage: node --import tsx bench/heap-diff.ts <before.heapsnapshot> <after.heapsnapshot> [--top 25] [--prefix 40]
 */

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

interface Group {
  count: number;
  bytes: number;
}

function groups(file: string, prefixLength: number): Map<string, Group> {
  const heap = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const fields = heap.snapshot.meta.node_fields;
  const types = heap.snapshot.meta.node_types[0];
  const width = fields.length;
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [
    number,
    number,
    number,
  ];
  const result = new Map<string, Group>();
  for (let i = 0; i < heap.nodes.length; i += width) {
    const type = types[heap.nodes[i + typeAt] as number] as string;
    const name = heap.strings[heap.nodes[i + nameAt] as number] ?? '';
    // Strings are grouped by how they start (a cache key, an id); objects by constructor.
    const key =
      type === 'string' || type === 'concatenated string' || type === 'sliced string'
        ? `string ${JSON.stringify(name.slice(0, prefixLength))}`
        : `${type} ${name}`;
    const group = result.get(key) ?? { count: 0, bytes: 0 };
    group.count += 1;
    group.bytes += heap.nodes[i + sizeAt] as number;
    result.set(key, group);
  }
  return result;
}

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(args.splice(at, 2)[1]);
};
const top = option('top', 25);
const prefix = option('prefix', 40);
const [beforeFile, afterFile] = args;
if (!beforeFile || !afterFile) {
  console.error(
    'usage: node --import tsx bench/heap-diff.ts <before.heapsnapshot> <after.heapsnapshot> [--top 25] [--prefix 40]',
  );
  process.exit(2);
}
const before = groups(beforeFile, prefix);
const after = groups(afterFile, prefix);
const total = (m: Map<string, Group>) =>
  [...m.values()].reduce((s, g) => ({ count: s.count + g.count, bytes: s.bytes + g.bytes }), { count: 0, bytes: 0 });
const rows = [...new Set([...before.keys(), ...after.keys()])].map((key) => {
  const a = before.get(key) ?? { count: 0, bytes: 0 };
  const b = after.get(key) ?? { count: 0, bytes: 0 };
  return {
    key,
    countBefore: a.count,
    countAfter: b.count,
    bytesDelta: b.bytes - a.bytes,
    countDelta: b.count - a.count,
  };
});
const [t0, t1] = [total(before), total(after)];
console.log(
  `objects ${t0.count} -> ${t1.count}; self size ${(t0.bytes / 1048576).toFixed(1)} -> ${(t1.bytes / 1048576).toFixed(1)} MiB`,
);
for (const [title, sort] of [
  ['by count growth', (r: (typeof rows)[number]) => r.countDelta],
  ['by size growth', (r: (typeof rows)[number]) => r.bytesDelta],
] as const) {
  console.log(`\ntop ${top} ${title}:`);
  for (const r of [...rows].sort((x, y) => sort(y) - sort(x)).slice(0, top)) {
    console.log(
      `  ${String(r.countDelta).padStart(9)} (${r.countBefore} -> ${r.countAfter})  ${(`${(r.bytesDelta / 1024).toFixed(0)} KiB`).padStart(10)}  ${r.key.slice(0, 120)}`,
    );
  }
}
