/** The entry of `key` in `map`, made by `make` and kept there on first use (tallies keyed by what each request names). */
export function entryOf<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let entry = map.get(key);
  if (entry === undefined) {
    entry = make();
    map.set(key, entry);
  }
  return entry;
}
