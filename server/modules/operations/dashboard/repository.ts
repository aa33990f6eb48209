import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../db/types.js';
import { COLLECTION_NAMES, COLLECTIONS, type CollectionEntry, type DashboardCountKey } from '../../../../common/collections.js';
import { SECURITY_ACTIONS } from '../../../../common/permissions.js';

/** The collections whose creates and updates the weekly content chart counts. */
const WEEKLY = COLLECTION_NAMES.filter((name) => COLLECTIONS[name].dashboard.weekly);

export const dashboardRepository = {
  /** Each collection's live (not deleted) rows, with the values its registry entry also asks for. */
  async counts(db: Kysely<Database>): Promise<Record<DashboardCountKey, number>> {
    const counts = {} as Record<DashboardCountKey, number>;
    for (const name of COLLECTION_NAMES) {
      const { count, only }: CollectionEntry['dashboard'] = COLLECTIONS[name].dashboard;
      let query = db
        .selectFrom(name as 'accounts')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('isDeleted', '=', 0);
      for (const [column, value] of Object.entries(only ?? {})) {
        query = typeof value === 'string' ? query.where(sql.ref(column), '=', value) : query.where(sql.ref(column), 'in', value);
      }
      counts[count as DashboardCountKey] = Number((await query.executeTakeFirstOrThrow()).n);
    }
    return counts;
  },

  /** Content creates and updates since `from` (ISO), counted per UTC hour (the service makes Manila weeks). */
  contentPerHour(db: Kysely<Database>, from: string) {
    const hour = sql<string>`substr("timestamp", 1, 13)`;
    return db
      .selectFrom('audit_logs')
      .select([hour.as('hour'), 'action', (eb) => eb.fn.countAll<number>().as('n')])
      .where('timestamp', '>=', from)
      .where('action', 'in', ['CREATE', 'UPDATE'])
      .where('collection', 'in', WEEKLY)
      .groupBy([hour, 'action'])
      .execute();
  },

  /** The user's latest entries by one of the actor fields (userId, actorId, performedBy). */
  recentBy(db: Kysely<Database>, field: 'userId' | 'actorId' | 'performedBy', userId: string, limit: number, hideSecurityActions: boolean) {
    let q = db
      .selectFrom('audit_logs')
      .select(['id', 'action', 'collection', 'documentName', 'name', 'timestamp'])
      .where(field, '=', userId);
    if (hideSecurityActions) q = q.where('action', 'not in', [...SECURITY_ACTIONS]);
    return q.orderBy('timestamp', 'desc').orderBy('seq', 'desc').limit(limit).execute();
  },
};
