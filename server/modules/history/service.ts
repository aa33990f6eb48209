import { Readable } from 'node:stream';
import {
  collectionLabel, csvCell, csvTimestamp, dateBounds, HISTORY, HISTORY_LIMITS, manilaDate, matchesTerms, searchTerms,
} from '../../../common/history.js';
import { can } from '../../../common/permissions.js';
import type { HistoryCount, HistoryDetail, HistoryEntry, HistoryFilters, HistoryListQuery, HistoryPage } from '../../../common/schemas/history.js';
import { ACTIVITY } from '../../../common/texts.js';
import { isPostgres } from '../../db/dialect.js';
import { SYSTEM_ACTOR } from '../../platform/audit.js';
import type { AppContext, AuthContext } from '../../platform/context.js';
import { fail } from '../../platform/errors.js';
import { exportBatches, FTS_PREFIX_MAX, ftsMatch, ftsPrefixMatch, historyRepository as repo, type Criteria, type Cursor, type ExportRow, F, type ListRow } from './repository.js';

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
/** Characters of CSV at least per chunk handed to the response stream (one batch of rows at most more). */
const EXPORT_CHUNK = 64 * 1024;
/** Rows sampled to estimate how many match a common word. */
const DENSITY_SAMPLE = 2000;

type Names = Map<string, { fullname: string; email: string | null }>;
type TextRow = Pick<ListRow, 'userName' | 'userEmail' | 'documentName' | 'name' | 'description'>;

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.timestamp, cursor.seq])).toString('base64url');
}

export function decodeCursor(raw: string | undefined): Cursor | undefined {
  if (!raw) return undefined;
  try {
    const value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && value[0].length <= 100
      && Number.isSafeInteger(value[1]) && (value[1] as number) >= 0) {
      return { timestamp: value[0], seq: value[1] as number };
    }
  } catch { /* fall through */ }
  return fail('VALIDATION_FAILED', HISTORY.errors.badCursor, { cursor: HISTORY.errors.badCursor });
}

function actorOf(row: { userId: string | null; actorId: string | null; performedBy: string | null }): string | null {
  return row.userId ?? row.actorId ?? row.performedBy;
}

function textOf(row: TextRow): Array<string | null> {
  return [row.userName, row.userEmail, row.documentName ?? row.name, row.description];
}

/** The searched text of an export row: user, e-mail, document, description. */
function exportText(row: ExportRow): Array<string | null> {
  return [row[F.userName], row[F.userEmail], row[F.document], row[F.description]];
}

function userLabel(recorded: string | null, key: string | null, names: Names): string {
  const account = key ? names.get(key) : undefined;
  return recorded || account?.fullname || (key === SYSTEM_ACTOR.id ? SYSTEM_ACTOR.fullname : key) || ACTIVITY.unknownName;
}

function present(row: ListRow, names: Names): HistoryEntry {
  const key = actorOf(row);
  return {
    id: row.id,
    timestamp: row.timestamp,
    userId: key,
    userName: userLabel(row.userName, key, names),
    userEmail: row.userEmail ?? (key ? names.get(key)?.email : null) ?? null,
    action: row.action,
    collection: row.collection,
    documentId: row.documentId,
    documentName: row.documentName ?? row.name,
    description: row.description,
    hasChanges: Boolean(Number(row.hasChanges)),
  };
}

function parseJson(text: string | null): unknown {
  if (!text) return null;
  try { return JSON.parse(text); } catch { return null; }
}

function roundEstimate(n: number): number {
  if (n < 100) return Math.round(n);
  const magnitude = 10 ** (Math.floor(Math.log10(n)) - 1);
  return Math.round(n / magnitude) * magnitude;
}

