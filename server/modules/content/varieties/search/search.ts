import type { Kysely } from 'kysely';
import { LIMITS } from '../../../../../common/limits.js';
import { readWorkers } from '../../../../db/read-workers.js';
import type { Database } from '../../../../db/types.js';
import { roundEstimate } from '../../../../platform/support/estimates.js';
import { shownPage } from '../../../../platform/http/pages.js';
import type { ListedVarietyRow } from '../repository.js';
import { varietySearchRepository as repo, type CountedVia, type IndexLookup } from './repository.js';

/** Newest live rows whose share of matches estimates a count past the cap. */
const ESTIMATE_SAMPLE = 1000;

/** The index is asked for rows holding all of the term's rarest trigrams, this many. */
const RAREST_USED = 2;

/** The counted texts are these long at most; both engines count characters as code points. */
const GRAM = 3;

export interface SearchTotal {
  total: number;
  /** False past LIMITS.varietyExactCountCap: total is an estimate. */
  exact: boolean;
  /** How the page is found through the trigram index; none: in the list's order (short terms). */
  lookup?: IndexLookup;
}

function trigramsOf(chars: string[]): string[] {
  const grams = new Set<string>();
  for (let i = 0; i + GRAM <= chars.length; i += 1) grams.add(chars.slice(i, i + GRAM).join(''));
  return [...grams];
}

/** A page of the search as the list shows it, with the total it was paged by. */
export interface SearchPage {
  counted: SearchTotal;
  /** The page shown (shownPage). */
  page: number;
  rows: ListedVarietyRow[];
}

/**
 * Counts the term's matches (countMatches) and, when `wanted`, brings the page along where the
 * count's own query can (PostgreSQL, through the trigram index, up to the cap).
 */
async function counting(
  db: Kysely<Database>,
  term: string,
  cap: number,
  wanted?: { limit: number; offset: number },
): Promise<{ counted: SearchTotal; rows?: ListedVarietyRow[] }> {
  const chars = Array.from(term);
  const grams = chars.length <= GRAM ? [term] : trigramsOf(chars);
  const counts = await repo.gramCounts(db, ['', ...grams]);
  const live = counts.get('') ?? 0;
  const rarest = [...grams].sort((a, b) => (counts.get(a) ?? 0) - (counts.get(b) ?? 0)).slice(0, RAREST_USED);
  const bound = counts.get(rarest[0]!) ?? 0;
  if (chars.length < GRAM || bound === 0) return { counted: { total: bound, exact: true } };
  if (chars.length === GRAM)
    return {
      counted: { total: bound, exact: true, lookup: bound <= cap ? { trigrams: [term], few: true } : { trigrams: null, few: false } },
    };
  const lookup = repo.lookupFor(db, { rarest, bound, live, cap });
  let via: CountedVia;
  if (!lookup?.trigrams) via = { found: await repo.countWhole(db, term, cap + 1) };
  else if (wanted) via = await repo.countViaWithPage(db, term, lookup.trigrams, cap, ESTIMATE_SAMPLE, wanted.limit, wanted.offset);
  else via = { found: await repo.countVia(db, term, lookup.trigrams, cap + 1) };
  if (via.found <= cap)
    return { counted: { total: via.found, exact: true, ...(lookup ? { lookup } : {}) }, ...(via.rows ? { rows: via.rows } : {}) };
  const { matched, sampled } = via.sample ?? (await repo.matchesAmongNewest(db, term, ESTIMATE_SAMPLE));
  const share = sampled > 0 ? matched / sampled : 0;
  const estimated = Math.min(live, Math.max(cap + 1, roundEstimate(share * live)));
  return { counted: { total: estimated, exact: false, lookup: { trigrams: lookup?.trigrams ?? null, few: false, newestShare: share } } };
}

/**
 * How many live varieties contain the lower-case term ('' is every one).
 * - Up to three characters: exact, from the counts the database keeps.
 * - Otherwise counted through the trigram index up to the cap: the rows holding the term's
 *   rarest trigrams are tested while they are few (repository: lookupFor); else the term itself
 *   is looked up (on SQLite by the index's phrase query, on PostgreSQL in the table's order).
 * - Past the cap: an estimate from the share of matches among the newest rows.
 */
export async function countMatches(db: Kysely<Database>, term: string, cap: number = LIMITS.varietyExactCountCap): Promise<SearchTotal> {
  return (await counting(db, term, cap)).counted;
}

/** The page's rows: through the trigram index for terms of three or more characters, else in the list's order. */
export async function pageOfMatches(
  db: Kysely<Database>,
  term: string,
  counted: SearchTotal,
  limit: number,
  offset: number,
): Promise<ListedVarietyRow[]> {
  return counted.lookup ? repo.pageVia(db, term, counted.lookup, counted.total, limit, offset) : repo.page(db, term, limit, offset);
}

/** The total and the shown page of a search: countMatches, then pageOfMatches unless the count brought the page. */
export async function searchPage(
  db: Kysely<Database>,
  term: string,
  page: number,
  pageSize: number,
  cap: number = LIMITS.varietyExactCountCap,
): Promise<SearchPage> {
  const asked = Math.max(1, page);
  const { counted, rows } = await counting(db, term, cap, { limit: pageSize, offset: (asked - 1) * pageSize });
  const shown = shownPage(page, counted.total, pageSize);
  if (counted.total === 0) return { counted, page: shown, rows: [] };
  // The page asked for lies past the last one: the last is read instead.
  const brought = shown === asked ? rows : undefined;
  return { counted, page: shown, rows: brought ?? (await pageOfMatches(db, term, counted, pageSize, (shown - 1) * pageSize)) };
}

const WORKER = new URL('./worker.js', import.meta.url);

/**
 * The search as the list runs it: on SQLite in a reader thread (db/read-workers.ts), so a
 * search that reads much of the index holds up no other request; the whole list ('') is read
 * where it is asked, as passing it to a thread would cost more than reading it.
 */
export function varietySearch(db: Kysely<Database>) {
  const threads = (term: string) => (term === '' ? null : readWorkers(db, WORKER));
  return {
    /** The search's total and shown page, in one call (and on SQLite one trip to a thread). */
    search(term: string, page: number, pageSize: number): Promise<SearchPage> {
      const workers = threads(term);
      return workers ? workers.run<SearchPage>('searchPage', [term, page, pageSize]) : searchPage(db, term, page, pageSize);
    },
    /** A page of a search whose total is known (another page's, kept by the list's cache). */
    page(term: string, counted: SearchTotal, limit: number, offset: number): Promise<ListedVarietyRow[]> {
      const workers = threads(term);
      return workers
        ? workers.run<ListedVarietyRow[]>('pageOfMatches', [term, counted, limit, offset])
        : pageOfMatches(db, term, counted, limit, offset);
    },
  };
}
