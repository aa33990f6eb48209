import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { isPostgres } from '../../db/dialect.js';

/**
 * A small cache of list pages (by search and page) and match counts (by search), valid for
 * one "generation" of the data. The generation moves on:
 * - after every write of this module (the service calls invalidate() after commit),
 * - on every live event of the topic (writes of other server instances, over LISTEN/NOTIFY),
 * - on SQLite, when another connection committed (PRAGMA data_version), e.g. the seed or
 *   import command running beside the server.
 * A result read while the generation moved is not stored, so a page never outlives a write.
 * `maxEntries` 0 turns the cache off (used by the benchmark to measure the bare query).
 */
export class VarietySearchCache {
  private generation = 0;
  private entries = new Map<string, unknown>();
  /** Loads under way in this generation: concurrent misses of one key share one query. */
  private loading = new Map<string, Promise<unknown>>();
  private dataVersion: number | null = null;
  private readonly sqlite: boolean;

  constructor(private db: Kysely<Database>, private maxEntries = 500) {
    this.sqlite = !isPostgres(db);
  }

  invalidate(): void {
    this.generation += 1;
    this.entries.clear();
    this.loading.clear();
  }

  /** Detects commits made through another SQLite connection (other processes on the same file). */
  private async checkExternalWrites(): Promise<void> {
    if (!this.sqlite) return;
    const { rows } = await sql<{ data_version: number }>`pragma data_version`.execute(this.db);
    const v = Number(rows[0]?.data_version ?? 0);
    if (this.dataVersion !== null && v !== this.dataVersion) this.invalidate();
    this.dataVersion = v;
  }

  async get<T>(key: string, load: () => Promise<T>): Promise<T> {
    if (this.maxEntries <= 0) return load();
    await this.checkExternalWrites();
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      // Refresh its place: the map's order is the eviction order (least recently used first).
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit as T;
    }
    const pending = this.loading.get(key);
    if (pending) return pending as Promise<T>;
    const startedAt = this.generation;
    const promise = load();
    this.loading.set(key, promise);
    try {
      const value = await promise;
      if (this.generation === startedAt) {
        this.entries.set(key, value);
        if (this.entries.size > this.maxEntries) {
          const oldest = this.entries.keys().next().value;
          if (oldest !== undefined) this.entries.delete(oldest);
        }
      }
      return value;
    } finally {
      if (this.loading.get(key) === promise) this.loading.delete(key);
    }
  }
}
