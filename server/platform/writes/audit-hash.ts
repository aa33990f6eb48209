import crypto from 'node:crypto';

/**
 * The audit chain's arithmetic, shared by the writer, the verifier and the archive. Each entry
 * stores sha256(previous entry's hash + "\n" + its canonical content): changing, removing or
 * reordering one entry breaks every link after it. The content includes seq (the order History
 * lists entries in); the position (chainIndex) is not hashed but checked against the links, so
 * a move is named as a move and not as a change.
 */
export const GENESIS_HASH = '0'.repeat(64);

export const CHAINED_FIELDS = [
  'id',
  'userId',
  'userName',
  'userEmail',
  'timestamp',
  'action',
  'collection',
  'documentId',
  'documentName',
  'description',
  'changes',
  'details',
  'actorId',
  'performedBy',
  'name',
] as const;

export type ChainedField = (typeof CHAINED_FIELDS)[number];
export type ChainedContent = { [K in ChainedField]: string | null };

/** [seq, ...CHAINED_FIELDS] as one JSON array (absent and null are the same). */
export function canonicalEntry(row: Partial<Record<ChainedField, unknown>> & { seq: number }): string {
  const values = new Array<unknown>(CHAINED_FIELDS.length + 1);
  values[0] = row.seq;
  for (let i = 0; i < CHAINED_FIELDS.length; i += 1) values[i + 1] = row[CHAINED_FIELDS[i]!] ?? null;
  return JSON.stringify(values);
}

/** sha256 in hex; the one-shot crypto.hash is about twice as fast as createHash for short texts. */
export function entryHash(prevHash: string, row: Partial<Record<ChainedField, unknown>> & { seq: number }): string {
  return crypto.hash('sha256', `${prevHash}\n${canonicalEntry(row)}`, 'hex');
}

const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const LONE_SURROGATES = /[\uD800-\uDFFF]/gu;

/**
 * Text as it is stored and hashed: a lone UTF-16 surrogate (which no database keeps as it is:
 * SQLite reads it back as three U+FFFD, PostgreSQL as one) becomes one U+FFFD first, so the
 * hash is over exactly what will be read back.
 */
export function storedText<T>(value: T): T {
  return (typeof value === 'string' && LONE_SURROGATE.test(value) ? value.replace(LONE_SURROGATES, '\uFFFD') : value) as T;
}
