/** Rows grouped by key, each group in the rows' order (Node 20 has no Map.groupBy). */
export function groupBy<T>(rows: Iterable<T>, key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const group = groups.get(key(row));
    if (group) group.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
}
