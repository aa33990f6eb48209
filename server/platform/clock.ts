/** Timestamps are stored as ISO-8601 UTC text on both engines. */
export function nowIso(): string {
  return new Date().toISOString();
}

export function newId(): string {
  return crypto.randomUUID();
}
