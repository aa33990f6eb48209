import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../db/types.js';

export const healthRepository = {
  /** The cheapest statement the database must answer: the readiness check's. */
  async ping(db: Kysely<Database>): Promise<void> {
    await sql`select 1`.execute(db);
  },
};
