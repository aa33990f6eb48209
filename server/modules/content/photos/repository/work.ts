import { expressionBuilder, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../../../db/types.js';
import { lease } from '../../../../platform/background/lease.js';
import type { Fingerprint } from '../pixels/fingerprint.js';
import { photosWritten, type PhotoRow } from './life.js';

type Db = Kysely<Database> | Transaction<Database>;

/** How long a claim on a photo lasts: far longer than one photo takes, short enough to recover. */
const CLAIM_LEASE_MS = 5 * 60 * 1000;
const variantLease = lease({
  table: 'catalog_images',
  key: 'id',
  holder: 'claimedBy',
  time: 'claimedUntil',
  timeIs: 'until',
  ttlMs: CLAIM_LEASE_MS,
});
const pending = expressionBuilder<Database, 'catalog_images'>()('status', '=', 'pending');

/** The background work on photos: the variant queue's claims, and the resumable passes over stored photos. */
export const photoWork = {
  /** Pending photos no instance holds a live claim on, oldest first. */
  pendingIds(db: Db, now = Date.now(), limit = 1000): Promise<Array<{ id: string }>> {
    return db
      .selectFrom('catalog_images')
      .select('id')
      .where('status', '=', 'pending')
      .where(variantLease.free(now))
      .orderBy('createdAt')
      .limit(limit)
      .execute();
  },

  /** Takes a pending photo for one instance for CLAIM_LEASE_MS; false when another holds it or it is done. */
  claim(db: Db, id: string, instance: string): Promise<boolean> {
    return variantLease.claim(db, id, instance, { where: pending });
  },

  async release(db: Db, id: string, instance: string): Promise<void> {
    await variantLease.release(db, id, instance);
  },

  async markReady(
    db: Db,
    id: string,
    values: { displayKey: string; thumbKey: string; width: number; height: number } & Fingerprint,
  ): Promise<PhotoRow | undefined> {
    await db
      .updateTable('catalog_images')
      .set({ ...values, status: 'ready' })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .execute();
    await photosWritten(db);
    return db.selectFrom('catalog_images').selectAll().where('id', '=', id).executeTakeFirst();
  },

  async markFailed(db: Db, id: string): Promise<void> {
    await db.updateTable('catalog_images').set({ status: 'failed' }).where('id', '=', id).where('status', '=', 'pending').execute();
  },

  /** How many stored photos still may hold location metadata. */
  async countUncleaned(db: Db): Promise<number> {
    const row = await db
      .selectFrom('catalog_images')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('locationCleaned', '=', 0)
      .where('originalKey', 'is not', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  /** The next stored photos that may hold location metadata, in id order after `afterId`. */
  uncleaned(db: Db, afterId: string, limit: number) {
    return db
      .selectFrom('catalog_images')
      .select(['id', 'originalKey'])
      .where('locationCleaned', '=', 0)
      .where('originalKey', 'is not', null)
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
  },

  /** Records a photo's cleaned original: its new hash and size, the facts it kept. */
  async markCleaned(
    db: Db,
    id: string,
    fields: { sha256: string; sizeBytes: number; takenAt: string | null; cameraMake: string | null; cameraModel: string | null },
  ): Promise<void> {
    await db
      .updateTable('catalog_images')
      .set({ ...fields, locationCleaned: 1 })
      .where('id', '=', id)
      .execute();
    await photosWritten(db);
  },

  async countUnfingerprinted(db: Db): Promise<number> {
    const row = await db
      .selectFrom('catalog_images')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('phash', 'is', null)
      .where('originalKey', 'is not', null)
      .where('status', '!=', 'failed')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  /** The next stored photos without a fingerprint, in id order after `afterId`. */
  unfingerprinted(db: Db, afterId: string, limit: number) {
    return db
      .selectFrom('catalog_images')
      .select(['id', 'originalKey'])
      .where('phash', 'is', null)
      .where('originalKey', 'is not', null)
      .where('status', '!=', 'failed')
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
  },

  async setFingerprint(db: Db, id: string, values: Fingerprint): Promise<void> {
    await db.updateTable('catalog_images').set(values).where('id', '=', id).execute();
    await photosWritten(db);
  },
};
