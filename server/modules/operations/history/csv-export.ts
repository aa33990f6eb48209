import { Readable } from 'node:stream';
import { HISTORY_LIMITS } from '../../../../common/history.js';
import { HISTORY_CSV_COLUMNS, HISTORY_CSV_REPEATED_COLUMNS, historyCsvRow } from '../../../../common/history-csv.js';
import { matchesTerms } from '../../../../common/history-search.js';
import { openBatchReader } from '../../../db/batch-reader.js';
import { isPostgres } from '../../../db/dialect.js';
import type { AppContext } from '../../../platform/http/context.js';
import { csvFile, type CsvRow } from '../../../platform/spreadsheets/csv-file.js';
import type { Criteria } from './criteria.js';
import { postgresExportBatches } from './export-postgres.js';
import { sqliteExportBatches } from './export-sqlite.js';
import { exportText, namesFor, userLabel, type Names } from './presenter.js';
import { historyRepository as repo, type ExportRow } from './repository.js';
import type { SearchPlanner } from './search-planner.js';

/** The response stream's buffer: about one chunk of csv-file.ts. */
const EXPORT_CHUNK = 64 * 1024;

/** The History CSV (docs/PRODUCT.md section 7): the entries of the filters, streamed. */
export function createCsvExport(ctx: AppContext, planner: SearchPlanner) {
  const { db } = ctx;
  const sqlite = !isPostgres(db);

  /**
   * The matching rows in batches, newest first. SQLite with search words: the full-text
   * index's candidates when they are few, else every batch with the other filters, the
   * words checked here.
   */
  async function* exportRows(c: Criteria): AsyncGenerator<ExportRow[]> {
    const byText = sqlite && c.terms.length > 0;
    const seqs = byText ? await planner.allCandidates(c, HISTORY_LIMITS.exactCountCap) : null;
    if (seqs) {
      yield (await repo.exportRowsBySeqs(db, c, seqs)).filter((r) => matchesTerms(c.terms, exportText(r)));
      return;
    }
    const reader = await openBatchReader(ctx.config);
    try {
      const batches = (sqlite ? sqliteExportBatches : postgresExportBatches)(db, reader, c, HISTORY_LIMITS.exportBatch, !byText);
      for await (const rows of batches) {
        if (!byText) {
          yield rows;
          continue;
        }
        const matching = rows.filter((r) => matchesTerms(c.terms, exportText(r)));
        rows.length = 0;
        yield matching;
      }
    } finally {
      await reader.close();
    }
  }

  /**
   * One batch's CSV rows (common/history-csv.ts), the batch's array emptied once they are
   * written: the generators that made it keep the array while the client takes the text, and
   * emptied, its rows are garbage before they can outlive a young-generation GC (promoted, they
   * would swell the old generation and the resident memory).
   */
  function* csvRows(rows: ExportRow[], names: Names): Generator<CsvRow> {
    for (const row of rows) {
      yield historyCsvRow({
        timestamp: row.timestamp,
        user: row.userName || userLabel(null, row.actor, names),
        action: row.action,
        collection: row.collection,
        document: row.document,
        description: row.description,
      });
    }
    rows.length = 0;
  }

  /**
   * The CSV of the criteria (not yet prepared), streamed: the database is read in batches by
   * (timestamp, seq), the file is written by csv-file.ts into chunks of about 64 KB, and the
   * next chunk is made only when the client has taken the previous ones, so memory stays flat.
   * Users, actions and collections repeat, so their cells are escaped once per export.
   */
  return function exportCsv(criteria: Criteria): Readable {
    const names: Names = new Map();
    async function* batches(): AsyncGenerator<Iterable<CsvRow>> {
      try {
        for await (const rows of exportRows(await planner.prepare(criteria))) {
          const ids: Array<string | null> = [];
          for (const row of rows) if (row.actor !== null) ids.push(row.actor);
          if (ids.length > 0) await namesFor(db, ids, names);
          yield csvRows(rows, names);
        }
      } catch (err) {
        ctx.log.error({ err }, 'history export failed');
        throw err;
      }
    }
    const text = csvFile(HISTORY_CSV_COLUMNS, { batches: batches() }, { repeatedColumns: HISTORY_CSV_REPEATED_COLUMNS });
    return Readable.from(text, { objectMode: false, highWaterMark: EXPORT_CHUNK });
  };
}
