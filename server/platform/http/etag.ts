import crypto from 'node:crypto';

/** A strong ETag of JSON content: its sha256, base64url, shortened. */
export function contentEtag(content: unknown): string {
  return `"${crypto.createHash('sha256').update(JSON.stringify(content)).digest('base64url').slice(0, 27)}"`;
}

/**
 * The ETag of an answer already serialized, leaving out its sync cursor (`"serverTime":"<cursor>"`,
 * which moves on every request): the JSON is hashed as sent, not serialized again. Only a key
 * follows `{` or `,` unescaped (a text holding the same characters has them escaped), and the
 * cursor is this request's own instant.
 */
export function serializedEtag(json: string, cursor?: string): string {
  let content = json;
  if (cursor !== undefined) {
    const pair = `"serverTime":${JSON.stringify(cursor)}`;
    let at = json.indexOf(pair);
    while (at > 0 && json[at - 1] !== '{' && json[at - 1] !== ',') at = json.indexOf(pair, at + 1);
    if (at > 0) content = json.slice(0, at) + json.slice(at + pair.length);
  }
  return `"${crypto.createHash('sha256').update(content).digest('base64url').slice(0, 27)}"`;
}

/** True when an If-None-Match header names `etag` (weak or strong) or is `*`. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  return (
    !!header &&
    header
      .split(',')
      .map((s) => s.trim().replace(/^W\//, ''))
      .some((t) => t === '*' || t === etag)
  );
}
