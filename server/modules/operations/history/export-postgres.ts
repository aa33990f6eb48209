import type { Kysely } from 'kysely';
import type { BatchReader } from '../../../db/batch-reader.js';
import type { Database } from '../../../db/types.js';
import type { Criteria } from './criteria.js';
import type { Cursor } from './cursor.js';
import { exportStatements, positionedParams, type ExportRow } from './repository.js';

/**
 * PostgreSQL: the CSV rows in batches, newest first by (timestamp, seq), until the end. Each
 * batch is one keyset statement on the export's own connection, so no transaction stays open.
 * Each batch array may be emptied by the consumer once it has used the rows.
 */
export async function* postgresExportBatches(
  db: Kysely<Database>,
  reader: BatchReader,
  c: Criteria,
  batchSize: number,
  withText: boolean,
): AsyncGenerator<ExportRow[]> {
  const batch = exportStatements.batch(db, c, batchSize, withText);
  let position: Cursor = { timestamp: '\uffff', seq: Number.MAX_SAFE_INTEGER };
  for (;;) {
    const rows = await reader.rows(batch, positionedParams(batch, position));
    // The position is taken before the batch goes out: the consumer empties the array.
    const full = rows.length === batchSize;
    if (full) position = { timestamp: rows[batchSize - 1]!.timestamp, seq: Number(rows[batchSize - 1]!.seq) };
    if (rows.length > 0) yield rows;
    if (!full) return;
  }
}
