import { fail } from '../http/errors.js';

/**
 * Optimistic concurrency: every record carries `version`; an update names the version it
 * edited and the repository updates `where id = ? and version = ?`, setting version + 1.
 * When no row changed, the record either is gone (404) or is newer (409 with the current
 * record so the form can reload it, keeping the user's touched fields, or overwrite).
 */
export function assertUpdated(
  updatedRows: bigint | number,
  current: { version: number } | undefined,
  present: (row: never) => unknown = (r) => r,
): void {
  if (Number(updatedRows) > 0) return;
  if (!current) fail('NOT_FOUND');
  fail('VERSION_CONFLICT', undefined, undefined, { current: present(current as never), currentVersion: current.version });
}
