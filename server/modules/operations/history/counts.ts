import type { Kysely } from 'kysely';
import { HISTORY_LIMITS } from '../../../../common/history.js';
import { matchesTerms } from '../../../../common/history-search.js';
import type { HistoryCount } from '../../../../common/schemas/history.js';
import { isPostgres } from '../../../db/dialect.js';
import { roundEstimate } from '../../../platform/support/estimates.js';
import type { Database } from '../../../db/types.js';
import type { Criteria } from './criteria.js';
import { exportText } from './presenter.js';
import { historyRepository as repo, type ExportRow } from './repository.js';
import type { SearchPlanner } from './search-planner.js';

/** Rows sampled to estimate how many match a common word. */
const DENSITY_SAMPLE = 2000;

/** How many entries match: exact up to the cap (10,000 matches), an estimate beyond it. */
export function createHistoryCounter(db: Kysely<Database>, planner: SearchPlanner) {
  const sqlite = !isPostgres(db);
  const cap = HISTORY_LIMITS.exactCountCap;

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
    const seqs = await planner.allCandidates(c, cap);
    if (seqs) return { count: matching(await repo.exportRowsBySeqs(db, c, seqs)), exact: true };
    const base = await repo.countUpTo(db, c, cap, false);
    if (base <= cap) return { count: matching(await repo.newestRows(db, c, cap, false)), exact: true };
    // The share of matches is taken before the next queries, so the sample is not kept meanwhile.
    const share = await repo.newestRows(db, c, DENSITY_SAMPLE, false).then((sample) => matching(sample) / sample.length);
    return { count: roundEstimate(share * (await estimateByTime(c, false))), exact: false };
  }

  /** The count of prepared criteria (planner.prepare). */
  return async function count(c: Criteria): Promise<HistoryCount> {
    if (sqlite && c.terms.length > 0) return sqliteTextCount(c);
    const n = await repo.countUpTo(db, c, cap);
    if (n <= cap) return { count: n, exact: true };
    return { count: roundEstimate(await estimateByTime(c, true)), exact: false };
  };
}
