/**
 * The outages a request can meet, told apart so the answer names them: the database not
 * answering (503), photo storage not answering (503), the disk full (507). Anything else stays
 * a 500. The log keeps the real cause (SQLITE_FULL, ENOSPC, ECONNREFUSED, 57P01 …).
 */
export type Outage = 'database' | 'storage' | 'disk';

/** Photo storage (the local folder or an S3 bucket) failed for a reason other than a missing file. */
export class StorageUnavailable extends Error {
  constructor(cause: unknown) {
    super(`photo storage failed: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = 'StorageUnavailable';
  }
}

const DISK_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
const DATABASE_MESSAGES = [
  'Connection terminated',
  'connection error and is not queryable',
  'timeout exceeded when trying to connect',
  'Client was closed and is not queryable',
  'the database system is',
  'terminating connection',
];

function codeOf(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

/** The errors of a chain: the error, its cause, and theirs (a rollback error keeps the first as cause). */
function* chain(err: unknown): Generator<unknown> {
  const seen = new Set<unknown>();
  for (let e = err; e && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e);
    yield e;
    if (e instanceof AggregateError) for (const inner of e.errors) yield inner;
  }
}

export function outageOf(err: unknown): Outage | null {
  let found: Outage | null = null;
  for (const e of chain(err)) {
    const code = codeOf(e);
    const message = (e as Error)?.message ?? '';
    if (DISK_CODES.has(code) || code === '53100' || /No space left on device|database or disk is full/i.test(message)) return 'disk';
    if (e instanceof StorageUnavailable) found ??= 'storage';
    else if (
      code.startsWith('57P') ||
      code.startsWith('08') ||
      code === '53300' ||
      code === 'SQLITE_BUSY' ||
      code === 'SQLITE_CANTOPEN' ||
      NETWORK_CODES.has(code) ||
      DATABASE_MESSAGES.some((m) => message.includes(m))
    )
      found ??= 'database';
  }
  return found;
}
