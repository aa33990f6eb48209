import type { Kysely } from 'kysely';
import type { Database } from '../../../../db/types.js';
import { notesBetween, readCountedStamp, tableStamp, type CountedStamp } from '../../../../platform/cache/stamps.js';

/**
 * A small cache of list pages (by search and page) and match counts (by search).
 *
 * An entry for a search term stays right until a write touches a row that matched the term
 * before or after the write (the list's order, createdAt, never changes on an update). Every
 * row write, by anyone, moves the table's stamp and leaves a note of the row's search texts
 * (platform/cache/stamps.ts, tableStamp). A get reads the stamp first; when it moved, the notes
 * since the stamp last seen name the texts written: entries of the empty search and of terms
 * found in those texts go, the others stay. Notes that cannot be read in full drop everything.
 * A result whose load overlapped a write that affects it is not stored, so a page never
 * outlives a write. `maxEntries` 0 turns the cache off (the benchmark's bare-query run).
 */
interface Write {
  seq: number;
  /** Lower-cased search texts the write touched; null: anything may have changed. */
  texts: string[] | null;
}

const STAMP = tableStamp('rice_seed_varieties');
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
  /** The table's stamp the entries are current at; null before the first get. */
  private seen: CountedStamp | null = null;
  /** Stamps read are applied one at a time, in the order read. */
  private applying: Promise<void> = Promise.resolve();

  constructor(
    private db: Kysely<Database>,
    private maxEntries = 500,
  ) {}

  /** Everything may have changed. */
  invalidate(): void {
    this.record({ seq: ++this.seq, texts: null });
    this.entries.clear();
    this.loading.clear();
  }

  /** A write: rows with these search texts (before and after) changed. */
  invalidateTexts(texts: string[]): void {
    const write: Write = { seq: ++this.seq, texts: texts.map((t) => t.toLowerCase()) };
    this.record(write);
    for (const [key, e] of this.entries) if (affects(write, e.term)) this.entries.delete(key);
    for (const [key, l] of this.loading) if (affects(write, l.term)) this.loading.delete(key);
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

  /** Brings the entries up to the table's stamp as read now (after every write committed before this get). */
  private async catchUp(): Promise<void> {
    const now = await readCountedStamp(this.db, STAMP);
    const run = this.applying.then(() => this.apply(now));
    this.applying = run.catch(() => undefined);
    await run;
  }

  private async apply(now: CountedStamp): Promise<void> {
    const seen = this.seen;
    if (seen && seen.stamp === now.stamp) return;
    if (!seen || now.seq < seen.seq) {
      // The first read, or a stamp read before one already applied: dropping is always right.
      this.invalidate();
      if (!seen) this.seen = now;
      return;
    }
    const notes = await notesBetween(this.db, STAMP, seen, now);
    if (notes === null) this.invalidate();
    else for (const note of notes) this.invalidateTexts(JSON.parse(note) as string[]);
    this.seen = now;
  }

  async get<T>(key: string, term: string, load: () => Promise<T>): Promise<T> {
    if (this.maxEntries <= 0) return load();
    await this.catchUp();
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
