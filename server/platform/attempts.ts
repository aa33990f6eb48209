/**
 * Counts failures per key (an account, an IP) in a sliding window, in memory.
 * Used to slow down password guessing on login and recovery.
 */
export class AttemptLimiter {
  private entries = new Map<string, { count: number; resetAt: number }>();
  constructor(private max: number, private windowMs: number) {}

  isBlocked(key: string, now = Date.now()): boolean {
    const e = this.entries.get(key);
    if (!e) return false;
    if (e.resetAt <= now) {
      this.entries.delete(key);
      return false;
    }
    return e.count >= this.max;
  }

  fail(key: string, now = Date.now()): void {
    const e = this.entries.get(key);
    if (!e || e.resetAt <= now) this.entries.set(key, { count: 1, resetAt: now + this.windowMs });
    else e.count += 1;
    if (this.entries.size > 50_000) this.prune(now);
  }

  reset(key: string): void {
    this.entries.delete(key);
  }

  private prune(now: number): void {
    for (const [k, e] of this.entries) if (e.resetAt <= now) this.entries.delete(k);
  }
}
