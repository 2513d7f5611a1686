/**
 * The prompt client's cache: a map of at most `max` entries that drops the ones not read lately, so a
 * tool passing one unit per user holds its most used entries, not one per user it has ever seen.
 *
 * A read only marks its entry (a cached get stays one Map lookup, the table unchanged); when an entry
 * past the bound comes in, the oldest unmarked one goes, and each marked one met on the way is unmarked
 * and moved to the back: a second chance, the CLOCK approximation of least recently used.
 */
export class BoundedCache<V> {
  private readonly map = new Map<string, { value: V; read: boolean }>();

  constructor(private readonly max: number) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`cacheMaxEntries must be a whole number of at least 1, not ${max}`);
  }

  get(key: string): V | undefined {
    const entry = this.map.get(key);
    if (entry === undefined) return undefined;
    entry.read = true;
    return entry.value;
  }

  set(key: string, value: V) {
    // A renewed entry keeps its place and its mark: storing a refresh is not a read by a caller.
    const kept = this.map.get(key);
    if (kept !== undefined) {
      kept.value = value;
      return;
    }
    this.map.set(key, { value, read: false });
    while (this.map.size > this.max) {
      const [oldestKey, oldest] = this.map.entries().next().value!;
      this.map.delete(oldestKey);
      // The entry just set is never the one dropped (it comes round first when every other was read).
      if (!oldest.read && oldestKey !== key) break;
      oldest.read = false;
      this.map.set(oldestKey, oldest);
    }
  }
}
