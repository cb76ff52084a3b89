/**
 * A map that forgets its least recently used entries once their sizes add up to more than a budget.
 * Sizes are read when the budget is checked (on `set`), so an entry that grows after it was stored
 * (a simulation gaining legs' bitsets) is counted at its current size. The entry just stored is
 * always kept, however large.
 */
export class BoundedCache<V> {
  private readonly entries = new Map<string, V>();
  private readonly loading = new Map<string, Promise<V>>();

  constructor(
    private readonly maxBytes: number,
    private readonly sizeOf: (value: V) => number,
  ) {}

  /** The entry, now the most recently used. */
  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  /**
   * The entry, or else the value `load` makes, stored once made. Callers that ask for a key while it
   * loads share that one load; a failed load is not stored, and the next caller tries again.
   */
  getOrLoad(key: string, load: () => Promise<V>): V | Promise<V> {
    const held = this.get(key);
    if (held !== undefined) return held;
    let loading = this.loading.get(key);
    if (!loading) {
      loading = load()
        .then((value) => {
          this.set(key, value);
          return value;
        })
        .finally(() => this.loading.delete(key));
      this.loading.set(key, loading);
    }
    return loading;
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    let bytes = this.bytes();
    for (const [oldest, held] of this.entries) {
      if (bytes <= this.maxBytes || oldest === key) break;
      this.entries.delete(oldest);
      bytes -= this.sizeOf(held);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  /** The entries' sizes, added up now. */
  bytes(): number {
    let total = 0;
    for (const value of this.entries.values()) total += this.sizeOf(value);
    return total;
  }
}
