import type { TimeBounds } from '../../../../common/history-dates.js';

/*
 * The criteria of a history query and the text of its full-text match; their SQL conditions,
 * the list's order and keyset are in repository/conditions.ts.
 */

/** What one history query selects: the filters and the role's scope, already checked. */
export interface Criteria {
  bounds: TimeBounds;
  action?: string | undefined;
  collection?: string | undefined;
  user?: string | undefined;
  /** Words of the free-text search (letters and digits, folded); each matches a word prefix. */
  terms: string[];
  /** An ADMIN sees only entries they performed ... */
  ownerId?: string | undefined;
  /** ... and never LOGIN, RESTRICT, UNRESTRICT. */
  hideSecurityActions: boolean;
  /**
   * PostgreSQL, two words or more: the word whose entries the GIN index should list (the
   * rarest); the others are checked on those rows. Unset: the whole query goes to the index.
   */
  indexTerm?: string | undefined;
}

/** The FTS5 query of SQLite: every word as a prefix (the index folds case and accents). */
export function ftsMatch(terms: string[]): string {
  return terms.map((t) => `"${t}"*`).join(' ');
}

/** Longest prefix FTS5 keeps its own index of (migration 041): such prefixes are read lazily. */
export const FTS_PREFIX_MAX = 4;

/**
 * The FTS5 query that the prefix indexes answer lazily: every word cut to its first 4
 * characters. It finds every entry the search words find, and some more when a word is longer
 * (the caller checks the full words).
 */
export function ftsPrefixMatch(terms: string[]): string {
  return ftsMatch([...new Set(terms.map((t) => t.slice(0, FTS_PREFIX_MAX)))]);
}
