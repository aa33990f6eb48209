import type { Kysely } from 'kysely';
import type { Database } from '../../../db/types.js';

/** Serving reads one table besides the photos': an unsaved profile picture's owner. */
export const servingRepository = {
  async stagedAvatarOwner(db: Kysely<Database>, key: string): Promise<string | undefined> {
    const row = await db.selectFrom('staged_avatars').select('accountId').where('key', '=', key).executeTakeFirst();
    return row?.accountId;
  },
};
