import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../../db/types.js';

export const datasetRepository = {
  /** Live diseases (training classes included), oldest first. */
  diseases(db: Kysely<Database>) {
    return db
      .selectFrom('rice_local_diseases')
      .select(['id', 'name'])
      .where('isDeleted', '=', 0)
      .orderBy('createdAt')
      .orderBy('id')
      .execute();
  },

  liveDisease(db: Kysely<Database>, id: string) {
    return db
      .selectFrom('rice_local_diseases')
      .select(['id', 'name', 'version'])
      .where('id', '=', id)
      .where('isDeleted', '=', 0)
      .executeTakeFirst();
  },

  /** The disease's photos changed: its main image follows the first photo, and its version moves on (an open edit form then sees a newer one). */
  async touchDisease(
    db: Transaction<Database>,
    diseaseId: string,
    values: { mainImageUrl: string | null; updatedAt: string },
  ): Promise<void> {
    await db
      .updateTable('rice_local_diseases')
      .set((eb) => ({ ...values, version: eb('version', '+', 1) }))
      .where('id', '=', diseaseId)
      .execute();
  },
};
