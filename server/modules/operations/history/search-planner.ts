import type { Kysely } from 'kysely';
import { matchesTerms } from '../../../../common/history-search.js';
import { isPostgres } from '../../../db/dialect.js';
import type { Database } from '../../../db/types.js';
import { FTS_PREFIX_MAX, ftsMatch, ftsPrefixMatch, type Criteria } from './criteria.js';
import type { Cursor } from './cursor.js';
import { listText } from './presenter.js';
import { historyRepository as repo, type ListRow } from './repository.js';

/**
 * SQLite text search. Words with at most this many matches in the full-text index are read
 * as one candidate list (a few milliseconds with the prefix indexes of migration 041) ...
 */
const RARE_WORDS = 2000;
/** ... more common ones newest first from the index, in batches that grow from ... */
const FTS_BATCH_FIRST = 256;
const FTS_BATCH_MAX = 8192;
/** ... up to this many candidates; beyond, the list is walked in order and checked row by row. */
const FTS_BUDGET = 24_000;
/** Entries newer than a page's last that were written before older ones: up to this many are checked. */
const LATE_ROWS_MAX = 2000;
/** Rows per query of the row-by-row walk. */
const SCAN_CHUNK = 500;
/** How long the planner's estimate of a search word is reused. */
const ESTIMATE_TTL_MS = 10 * 60_000;

/**
 * How a page of the list is read. PostgreSQL: one query, its text condition steered to the
 * rarest search word. SQLite with search words: from the full-text index's candidates, or
 * the list walked in order, whichever costs less for the words (see sqliteTextRows).
 */
