// Fixed-window counters in memory: enough for one server process (the product runs as one).
export interface RateLimitRule {
  limit: number;
  windowMs: number;
}

export class RateLimiter {
  private readonly hits = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Counts one hit on `key`; false when the key is over its limit in the current window. */
  hit(key: string, rule: RateLimitRule): boolean {
    const now = this.now();
    const entry = this.hits.get(key);
    if (!entry || entry.resetAt <= now) {
      if (this.hits.size > 50_000) this.sweep(now);
      this.hits.set(key, { count: 1, resetAt: now + rule.windowMs });
      return true;
    }
    entry.count += 1;
    return entry.count <= rule.limit;
  }

  /** Whether `key` is already over its limit in the current window, without counting a hit. */
  isLimited(key: string, rule: RateLimitRule): boolean {
    const entry = this.hits.get(key);
    return !!entry && entry.resetAt > this.now() && entry.count >= rule.limit;
  }

  /** How long until `key`'s current window ends (0 when it has none): a 429's Retry-After. */
  retryAfterMs(key: string): number {
    const entry = this.hits.get(key);
    return entry ? Math.max(0, entry.resetAt - this.now()) : 0;
  }

  reset() {
    this.hits.clear();
  }

  private sweep(now: number) {
    for (const [key, entry] of this.hits) if (entry.resetAt <= now) this.hits.delete(key);
  }
}
