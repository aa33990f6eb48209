import type { Kysely } from 'kysely';
import type { Database } from '../../../../db/types.js';

/** Serving reads two tables besides the photos': an unsaved profile picture's owner, and the photos pending changes hold. */
export const servingRepository = {
  async heldForReview(db: Kysely<Database>, imageId: string): Promise<boolean> {
    const held = await db
      .selectFrom('review_photo_holds as h')
      .innerJoin('pending_changes as c', 'c.id', 'h.changeId')
      .select('h.imageId')
      .where('h.imageId', '=', imageId)
      .where('c.state', 'in', ['pending', 'approved'])
      .executeTakeFirst();
    return held !== undefined;
  },

  async stagedAvatarOwner(db: Kysely<Database>, key: string): Promise<string | undefined> {
    const row = await db.selectFrom('staged_avatars').select('accountId').where('key', '=', key).executeTakeFirst();
    return row?.accountId;
  },
};
