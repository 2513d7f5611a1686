/**
 * A bounded map that drops entries not read lately (the runtime cache's prompts and keys, the
 * session cache, the prompt client's cache). A read only marks its entry; when an entry past the bound comes in, the oldest
 * unmarked one goes, and each marked one met on the way is unmarked and moved to the back: a second
 * chance, the CLOCK approximation of least recently used. Bounded by entries, and optionally by their
 * weights together too (the runtime cache's prompts: their estimated bytes), as many going as it takes.
 *
 * A read changes no table. Moving the entry to the back on every read (delete, then set) made V8
 * build the map's table anew every few reads, and under the runtime fetch's load the old generation
 * grew by about 0.2 MB at each young collection (0.05 MB without the move, --trace-gc): a major
 * collection every 8 s, whose pauses were the bench's p99.
 */
export class Lru<V> {
  private readonly map = new Map<string, { value: V; read: boolean; weight: number }>();
  private total = 0;

  /** `max` entries; and, when given, at most `maxWeight` of their weights (set's) together. */
  constructor(
    private readonly max: number,
    private readonly maxWeight = Infinity,
  ) {}

  get(key: string): V | undefined {
    const entry = this.map.get(key);
    if (entry === undefined) return undefined;
    entry.read = true;
    return entry.value;
  }

  /** Keeps `value` (of `weight`, measured once by the caller), dropping entries until under both bounds; one heavier than `maxWeight` alone is not kept. */
  set(key: string, value: V, weight = 0) {
    this.delete(key);
    if (weight > this.maxWeight) return;
    this.map.set(key, { value, read: false, weight });
    this.total += weight;
    while (this.map.size > this.max || this.total > this.maxWeight) {
      const [oldestKey, oldest] = this.map.entries().next().value!;
      this.map.delete(oldestKey);
      // The entry just set is never the one dropped (it comes round first when every other was read).
      if (!oldest.read && oldestKey !== key) {
        this.total -= oldest.weight;
        continue;
      }
      oldest.read = false;
      this.map.set(oldestKey, oldest);
    }
  }

  delete(key: string) {
    const entry = this.map.get(key);
    if (entry === undefined) return;
    this.map.delete(key);
    this.total -= entry.weight;
  }

  dropWhere(test: (value: V) => boolean) {
    for (const [key, entry] of this.map) {
      if (!test(entry.value)) continue;
      this.map.delete(key);
      this.total -= entry.weight;
    }
  }

  clear() {
    this.map.clear();
    this.total = 0;
  }

  get size() {
    return this.map.size;
  }

  /** The weights of the entries kept, together. */
  get weight() {
    return this.total;
  }
}
