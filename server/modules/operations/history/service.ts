import type { Readable } from 'node:stream';
import { dateBounds, manilaDate } from '../../../../common/history-dates.js';
import { searchTerms } from '../../../../common/history-search.js';
import { can } from '../../../../common/permissions.js';
import type { HistoryCount, HistoryDetail, HistoryFilters, HistoryListQuery, HistoryPage } from '../../../../common/schemas/history.js';
import { SYSTEM_ACTOR } from '../../../platform/writes/audit.js';
import type { AppContext, AuthContext } from '../../../platform/http/context.js';
import { fail } from '../../../platform/http/errors.js';
import { createHistoryCounter } from './counts.js';
import type { Criteria } from './criteria.js';
import { createCsvExport } from './csv-export.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { actorOf, namesFor, presentDetail, presentEntry } from './presenter.js';
import { historyRepository as repo } from './repository.js';
import { versionsRecords } from '../../publishing/versions/index.js';
import { createSearchPlanner } from './search-planner.js';

export function createHistoryService(ctx: AppContext) {
  const { db } = ctx;
  const planner = createSearchPlanner(db);
  const count = createHistoryCounter(db, planner);
  const exportCsv = createCsvExport(ctx, planner);

  /** The filters plus the role's scope (docs/PRODUCT.md section 6), enforced here for every use. */
  function criteriaFor(auth: AuthContext, filters: HistoryFilters, now = Date.now()): Criteria {
    const all = can(auth.role, 'history.viewAll');
    return {
      bounds: dateBounds(filters.range, filters.from, filters.to, now),
      action: filters.action,
      collection: filters.collection,
      user: filters.user,
      terms: searchTerms(filters.q ?? ''),
      ownerId: all ? undefined : auth.user.id,
      hideSecurityActions: !can(auth.role, 'history.viewSecurityActions'),
    };
  }

  return {
    criteriaFor,

    async page(auth: AuthContext, query: HistoryListQuery): Promise<HistoryPage> {
      const cursor = decodeCursor(query.cursor);
      const c = await planner.prepare(criteriaFor(auth, query));
      const rows = await planner.rowsFor(c, cursor, query.limit + 1);
      const pageRows = rows.slice(0, query.limit);
      const names = await namesFor(db, pageRows.filter((r) => !r.userName).map(actorOf));
      const last = pageRows[pageRows.length - 1];
      return {
        items: pageRows.map((r) => presentEntry(r, names)),
        nextCursor: rows.length > query.limit && last ? encodeCursor({ timestamp: last.timestamp, seq: last.seq }) : null,
      };
    },

    /** Exact up to the cap (10,000 matches); an estimate beyond it. */
    async count(auth: AuthContext, filters: HistoryFilters): Promise<HistoryCount> {
      return count(await planner.prepare(criteriaFor(auth, filters)));
    },

    async detail(auth: AuthContext, id: string): Promise<HistoryDetail> {
      const scope = criteriaFor(auth, { range: 'all' });
      const row = await repo.findById(db, id, scope);
      if (!row) fail('NOT_FOUND');
      const [made] = await versionsRecords.byAuditIds(db, [row.id]);
      const version = made ? { collection: made.collection, documentId: made.documentId, number: Number(made.number) } : null;
      return { ...presentDetail(row, await namesFor(db, [actorOf(row)])), version };
    },

    async users(): Promise<Array<{ id: string; name: string }>> {
      const rows = await repo.listAccounts(db);
      return [
        ...rows.map((r) => ({ id: r.id, name: r.isDeleted ? `${r.fullname} (deleted)` : r.fullname })),
        { id: SYSTEM_ACTOR.id, name: SYSTEM_ACTOR.fullname },
      ];
    },

    /** The CSV file name of docs/PRODUCT.md section 7, dated in Manila. */
    exportFileName(now = Date.now()): string {
      return `history-logs-${manilaDate(now)}.csv`;
    },

    /** The CSV of the current filters, streamed (csv-export.ts). */
    exportCsv(auth: AuthContext, filters: HistoryFilters): Readable {
      return exportCsv(criteriaFor(auth, filters));
    },
  };
}
