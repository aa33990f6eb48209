import type { Kysely } from 'kysely';
import type { Database } from '../../../../db/types.js';
import { isPostgres } from '../../../../db/dialect.js';
import { varietySearchRepository } from './repository.js';

/**
 * A small cache of list pages (by search and page) and match counts (by search).
 *
 * An entry for a search term stays right until a write touches a row that matched the term
 * before or after the write (the list's order, createdAt, never changes on an update). So:
 * - a write of this process names the row's search text before and after (`invalidateTexts`):
 *   entries of the empty search and of terms found in those texts go, the others stay;
 * - live events of other server instances (PostgreSQL LISTEN/NOTIFY) carry the same texts and
 *   are handled the same way;
 * - anything else drops everything (`invalidate`): events without texts, a reconnected bus,
 *   and, on SQLite, commits of another connection to the same file (PRAGMA data_version), e.g.
 *   the seed or import command running beside the server.
 * A result whose load overlapped a write that affects it is not stored, so a page never
 * outlives a write. `maxEntries` 0 turns the cache off (the benchmark's bare-query run).
 */
interface Write {
  seq: number;
  /** Lower-cased search texts the write touched; null: anything may have changed. */
  texts: string[] | null;
}

const LOG_SIZE = 256;

function affects(write: Write, term: string): boolean {
  return write.texts === null || term === '' || write.texts.some((t) => t.includes(term));
}

export class VarietySearchCache {
  private seq = 0;
  private log: Write[] = [];
  private entries = new Map<string, { term: string; value: unknown }>();
  /** Loads under way: concurrent misses of one key share one query. */
  private loading = new Map<string, { term: string; promise: Promise<unknown> }>();
  private ownEvents = new Map<string, number>();
  private dataVersion: number | null = null;
  private readonly sqlite: boolean;

  constructor(
    private db: Kysely<Database>,
    private maxEntries = 500,
  ) {
    this.sqlite = !isPostgres(db);
  }

  /** Everything may have changed. */
  invalidate(): void {
    this.record({ seq: ++this.seq, texts: null });
    this.entries.clear();
    this.loading.clear();
  }

  /** A write of this process: rows with these search texts (before and after) changed. */
  invalidateTexts(texts: string[]): void {
    const write: Write = { seq: ++this.seq, texts: texts.map((t) => t.toLowerCase()) };
    this.record(write);
    for (const [key, e] of this.entries) if (affects(write, e.term)) this.entries.delete(key);
    for (const [key, l] of this.loading) if (affects(write, l.term)) this.loading.delete(key);
  }

  /** This process's own live event is on its way back from the bus: it needs no second invalidation. */
  expectOwnEvent(key: string): void {
    // Events that never came back (a bus that dropped them) must not pile up.
    if (this.ownEvents.size >= 1000) this.ownEvents.clear();
    this.ownEvents.set(key, (this.ownEvents.get(key) ?? 0) + 1);
  }

  /**
   * A live event arrived. This process's own: nothing to do. Another instance's naming the
   * row's search texts: drop what those texts can change, as for a write here. Anything
   * else (an import, an older instance): drop everything.
   */
  onEvent(key: string, texts?: string[]): void {
    const own = this.ownEvents.get(key) ?? 0;
    if (own > 0) {
      if (own === 1) this.ownEvents.delete(key);
      else this.ownEvents.set(key, own - 1);
      return;
    }
    if (texts && texts.length > 0) this.invalidateTexts(texts);
    else this.invalidate();
  }

  private record(write: Write): void {
    this.log.push(write);
    if (this.log.length > LOG_SIZE) this.log.shift();
  }

  /** True when no write since `since` (a seq) can have changed results for `term`. */
  private untouchedSince(since: number, term: string): boolean {
    if (this.seq === since) return true;
    const oldest = this.log[0];
    if (!oldest || oldest.seq > since + 1) return false;
    return !this.log.some((w) => w.seq > since && affects(w, term));
  }

  /** Detects commits made through another SQLite connection (other processes on the same file). */
  private async checkExternalWrites(): Promise<void> {
    if (!this.sqlite) return;
    const v = await varietySearchRepository.dataVersion(this.db);
    if (this.dataVersion !== null && v !== this.dataVersion) this.invalidate();
    this.dataVersion = v;
  }

  async get<T>(key: string, term: string, load: () => Promise<T>): Promise<T> {
    if (this.maxEntries <= 0) return load();
    await this.checkExternalWrites();
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      // Refresh its place: the map's order is the eviction order (least recently used first).
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.value as T;
    }
    const pending = this.loading.get(key);
    if (pending) return pending.promise as Promise<T>;
    const startedAt = this.seq;
    const promise = load();
    this.loading.set(key, { term, promise });
    try {
      const value = await promise;
      if (this.untouchedSince(startedAt, term)) {
        this.entries.set(key, { term, value });
        if (this.entries.size > this.maxEntries) {
          const oldest = this.entries.keys().next().value;
          if (oldest !== undefined) this.entries.delete(oldest);
        }
      }
      return value;
    } finally {
      if (this.loading.get(key)?.promise === promise) this.loading.delete(key);
    }
  }
}
