import { HISTORY } from '../../../../common/history.js';
import { fail } from '../../../platform/http/errors.js';

/** Position of the last row of a page: rows strictly older come next. */
export interface Cursor {
  timestamp: string;
  seq: number;
}

/** The page link's cursor as the API hands it out: opaque base64url text. */
export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.timestamp, cursor.seq])).toString('base64url');
}

/** The cursor of a page link; a link that is not one of ours fails validation. */
export function decodeCursor(raw: string | undefined): Cursor | undefined {
  if (!raw) return undefined;
  try {
    const value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as unknown;
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === 'string' &&
      value[0].length <= 100 &&
      Number.isSafeInteger(value[1]) &&
      (value[1] as number) >= 0
    ) {
      return { timestamp: value[0], seq: value[1] as number };
    }
  } catch {
    /* fall through */
  }
  return fail('VALIDATION_FAILED', HISTORY.errors.badCursor, { cursor: HISTORY.errors.badCursor });
}
