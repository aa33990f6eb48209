import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../../db/types.js';
import type { EvaluationSetPhotosTable, EvaluationSetsTable } from '../../../db/types/models.js';

type Db = Kysely<Database> | Transaction<Database>;

/** Rows written at once (SQLite takes at most 32,766 bound values a statement). */
const INSERT_BATCH = 500;

/** Queries of the evaluation sets and their photos. */
export const evaluationSetsRepository = {
  list(db: Db) {
    return db.selectFrom('evaluation_sets').selectAll().orderBy('createdAt', 'desc').orderBy('id', 'desc').execute();
  },

  find(db: Db, id: string) {
    return db.selectFrom('evaluation_sets').selectAll().where('id', '=', id).executeTakeFirst();
  },

  async nameTaken(db: Db, name: string): Promise<boolean> {
    return (await db.selectFrom('evaluation_sets').select('id').where('name', '=', name).executeTakeFirst()) !== undefined;
  },

  async insert(db: Db, set: EvaluationSetsTable, photos: EvaluationSetPhotosTable[]): Promise<void> {
    await db.insertInto('evaluation_sets').values(set).execute();
    for (let i = 0; i < photos.length; i += INSERT_BATCH)
      await db
        .insertInto('evaluation_set_photos')
        .values(photos.slice(i, i + INSERT_BATCH))
        .execute();
  },

  /** A set's photos in their ZIP's order. */
  photos(db: Db, setId: string) {
    return db
      .selectFrom('evaluation_set_photos')
      .select(['id', 'recordId', 'label', 'fileName', 'originalKey', 'thumbKey'])
      .where('setId', '=', setId)
      .orderBy('position')
      .execute();
  },

  photosByIds(db: Db, ids: readonly string[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('evaluation_set_photos')
      .select(['id', 'setId', 'fileName', 'originalKey', 'thumbKey'])
      .where('id', 'in', [...ids])
      .execute();
  },

  async remove(db: Db, id: string): Promise<void> {
    await db.deleteFrom('evaluation_set_photos').where('setId', '=', id).execute();
    await db.deleteFrom('evaluation_sets').where('id', '=', id).execute();
  },

  /** Whether an evaluation on the set is queued or running. */
  async inUse(db: Db, id: string): Promise<boolean> {
    const row = await db
      .selectFrom('model_evaluations')
      .select('id')
      .where('evaluationSetId', '=', id)
      .where('state', 'in', ['queued', 'running'])
      .executeTakeFirst();
    return row !== undefined;
  },

  recordNames(db: Db, ids: readonly string[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('rice_local_diseases')
      .select(['id', 'name'])
      .where('id', 'in', [...ids])
      .execute();
  },
};
