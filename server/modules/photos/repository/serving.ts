import type { Kysely } from 'kysely';
import type { Database } from '../../../db/types.js';

/** Who a stored file is for: the photo that names the key, or the unsaved profile picture it is. */
export const filesRepository = {
  async photoOf(db: Kysely<Database>, key: string) {
    for (const column of ['thumbKey', 'displayKey', 'originalKey'] as const) {
      const row = await db.selectFrom('catalog_images').select(['entryId', 'retiredFrom', 'removedFrom', 'uploadedBy'])
        .where(column, '=', key).executeTakeFirst();
      if (row) return row;
    }
    return undefined;
  },

  async stagedAvatarOwner(db: Kysely<Database>, key: string): Promise<string | undefined> {
    const row = await db.selectFrom('staged_avatars').select('accountId').where('key', '=', key).executeTakeFirst();
    return row?.accountId;
  },
};
