/** Timestamps are stored as ISO-8601 UTC text on both engines. */
export function nowIso(): string {
  return new Date().toISOString();
}

/** The ISO-8601 UTC time `ms` after `from` (now unless given). */
export function isoIn(ms: number, from = Date.now()): string {
  return new Date(from + ms).toISOString();
}

export function newId(): string {
  return crypto.randomUUID();
}
