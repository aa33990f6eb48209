import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../../db/types.js';

type Db = Kysely<Database> | Transaction<Database>;

export const draftsRepository = {
  find(db: Db, accountId: string, collection: string) {
    return db
      .selectFrom('catalog_drafts')
      .selectAll()
      .where('accountId', '=', accountId)
      .where('collection', '=', collection)
      .executeTakeFirst();
  },

  /** The draft's photos in order, each with the staged photo it names once uploaded. */
  photos(db: Db, accountId: string, collection: string) {
    return db
      .selectFrom('catalog_draft_photos as p')
      .select(['p.position', 'p.name', 'p.size', 'p.lastModified', 'p.imageId'])
      .where('p.accountId', '=', accountId)
      .where('p.collection', '=', collection)
      .orderBy('p.position')
      .execute();
  },

  async save(
    trx: Transaction<Database>,
    draft: { accountId: string; collection: string; fields: string; updatedAt: string },
    photos: Array<{ imageId: string | null; name: string; size: number; lastModified: number }>,
  ): Promise<void> {
    const { accountId, collection } = draft;
    await trx
      .insertInto('catalog_drafts')
      .values(draft)
      .onConflict((oc) => oc.columns(['accountId', 'collection']).doUpdateSet({ fields: draft.fields, updatedAt: draft.updatedAt }))
      .execute();
    await trx.deleteFrom('catalog_draft_photos').where('accountId', '=', accountId).where('collection', '=', collection).execute();
    for (let i = 0; i < photos.length; i += 200) {
      await trx
        .insertInto('catalog_draft_photos')
        .values(photos.slice(i, i + 200).map((p, k) => ({ accountId, collection, position: i + k, ...p })))
        .execute();
    }
  },

  async remove(db: Db, accountId: string, collection: string): Promise<void> {
    await db.deleteFrom('catalog_draft_photos').where('accountId', '=', accountId).where('collection', '=', collection).execute();
    await db.deleteFrom('catalog_drafts').where('accountId', '=', accountId).where('collection', '=', collection).execute();
  },

  /** Drafts last changed before `before`, with their photo lists, in the caller's transaction; returns how many. */
  async removeOlderThan(trx: Transaction<Database>, before: string): Promise<number> {
    const old = await trx.selectFrom('catalog_drafts').select(['accountId', 'collection']).where('updatedAt', '<', before).execute();
    for (const d of old) await draftsRepository.remove(trx, d.accountId, d.collection);
    return old.length;
  },
};
