import type { Kysely } from 'kysely';
import { LIMITS } from '../../../common/limits.js';
import type { Database } from '../../db/types.js';
import { roundEstimate } from '../../platform/estimates.js';
import { varietiesRepository as repo, type MatchRef, type VarietyRow } from './repository.js';

/** Newest live rows whose share of matches estimates a count past the cap. */
const ESTIMATE_SAMPLE = 1000;

/**
 * On PostgreSQL a term whose rarest trigram is in more than 1/this of the live rows is looked up
 * in the table's order (its matches come soon) rather than through the index (which would first
 * list all those rows).
 */
const COMMON_TRIGRAM_SHARE = 3;

/** The index is asked for rows holding all of the term's rarest trigrams, this many. */
const RAREST_USED = 2;

/** The counted texts are these long at most; both engines count characters as code points. */
const GRAM = 3;

export interface SearchTotal {
  total: number;
  /** False past LIMITS.varietyExactCountCap: total is an estimate. */
  exact: boolean;
  /** Where the matches are read again, when found through the trigram index (the page is then read from them). */
  matches?: MatchRef;
}

function trigramsOf(chars: string[]): string[] {
  const grams = new Set<string>();
  for (let i = 0; i + GRAM <= chars.length; i += 1) grams.add(chars.slice(i, i + GRAM).join(''));
  return [...grams];
}

/**
 * How many live varieties contain the lower-case term ('' is every one).
 * - Up to two characters, or three with many matches: exact, from the counts the database keeps.
 * - Otherwise the matches are found through the trigram index (the page is read the same way),
 *   up to the cap: if the term's rarest trigram is in at most that many rows, those rows
 *   are tested; else the term itself is looked up (on SQLite by the index's phrase query, on
 *   PostgreSQL through the rarest trigrams or, when they are common, in the table's order).
 * - Past the cap: an estimate from the share of matches among the newest rows.
 */
export async function countMatches(db: Kysely<Database>, term: string, cap: number = LIMITS.varietyExactCountCap): Promise<SearchTotal> {
  const chars = Array.from(term);
  const grams = chars.length <= GRAM ? [term] : trigramsOf(chars);
  const counts = await repo.gramCounts(db, ['', ...grams]);
  const live = counts.get('') ?? 0;
  const rarest = [...grams].sort((a, b) => (counts.get(a) ?? 0) - (counts.get(b) ?? 0)).slice(0, RAREST_USED);
  const bound = counts.get(rarest[0]!) ?? 0;
  if (chars.length < GRAM || bound === 0) return { total: bound, exact: true };
  if (bound <= cap) {
    const { count, ref } = await repo.matchesVia(db, term, rarest, cap + 1);
    return { total: count, exact: true, ...(ref ? { matches: ref } : {}) };
  }
  if (chars.length === GRAM) return { total: bound, exact: true };
  const { count, ref } = await repo.matchesOf(db, term, cap + 1, bound * COMMON_TRIGRAM_SHARE < live ? rarest : null);
  if (count <= cap) return { total: count, exact: true, ...(ref ? { matches: ref } : {}) };
  const { matched, sampled } = await repo.matchesAmongNewest(db, term, ESTIMATE_SAMPLE);
  const share = sampled > 0 ? matched / sampled : 0;
  return { total: Math.min(live, Math.max(cap + 1, roundEstimate(share * live))), exact: false };
}

/**
 * The page's rows: from the matches found through the index (at most the cap) when there are,
 * else, for many matches, in the list's order (the scan stops once the page is full).
 */
export async function pageOfMatches(db: Kysely<Database>, term: string, counted: SearchTotal, limit: number, offset: number): Promise<VarietyRow[]> {
  return counted.matches ? repo.pageOf(db, counted.matches, limit, offset) : repo.page(db, term, limit, offset);
}
