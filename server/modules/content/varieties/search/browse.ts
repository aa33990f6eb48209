import type { Kysely } from 'kysely';
import { LIMITS } from '../../../../../common/limits.js';
import type { VarietySort } from '../../../../../common/schemas/varieties.js';
import { readWorkers } from '../../../../db/read-workers.js';
import type { Database } from '../../../../db/types.js';
import { shownPage } from '../../../../platform/http/pages.js';
import { roundEstimate } from '../../../../platform/support/estimates.js';
import { varietyBrowseRepository as repo, varietySearchRepository, type BrowseRows, type VarietyFilters } from './repository.js';
import { countMatches, type SearchPage } from './search.js';

/**
 * Reading one row through the filters' index and sorting it costs about this many steps of
 * walking the sort column's index (where each step passes a row the filters may refuse).
 */
const FILTERED_ROW_COST = 5;

export interface BrowseOrder {
  sort: VarietySort;
  dir: 'asc' | 'desc';
}

const hasFilters = (filters: VarietyFilters) => Object.values(filters).some((v) => v !== undefined);

/**
 * The list sorted or filtered, with or without a search term: the total and the shown page.
 * - No term: the filtered rows are counted exactly (from the filters' index alone).
 * - A term of few matches (counted exactly, up to the cap): the search index finds them, and
 *   they are filtered, counted and put in order. Past the cap they are dense enough in the list
 *   that reading it in the sort column's order finds a page soon.
 * - A term with many matches: its rows are read in the sort column's order and counted up to
 *   the cap; past it the total is the term's estimate times the filters' share of the list.
 */
export async function browsePage(
  db: Kysely<Database>,
  term: string,
  filters: VarietyFilters,
  order: BrowseOrder,
  page: number,
  pageSize: number,
  cap: number = LIMITS.varietyExactCountCap,
): Promise<SearchPage> {
  const asked = Math.max(1, page);
  const live = (await varietySearchRepository.gramCounts(db, [''])).get('') ?? 0;
  let rows: BrowseRows = { term };
  let total: number;
  let exact = true;
  let few: (offset: number) => boolean;
  if (term === '') {
    total = hasFilters(filters) ? await repo.count(db, rows, filters, null) : live;
    few = (offset) => total * FILTERED_ROW_COST < ((offset + pageSize) * live) / Math.max(total, 1);
  } else {
    const matched = await countMatches(db, term, cap);
    if (matched.total === 0) return { counted: { total: 0, exact: true }, page: 1, rows: [] };
    const indexed = matched.exact && matched.total <= cap && matched.lookup ? { term, lookup: matched.lookup } : null;
    if (indexed && repo.readsThroughIndex(db, indexed)) {
      rows = indexed;
      total = await repo.count(db, rows, filters, null);
      few = () => true;
    } else {
      const counted = await repo.count(db, rows, filters, cap + 1);
      total = counted;
      if (counted > cap) {
        const share = hasFilters(filters) ? (await repo.count(db, { term: '' }, filters, null)) / Math.max(live, 1) : 1;
        total = Math.min(matched.total, Math.max(cap + 1, roundEstimate(matched.total * share)));
        exact = false;
      }
      few = () => counted <= cap;
    }
  }
  const shown = shownPage(asked, total, pageSize);
  if (total === 0) return { counted: { total, exact }, page: shown, rows: [] };
  const offset = (shown - 1) * pageSize;
  return {
    counted: { total, exact },
    page: shown,
    rows: await repo.page(db, rows, filters, { ...order, few: few(offset) }, pageSize, offset),
  };
}

const WORKER = new URL('./worker.js', import.meta.url);

/** browsePage as the list runs it: on SQLite in a reader thread, as the search (search.ts, varietySearch). */
export function varietyBrowse(db: Kysely<Database>) {
  return (term: string, filters: VarietyFilters, order: BrowseOrder, page: number, pageSize: number): Promise<SearchPage> => {
    const workers = readWorkers(db, WORKER);
    return workers
      ? workers.run<SearchPage>('browsePage', [term, filters, order, page, pageSize])
      : browsePage(db, term, filters, order, page, pageSize);
  };
}
