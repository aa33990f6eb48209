import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { SECURITY_ACTIONS } from '../../../common/permissions.js';

async function countLive(db: Kysely<Database>, table: 'rice_seed_varieties' | 'rice_local_pests' | 'rice_local_diseases'): Promise<number> {
  const row = await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).where('isDeleted', '=', 0).executeTakeFirstOrThrow();
  return Number(row.n);
}

export const dashboardRepository = {
  async counts(db: Kysely<Database>) {
    const admins = await db.selectFrom('accounts').select((eb) => eb.fn.countAll<number>().as('n'))
      .where('isDeleted', '=', 0).where('status', '=', 'active').where('role', 'in', ['SYSTEM_ADMIN', 'ADMIN'])
      .executeTakeFirstOrThrow();
    return {
      varieties: await countLive(db, 'rice_seed_varieties'),
      pests: await countLive(db, 'rice_local_pests'),
      diseases: await countLive(db, 'rice_local_diseases'),
      admins: Number(admins.n),
    };
  },

  /** Content creates and updates since `from` (ISO), counted per UTC hour (the service makes Manila weeks). */
  contentPerHour(db: Kysely<Database>, from: string) {
    const hour = sql<string>`substr("timestamp", 1, 13)`;
    return db.selectFrom('audit_logs')
      .select([hour.as('hour'), 'action', (eb) => eb.fn.countAll<number>().as('n')])
      .where('timestamp', '>=', from)
      .where('action', 'in', ['CREATE', 'UPDATE'])
      .where('collection', 'in', ['rice_seed_varieties', 'rice_local_pests', 'rice_local_diseases'])
      .groupBy([hour, 'action'])
      .execute();
  },

  /** The user's latest entries by one of the actor fields (userId, actorId, performedBy). */
  recentBy(db: Kysely<Database>, field: 'userId' | 'actorId' | 'performedBy', userId: string, limit: number, hideSecurityActions: boolean) {
    let q = db.selectFrom('audit_logs')
      .select(['id', 'action', 'collection', 'documentName', 'name', 'timestamp'])
      .where(field, '=', userId);
    if (hideSecurityActions) q = q.where('action', 'not in', [...SECURITY_ACTIONS]);
    return q.orderBy('timestamp', 'desc').orderBy('seq', 'desc').limit(limit).execute();
  },
};
