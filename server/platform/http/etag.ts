import crypto from 'node:crypto';

/** A strong ETag of JSON content: its sha256, base64url, shortened. */
export function contentEtag(content: unknown): string {
  return `"${crypto.createHash('sha256').update(JSON.stringify(content)).digest('base64url').slice(0, 27)}"`;
}

/**
 * The ETag of an answer already serialized, leaving out its top-level `serverTime` (the sync
 * cursor, which moves on every request): the JSON is hashed as sent, not serialized again. Only
 * a key follows `{` or `,` unescaped: a text holding the same characters has them escaped (\").
 */
export function serializedEtag(json: string): string {
  const content = json.replace(/([{,])"serverTime":"[^"]*"/, '$1');
  return `"${crypto.createHash('sha256').update(content).digest('base64url').slice(0, 27)}"`;
}

/** True when an If-None-Match header names `etag` (weak or strong) or is `*`. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  return !!header && header.split(',').map((s) => s.trim().replace(/^W\//, '')).some((t) => t === '*' || t === etag);
}
