import type { Kysely } from 'kysely';
import { LIMITS } from '../../../../../common/limits.js';
import type { VarietySort } from '../../../../../common/schemas/varieties.js';
import { readWorkers } from '../../../../db/read-workers.js';
import type { Database } from '../../../../db/types.js';
import { shownPage } from '../../../../platform/http/pages.js';
import { roundEstimate } from '../../../../platform/support/estimates.js';
import { varietyBrowseRepository as repo, varietySearchRepository, type BrowseRows, type VarietyFilters } from './repository.js';
import type { ListedVarietyRow } from '../repository.js';
import { countMatches } from './search.js';
import type { IndexLookup } from './repository.js';

export interface BrowseOrder {
  sort: VarietySort;
  dir: 'asc' | 'desc';
}

const hasFilters = (filters: VarietyFilters) => Object.values(filters).some((v) => v !== undefined);

/**
 * How many rows a browse holds (the same for every sort and page), and how its pages are read.
 * - No term: the filtered rows are counted exactly (from the filters' index alone).
 * - A term of few matches (counted exactly, up to the cap): the search index finds them, and
 *   they are filtered and counted; pages put them in order.
 * - A term with many matches: they are dense enough in the list that reading it in the sort
 *   column's order finds a page soon; they are counted up to the cap, and past it the total is
 *   the term's estimate times the filters' share of the list.
 */
export interface BrowseCount {
  total: number;
  exact: boolean;
  /** The term's matches, found through the search index. */
  lookup?: IndexLookup;
  /** A term's matches with the filters, at most the cap: a page sorts these. */
  ids?: string[];
}

export async function browseCount(
  db: Kysely<Database>,
  term: string,
  filters: VarietyFilters,
  cap: number = LIMITS.varietyExactCountCap,
): Promise<BrowseCount> {
  const live = (await varietySearchRepository.gramCounts(db, [''])).get('') ?? 0;
  if (term === '') return { total: hasFilters(filters) ? await repo.count(db, { term }, filters, null) : live, exact: true };
  const matched = await countMatches(db, term, cap);
  if (matched.total === 0) return { total: 0, exact: true };
  const indexed = matched.exact && matched.total <= cap && matched.lookup ? { term, lookup: matched.lookup } : null;
  if (indexed && repo.readsThroughIndex(db, indexed))
    return { total: await repo.count(db, indexed, filters, null), exact: true, lookup: indexed.lookup };
  const ids = await repo.ids(db, { term }, filters, cap + 1);
  if (ids.length <= cap) return { total: ids.length, exact: true, ids };
  const share = hasFilters(filters) ? (await repo.count(db, { term: '' }, filters, null)) / Math.max(live, 1) : 1;
  return { total: Math.min(matched.total, Math.max(cap + 1, roundEstimate(matched.total * share))), exact: false };
}

/** The shown page of a browse counted by browseCount (the last one when the page asked for lies past it). */
export async function browsePage(
  db: Kysely<Database>,
  term: string,
  filters: VarietyFilters,
  order: BrowseOrder,
  counted: BrowseCount,
  page: number,
  pageSize: number,
): Promise<{ page: number; rows: ListedVarietyRow[] }> {
  const shown = shownPage(Math.max(1, page), counted.total, pageSize);
  if (counted.total === 0) return { page: shown, rows: [] };
  const offset = (shown - 1) * pageSize;
  const rows: BrowseRows = counted.ids ? { term, ids: counted.ids } : counted.lookup ? { term, lookup: counted.lookup } : { term };
  const few = counted.lookup !== undefined || counted.ids !== undefined;
  return { page: shown, rows: await repo.page(db, rows, filters, { ...order, few }, pageSize, offset) };
}

const WORKER = new URL('./worker.js', import.meta.url);

/** browseCount and browsePage as the list runs them: on SQLite in a reader thread, as the search (search.ts, varietySearch). */
export function varietyBrowse(db: Kysely<Database>) {
  const threads = () => readWorkers(db, WORKER);
  return {
    count(term: string, filters: VarietyFilters): Promise<BrowseCount> {
      const workers = threads();
      return workers ? workers.run<BrowseCount>('browseCount', [term, filters]) : browseCount(db, term, filters);
    },
    page(term: string, filters: VarietyFilters, order: BrowseOrder, counted: BrowseCount, page: number, pageSize: number) {
      const workers = threads();
      return workers
        ? workers.run<{ page: number; rows: ListedVarietyRow[] }>('browsePage', [term, filters, order, counted, page, pageSize])
        : browsePage(db, term, filters, order, counted, page, pageSize);
    },
  };
}