export function createSearchPlanner(db: Kysely<Database>) {
  const sqlite = !isPostgres(db);

  /** PostgreSQL: the planner's row estimate per search word, kept a while (statistics change slowly). */
  const estimates = new Map<string, { rows: number; at: number }>();
  async function termRows(term: string): Promise<number> {
    const now = Date.now();
    const known = estimates.get(term);
    if (known && now - known.at < ESTIMATE_TTL_MS) return known.rows;
    const rows = await repo.estimateTermRows(db, term);
    if (estimates.size >= 1000) estimates.clear();
    estimates.set(term, { rows, at: now });
    return rows;
  }

  /** The criteria, and on PostgreSQL with two words or more the rarest word for the index. */
  async function prepare(c: Criteria): Promise<Criteria> {
    if (sqlite || c.terms.length < 2) return c;
    const unique = [...new Set(c.terms)];
    const rows = await Promise.all(unique.map(termRows));
    return { ...c, indexTerm: unique[rows.indexOf(Math.min(...rows))] };
  }

  /**
   * SQLite only: the full-text index's candidates when they are few (else null), newest seq
   * first. `exact` asks with the full words, else with their first 4 characters (lazily read).
   */
  function ftsCandidates(c: Criteria, capAt: number, exact = false): Promise<number[] | null> {
    return repo.ftsCandidates(db, exact ? ftsMatch(c.terms) : ftsPrefixMatch(c.terms), capAt);
  }

  /** SQLite: every candidate when there are at most `capAt` (the full words asked too when one is long), else null. */
  async function allCandidates(c: Criteria, capAt: number): Promise<number[] | null> {
    return (await ftsCandidates(c, capAt)) ?? (c.terms.some((t) => t.length > FTS_PREFIX_MAX) ? ftsCandidates(c, capAt, true) : null);
  }

  /** SQLite, few candidates: the matches among them after the cursor, newest first. */
  async function rowsOfCandidates(c: Criteria, seqs: number[], cursor: Cursor | undefined, want: number): Promise<ListRow[]> {
    const found: ListRow[] = [];
    let position = cursor;
    for (;;) {
      const need = want - found.length;
      const batch = await repo.pageBySeqs(db, c, seqs, position, need);
      for (const row of batch) if (matchesTerms(c.terms, listText(row))) found.push(row);
      if (found.length >= want || batch.length < need) return found.slice(0, want);
      const end = batch[batch.length - 1]!;
      position = { timestamp: end.timestamp, seq: end.seq };
    }
  }

  /** Newest first by (timestamp, seq), the order of the list. */
  const byListOrder = (a: ListRow, b: ListRow) =>
    a.timestamp < b.timestamp ? 1 : a.timestamp > b.timestamp ? -1 : Number(b.seq) - Number(a.seq);

  /**
   * SQLite, common words: candidates newest seq first from the full-text index (read lazily
   * with the prefix indexes), the other filters applied by the database, the words checked
   * here. The list is ordered by timestamp, not seq, and an imported entry can have a later
   * seq than newer ones: once a page is full, the entries newer than its last one that the
   * index has not reached yet (seq below the lowest read) are read and checked as well, so
   * the page is exactly the list's. Null when the index offers too many candidates that fail
   * the other filters or the full words (then the walk in list order is cheaper).
   */
  async function sqliteTextByIndex(c: Criteria, cursor: Cursor | undefined, want: number): Promise<ListRow[] | null> {
    const match = ftsPrefixMatch(c.terms);
    const found: ListRow[] = [];
    let below = Number.MAX_SAFE_INTEGER;
    let batch = FTS_BATCH_FIRST;
    let read = 0;
    for (;;) {
      const seqs = await repo.ftsNewest(db, match, below, batch);
      read += seqs.length;
      if (seqs.length > 0) below = seqs[seqs.length - 1]!;
      for (const row of await repo.rowsBySeqs(db, c, seqs, cursor)) if (matchesTerms(c.terms, listText(row))) found.push(row);
      // Every candidate read: every match is here, whatever its seq.
      if (seqs.length < batch) return found.sort(byListOrder).slice(0, want);
      if (found.length >= want) {
        found.sort(byListOrder);
        const last = found[want - 1]!;
        const late = await repo.newerWithLowerSeq(db, c, last.timestamp, below, cursor, LATE_ROWS_MAX + 1);
        if (late.length > LATE_ROWS_MAX) return null;
        for (const row of late) if (matchesTerms(c.terms, listText(row))) found.push(row);
        return found.sort(byListOrder).slice(0, want);
      }
      if (read >= FTS_BUDGET) return null;
      batch = Math.min(batch * 4, FTS_BATCH_MAX);
    }
  }

  /** SQLite: the list walked in order with the other filters, each row's words checked here. */
  async function sqliteTextByWalk(c: Criteria, cursor: Cursor | undefined, want: number): Promise<ListRow[]> {
    const found: ListRow[] = [];
    let position = cursor;
    for (;;) {
      const rows = await repo.page(db, c, position, SCAN_CHUNK, false);
      for (const row of rows) {
        if (matchesTerms(c.terms, listText(row))) found.push(row);
        if (found.length === want) return found;
      }
      if (rows.length < SCAN_CHUNK) return found;
      const last = rows[rows.length - 1]!;
      position = { timestamp: last.timestamp, seq: last.seq };
    }
  }

  /**
   * SQLite text search, newest first: rare words from their few candidates; common ones
   * newest first from the full-text index; when that index offers too many candidates that
   * fail (very selective other filters, or a long word whose first 4 characters are common,
   * such as the typo 'aquinox'), the full words are asked once and else the list is walked.
   */
  async function sqliteTextRows(c: Criteria, cursor: Cursor | undefined, want: number): Promise<ListRow[]> {
    const rare = await ftsCandidates(c, RARE_WORDS);
    if (rare) return rowsOfCandidates(c, rare, cursor, want);
    const byIndex = await sqliteTextByIndex(c, cursor, want);
    if (byIndex) return byIndex;
    if (c.terms.some((t) => t.length > FTS_PREFIX_MAX)) {
      const exact = await ftsCandidates(c, RARE_WORDS, true);
      if (exact) return rowsOfCandidates(c, exact, cursor, want);
    }
    return sqliteTextByWalk(c, cursor, want);
  }

  /** Up to `want` rows of the list after the cursor, newest first. */
  function rowsFor(c: Criteria, cursor: Cursor | undefined, want: number): Promise<ListRow[]> {
    return sqlite && c.terms.length > 0 ? sqliteTextRows(c, cursor, want) : repo.page(db, c, cursor, want);
  }

  return { prepare, allCandidates, rowsFor };
}

export type SearchPlanner = ReturnType<typeof createSearchPlanner>;
