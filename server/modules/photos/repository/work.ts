import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../../db/types.js';
import type { Fingerprint } from '../pixels/fingerprint.js';
import type { PhotoRow } from './life.js';

type Db = Kysely<Database> | Transaction<Database>;

/** The background work on photos: the variant queue's claims, and the resumable passes over stored photos. */
export const photoWork = {
  /** Pending photos no instance holds a live claim on, oldest first. */
  pendingIds(db: Db, now: string, limit = 1000): Promise<Array<{ id: string }>> {
    return db.selectFrom('catalog_images').select('id').where('status', '=', 'pending')
      .where((eb) => eb.or([eb('claimedUntil', 'is', null), eb('claimedUntil', '<', now)]))
      .orderBy('createdAt').limit(limit).execute();
  },

  /** Takes a pending photo for one instance until `until`; false when another holds it or it is done. */
  async claim(db: Db, id: string, instance: string, now: string, until: string): Promise<boolean> {
    const result = await db.updateTable('catalog_images').set({ claimedBy: instance, claimedUntil: until })
      .where('id', '=', id).where('status', '=', 'pending')
      .where((eb) => eb.or([eb('claimedUntil', 'is', null), eb('claimedUntil', '<', now), eb('claimedBy', '=', instance)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  async release(db: Db, id: string, instance: string): Promise<void> {
    await db.updateTable('catalog_images').set({ claimedBy: null, claimedUntil: null }).where('id', '=', id).where('claimedBy', '=', instance).execute();
  },

  async markReady(db: Db, id: string, values: { displayKey: string; thumbKey: string; width: number; height: number } & Fingerprint): Promise<PhotoRow | undefined> {
    await db.updateTable('catalog_images').set({ ...values, status: 'ready' }).where('id', '=', id).where('status', '=', 'pending').execute();
    return db.selectFrom('catalog_images').selectAll().where('id', '=', id).executeTakeFirst();
  },

  async markFailed(db: Db, id: string): Promise<void> {
    await db.updateTable('catalog_images').set({ status: 'failed' }).where('id', '=', id).where('status', '=', 'pending').execute();
  },

  /** How many stored photos still may hold location metadata. */
  async countUncleaned(db: Db): Promise<number> {
    const row = await db.selectFrom('catalog_images').select((eb) => eb.fn.countAll<number>().as('n'))
      .where('locationCleaned', '=', 0).where('originalKey', 'is not', null).executeTakeFirstOrThrow();
    return Number(row.n);
  },

  /** The next stored photos that may hold location metadata, in id order after `afterId`. */
  uncleaned(db: Db, afterId: string, limit: number) {
    return db.selectFrom('catalog_images').select(['id', 'originalKey'])
      .where('locationCleaned', '=', 0).where('originalKey', 'is not', null).where('id', '>', afterId)
      .orderBy('id').limit(limit).execute();
  },

  /** Records a photo's cleaned original: its new hash and size, the facts it kept. */
  async markCleaned(db: Db, id: string, fields: { sha256: string; sizeBytes: number; takenAt: string | null; cameraMake: string | null; cameraModel: string | null }): Promise<void> {
    await db.updateTable('catalog_images').set({ ...fields, locationCleaned: 1 }).where('id', '=', id).execute();
  },

  async countUnfingerprinted(db: Db): Promise<number> {
    const row = await db.selectFrom('catalog_images').select((eb) => eb.fn.countAll<number>().as('n'))
      .where('phash', 'is', null).where('originalKey', 'is not', null).where('status', '!=', 'failed').executeTakeFirstOrThrow();
    return Number(row.n);
  },

  /** The next stored photos without a fingerprint, in id order after `afterId`. */
  unfingerprinted(db: Db, afterId: string, limit: number) {
    return db.selectFrom('catalog_images').select(['id', 'originalKey'])
      .where('phash', 'is', null).where('originalKey', 'is not', null).where('status', '!=', 'failed').where('id', '>', afterId)
      .orderBy('id').limit(limit).execute();
  },

  async setFingerprint(db: Db, id: string, values: Fingerprint): Promise<void> {
    await db.updateTable('catalog_images').set(values).where('id', '=', id).execute();
  },
};
