/**
 * normalizedUsername and normalizedEmail are UNIQUE in the database (migration 001), so of two
 * simultaneous saves of one name only one can win. This reads which of the two a unique
 * violation was about, on SQLite and PostgreSQL alike; null when the error is something else.
 */
export function uniqueViolationField(err: unknown): 'username' | 'email' | null {
  if (!err || typeof err !== 'object') return null;
  const e = err as { code?: unknown; message?: unknown; detail?: unknown; constraint?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  // better-sqlite3: SQLITE_CONSTRAINT_UNIQUE ("UNIQUE constraint failed: accounts.normalizedEmail");
  // pg: 23505 with constraint "accounts_normalizedEmail_key" and detail 'Key ("normalizedEmail")=…'.
  const isUnique = code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
  if (!isUnique) return null;
  const text = [e.message, e.detail, e.constraint].filter((v) => typeof v === 'string').join(' ');
  if (text.includes('normalizedUsername')) return 'username';
  if (text.includes('normalizedEmail')) return 'email';
  return null;
}
