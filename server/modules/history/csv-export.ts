import { Readable } from 'node:stream';
import { collectionLabel, HISTORY_LIMITS } from '../../../common/history.js';
import { csvCell } from '../../../common/csv.js';
import { csvTimestamp, HISTORY_CSV_COLUMNS } from '../../../common/history-csv.js';
import { matchesTerms } from '../../../common/history-search.js';
import { openBatchReader } from '../../db/batch-reader.js';
import { isPostgres } from '../../db/dialect.js';
import type { AppContext } from '../../platform/http/context.js';
import type { Criteria } from './criteria.js';
import { postgresExportBatches } from './export-postgres.js';
import { sqliteExportBatches } from './export-sqlite.js';
import { exportText, namesFor, userLabel, type Names } from './presenter.js';
import { historyRepository as repo, type ExportRow } from './repository.js';
import type { SearchPlanner } from './search-planner.js';

/** Characters of CSV at least per chunk handed to the response stream (one batch of rows at most more). */
const EXPORT_CHUNK = 64 * 1024;

/** The History CSV (SPEC.md section 7): the entries of the filters, streamed. */
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
   * The CSV of the criteria (not yet prepared), streamed: the database is read in batches by
   * (timestamp, seq), the lines are written here into chunks of about 64 KB, and the next
   * chunk is made only when the client has taken the previous ones, so memory stays flat.
   * Users, actions and collections repeat, so their cells are escaped once per export.
   */
  return function exportCsv(criteria: Criteria): Readable {
    const names: Names = new Map();
    const repeated = new Map<string, string>();
    const cellOf = (value: string): string => {
      let cell = repeated.get(value);
      if (cell === undefined) {
        cell = csvCell(value);
        if (repeated.size < 10_000) repeated.set(value, cell);
      }
      return cell;
    };
    async function* chunks(): AsyncGenerator<string> {
      let out = `\ufeff${HISTORY_CSV_COLUMNS.join(',')}\n`;
      try {
        for await (const rows of exportRows(await planner.prepare(criteria))) {
          const ids: Array<string | null> = [];
          for (const row of rows) if (row.actor !== null) ids.push(row.actor);
          if (ids.length > 0) await namesFor(db, ids, names);
          for (const row of rows) {
            out += `${csvTimestamp(row.timestamp)},${cellOf(row.userName || userLabel(null, row.actor, names))},${cellOf(row.action)},${cellOf(collectionLabel(row.collection))},${csvCell(row.document ?? '')},${csvCell(row.description ?? '')}\n`;
          }
          // The generators that made this batch keep their array while the client takes the
          // text: emptied, its rows are garbage before they can outlive a young-generation GC
          // (promoted, they would swell the old generation and the resident memory).
          rows.length = 0;
          if (out.length >= EXPORT_CHUNK) {
            yield out;
            out = '';
          }
        }
        if (out) yield out;
      } catch (err) {
        ctx.log.error({ err }, 'history export failed');
        throw err;
      }
    }
    return Readable.from(chunks(), { objectMode: false, highWaterMark: EXPORT_CHUNK });
  };
}
