import type { Kysely } from 'kysely';
import type { BatchReader } from '../../../db/batch-reader.js';
import type { Database } from '../../../db/types.js';
import type { Criteria } from './criteria.js';
import type { Cursor } from './cursor.js';
import { exportStatements, positionedParams, type ExportRow } from './repository.js';

/** An export row from its packed text (see exportStatements.packedBatch); null when a field itself holds a NUL. */
function unpack(seq: number, packed: string, withEmail: boolean): ExportRow | null {
  const f = packed.split('\u0000');
  if (f.length !== (withEmail ? 7 : 6)) return null;
  const user = f[1]!;
  const older = user.charCodeAt(0) === 1;
  return {
    seq,
    timestamp: f[0]!,
    actor: older ? user.slice(1) || null : null,
    userName: older ? null : user,
    action: f[2]!,
    collection: f[3]!,
    document: f[4]!,
    description: f[5]!,
    userEmail: withEmail ? f[6]! : null,
  };
}

/**
 * SQLite: the CSV rows in batches, newest first by (timestamp, seq), until the end: one
 * prepared statement on the export's own read-only connection, each row's fields packed into
 * one text. Each batch array may be emptied by the consumer once it has used the rows.
 */
export async function* sqliteExportBatches(
  db: Kysely<Database>,
  reader: BatchReader,
  c: Criteria,
  batchSize: number,
  withText: boolean,
): AsyncGenerator<ExportRow[]> {
  const batch = exportStatements.packedBatch(db, c, batchSize, withText);
  const one = exportStatements.one(db, c);
  const withEmail = c.terms.length > 0;
  let position: Cursor = { timestamp: '\uffff', seq: Number.MAX_SAFE_INTEGER };
  for (;;) {
    const packed = (await reader.arrays(batch, positionedParams(batch, position))) as Array<[number, string]>;
    const rows: ExportRow[] = new Array(packed.length);
    for (let i = 0; i < packed.length; i++) {
      const [seq, text] = packed[i]!;
      rows[i] = unpack(seq, text, withEmail) ?? (await reader.rows(one, positionedParams(one, { timestamp: '', seq })))[0]!;
    }
    // Nothing of the batch stays referenced here while it is being written (see csv-export.ts).
    packed.length = 0;
    const full = rows.length === batchSize;
    if (full) position = { timestamp: rows[batchSize - 1]!.timestamp, seq: rows[batchSize - 1]!.seq };
    if (rows.length > 0) yield rows;
    if (!full) return;
  }
}