export function createHistoryService(ctx: AppContext) {
  const { db } = ctx;
  const sqlite = !isPostgres(db);
  const cap = HISTORY_LIMITS.exactCountCap;

  /** The filters plus the role's scope (SPEC.md section 6), enforced here for every use. */
  function criteriaFor(auth: AuthContext, filters: HistoryFilters, now = Date.now()): Criteria {
    const all = can(auth.role, 'history.viewAll');
    return {
      bounds: dateBounds(filters.range, filters.from, filters.to, now),
      action: filters.action,
      collection: filters.collection,
      user: filters.user,
      terms: searchTerms(filters.q ?? ''),
      ownerId: all ? undefined : auth.user.id,
      hideSecurityActions: !can(auth.role, 'history.viewSecurityActions'),
    };
  }

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

  /** Account names for rows that recorded only an actor id (older entries); cached per use. */
  async function namesFor(keys: Array<string | null>, cache: Names = new Map()): Promise<Names> {
    const missing = [...new Set(keys.filter((k): k is string => !!k && !cache.has(k)))];
    if (missing.length > 0) {
      const found = await repo.accountNames(db, missing);
      for (const id of missing) cache.set(id, found.get(id) ?? { fullname: '', email: null });
    }
    return cache;
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
    return (await ftsCandidates(c, capAt))
      ?? (c.terms.some((t) => t.length > FTS_PREFIX_MAX) ? ftsCandidates(c, capAt, true) : null);
  }

  /** SQLite, few candidates: the matches among them after the cursor, newest first. */
  async function rowsOfCandidates(c: Criteria, seqs: number[], cursor: Cursor | undefined, want: number): Promise<ListRow[]> {
    const found: ListRow[] = [];
    let position = cursor;
    for (;;) {
      const need = want - found.length;
      const batch = await repo.pageBySeqs(db, c, seqs, position, need);
      for (const row of batch) if (matchesTerms(c.terms, textOf(row))) found.push(row);
      if (found.length >= want || batch.length < need) return found.slice(0, want);
      const end = batch[batch.length - 1]!;
      position = { timestamp: end.timestamp, seq: end.seq };
    }
  }

  /** Newest first by (timestamp, seq), the order of the list. */
  const byListOrder = (a: ListRow, b: ListRow) => (a.timestamp < b.timestamp ? 1 : a.timestamp > b.timestamp ? -1 : Number(b.seq) - Number(a.seq));

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
      for (const row of await repo.rowsBySeqs(db, c, seqs, cursor)) if (matchesTerms(c.terms, textOf(row))) found.push(row);
      // Every candidate read: every match is here, whatever its seq.
      if (seqs.length < batch) return found.sort(byListOrder).slice(0, want);
      if (found.length >= want) {
        found.sort(byListOrder);
        const last = found[want - 1]!;
        const late = await repo.newerWithLowerSeq(db, c, last.timestamp, below, cursor, LATE_ROWS_MAX + 1);
        if (late.length > LATE_ROWS_MAX) return null;
        for (const row of late) if (matchesTerms(c.terms, textOf(row))) found.push(row);
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
        if (matchesTerms(c.terms, textOf(row))) found.push(row);
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

  function rowsFor(c: Criteria, cursor: Cursor | undefined, want: number): Promise<ListRow[]> {
    return sqlite && c.terms.length > 0 ? sqliteTextRows(c, cursor, want) : repo.page(db, c, cursor, want);
  }

  /**
   * Beyond the cap the count is extrapolated in time: the cap-th newest match tells how fast
   * matches accumulate, assumed steady back to the start of the range (or of the log).
   */
  async function estimateByTime(c: Criteria, withText: boolean): Promise<number> {
    const { newest, nth } = await repo.newestAndNth(db, c, cap, withText);
    const low = c.bounds.from ?? (await repo.oldestTimestamp(db));
    const top = Date.parse(newest ?? '');
    const capAt = Date.parse(nth ?? '');
    const start = Date.parse(low ?? '');
    if ([top, capAt, start].some(Number.isNaN) || top <= capAt) return cap + 1;
    return Math.max(cap + 1, Math.round((cap * (top - start)) / (top - capAt)));
  }

  async function sqliteTextCount(c: Criteria): Promise<HistoryCount> {
    const matching = (rows: ExportRow[]) => rows.filter((r) => matchesTerms(c.terms, exportText(r))).length;
    const seqs = await allCandidates(c, cap);
    if (seqs) return { count: matching(await repo.exportRowsBySeqs(db, c, seqs)), exact: true };
    const base = await repo.countUpTo(db, c, cap, false);
    if (base <= cap) return { count: matching(await repo.newestRows(db, c, cap, false)), exact: true };
    // The share of matches is taken before the next queries, so the sample is not kept meanwhile.
    const share = await repo.newestRows(db, c, DENSITY_SAMPLE, false).then((sample) => matching(sample) / sample.length);
    return { count: roundEstimate(share * (await estimateByTime(c, false))), exact: false };
  }

  async function* exportRows(c: Criteria): AsyncGenerator<ExportRow[]> {
    const byText = sqlite && c.terms.length > 0;
    const seqs = byText ? await allCandidates(c, cap) : null;
    if (seqs) {
      yield (await repo.exportRowsBySeqs(db, c, seqs)).filter((r) => matchesTerms(c.terms, exportText(r)));
      return;
    }
    for await (const rows of exportBatches(db, ctx.config, c, HISTORY_LIMITS.exportBatch, !byText)) {
      if (!byText) {
        yield rows;
        continue;
      }
      const matching = rows.filter((r) => matchesTerms(c.terms, exportText(r)));
      rows.length = 0;
      yield matching;
    }
  }

  return {
    criteriaFor,

    async page(auth: AuthContext, query: HistoryListQuery): Promise<HistoryPage> {
      const cursor = decodeCursor(query.cursor);
      const c = await prepare(criteriaFor(auth, query));
      const rows = await rowsFor(c, cursor, query.limit + 1);
      const pageRows = rows.slice(0, query.limit);
      const names = await namesFor(pageRows.filter((r) => !r.userName).map(actorOf));
      const last = pageRows[pageRows.length - 1];
      return {
        items: pageRows.map((r) => present(r, names)),
        nextCursor: rows.length > query.limit && last ? encodeCursor({ timestamp: last.timestamp, seq: last.seq }) : null,
      };
    },

    /** Exact up to the cap (10,000 matches); an estimate beyond it. */
    async count(auth: AuthContext, filters: HistoryFilters): Promise<HistoryCount> {
      const c = await prepare(criteriaFor(auth, filters));
      if (sqlite && c.terms.length > 0) return sqliteTextCount(c);
      const n = await repo.countUpTo(db, c, cap);
      if (n <= cap) return { count: n, exact: true };
      return { count: roundEstimate(await estimateByTime(c, true)), exact: false };
    },

    async detail(auth: AuthContext, id: string): Promise<HistoryDetail> {
      const scope = criteriaFor(auth, { range: 'all' });
      const row = await repo.findById(db, id, scope);
      if (!row) fail('NOT_FOUND');
      const names = await namesFor([actorOf(row)]);
      const changes = parseJson(row.changes) as { before?: unknown; after?: unknown } | null;
      const details = parseJson(row.details);
      return {
        ...present({ ...row, hasChanges: row.changes ? 1 : 0 }, names),
        changes: changes && typeof changes === 'object' ? { before: changes.before ?? null, after: changes.after ?? null } : null,
        details: details && typeof details === 'object' && !Array.isArray(details) ? details as Record<string, unknown> : null,
      };
    },

    async users(): Promise<Array<{ id: string; name: string }>> {
      const rows = await repo.listAccounts(db);
      return [
        ...rows.map((r) => ({ id: r.id, name: r.isDeleted ? `${r.fullname} (deleted)` : r.fullname })),
        { id: SYSTEM_ACTOR.id, name: SYSTEM_ACTOR.fullname },
      ];
    },

    /** The CSV file name of SPEC.md section 7, dated in Manila. */
    exportFileName(now = Date.now()): string {
      return `history-logs-${manilaDate(now)}.csv`;
    },

    /**
     * The CSV of the current filters, streamed: the database is read in batches by
     * (timestamp, seq), the lines are written here into chunks of about 64 KB, and the next
     * chunk is made only when the client has taken the previous ones, so memory stays flat.
     * Users, actions and collections repeat, so their cells are escaped once per export.
     */
    exportCsv(auth: AuthContext, filters: HistoryFilters): Readable {
      const criteria = criteriaFor(auth, filters);
      const names: Names = new Map();
      const repeated = new Map<string, string>();
      const cellOf = (value: string): string => {
        let cell = repeated.get(value);
        if (cell === undefined) {
          cell = csvCell(value);
          if (repeated.size < 10_000) repeated.set(value, cell);
        }
        return cell;
      };
      async function* chunks(): AsyncGenerator<string> {
        let out = `\ufeff${HISTORY.csvColumns.join(',')}\n`;
        try {
          for await (const rows of exportRows(await prepare(criteria))) {
            const ids: Array<string | null> = [];
            for (const row of rows) if (row[F.actor] !== null) ids.push(row[F.actor]);
            if (ids.length > 0) await namesFor(ids, names);
            for (const row of rows) {
              out += `${csvTimestamp(row[F.timestamp])},${cellOf(row[F.userName] || userLabel(null, row[F.actor], names))},${cellOf(row[F.action])},${cellOf(collectionLabel(row[F.collection]))},${csvCell(row[F.document] ?? '')},${csvCell(row[F.description] ?? '')}\n`;
            }
            // The generators that made this batch keep their array while the client takes the
            // text: emptied, its rows are garbage before they can outlive a young-generation GC
            // (promoted, they would swell the old generation and the resident memory).
            rows.length = 0;
            if (out.length >= EXPORT_CHUNK) {
              yield out;
              out = '';
            }
          }
          if (out) yield out;
        } catch (err) {
          ctx.log.error({ err }, 'history export failed');
          throw err;
        }
      }
      return Readable.from(chunks(), { objectMode: false, highWaterMark: EXPORT_CHUNK });
    },
  };
}

