import { sql, type Insertable, type Kysely, type Selectable, type Transaction } from 'kysely';
import { OPEN_REVIEW_STATES, type ReviewState } from '../../../../common/review.js';
import { chunks, isPostgres } from '../../../db/dialect.js';
import type { Database } from '../../../db/types.js';
import type { PendingChangesTable } from '../../../db/types/review.js';

/** The transaction lock a collection's review setting is read and changed under (PostgreSQL). */
const settingLock = (collection: string) => `review_settings:${collection}`;

type Db = Kysely<Database> | Transaction<Database>;
export type ChangeRow = Selectable<PendingChangesTable>;

/** The queue's order: oldest submission first, then id; a cursor is the last row's pair. */
export interface ListFilter {
  states: readonly string[] | null;
  collection?: string | undefined;
  recordId?: string | undefined;
  authorId?: string | undefined;
  after?: { submittedAt: string; id: string } | undefined;
  limit: number;
}

/** The review module's queries: settings, pending changes and the photos they hold. */
export const reviewRepository = {
  settings: (db: Db) =>
    db
      .selectFrom('review_settings as s')
      .leftJoin('accounts as a', 'a.id', 's.updatedBy')
      .select(['s.collection', 's.enabled', 's.updatedAt', 'a.fullname as updatedByName'])
      .execute(),

  async isEnabled(db: Db, collection: string): Promise<boolean> {
    const row = await db.selectFrom('review_settings').select('enabled').where('collection', '=', collection).executeTakeFirst();
    return Number(row?.enabled ?? 0) === 1;
  },

  /**
   * isEnabled inside a transaction, with the setting held until it commits: on PostgreSQL a
   * shared transaction lock on the collection's setting (setEnabled takes it exclusively), which
   * holds even before the setting's first row exists; SQLite's write transactions take turns.
   */
  async isEnabledHeld(trx: Transaction<Database>, collection: string): Promise<boolean> {
    if (isPostgres(trx)) await sql`select pg_advisory_xact_lock_shared(hashtext(${settingLock(collection)}))`.execute(trx);
    return reviewRepository.isEnabled(trx, collection);
  },

  async setEnabled(trx: Db, collection: string, enabled: boolean, by: string, now: string): Promise<boolean> {
    if (isPostgres(trx)) await sql`select pg_advisory_xact_lock(hashtext(${settingLock(collection)}))`.execute(trx);
    const before = await reviewRepository.isEnabled(trx, collection);
    await trx
      .insertInto('review_settings')
      .values({ collection, enabled: enabled ? 1 : 0, updatedAt: now, updatedBy: by })
      .onConflict((oc) => oc.column('collection').doUpdateSet({ enabled: enabled ? 1 : 0, updatedAt: now, updatedBy: by }))
      .execute();
    return before;
  },

  nameRecord: (db: Db, id: string, recordId: string) =>
    db.updateTable('pending_changes').set({ recordId }).where('id', '=', id).where('recordId', 'is', null).execute(),

  /** Open changes among these records (an import would update them). */
  openAmong: async (db: Db, collection: string, recordIds: readonly string[]) => {
    const out: ChangeRow[] = [];
    for (const part of chunks([...new Set(recordIds)])) {
      out.push(
        ...(await db
          .selectFrom('pending_changes')
          .selectAll()
          .where('collection', '=', collection)
          .where('recordId', 'in', part)
          .where('state', 'in', OPEN_REVIEW_STATES)
          .execute()),
      );
    }
    return out;
  },

  insert: (trx: Db, row: Insertable<PendingChangesTable>) => trx.insertInto('pending_changes').values(row).execute(),

  find: (db: Db, id: string) => db.selectFrom('pending_changes').selectAll().where('id', '=', id).executeTakeFirst(),

  /** The open change of a record, if any (at most one: a second is refused or replaces the author's own). */
  openOfRecord: (db: Db, collection: string, recordId: string) =>
    db
      .selectFrom('pending_changes')
      .selectAll()
      .where('collection', '=', collection)
      .where('recordId', '=', recordId)
      .where('state', 'in', OPEN_REVIEW_STATES)
      .orderBy('submittedAt', 'desc')
      .executeTakeFirst(),

  /**
   * Moves a change from the state and version its caller read to a new state (one statement:
   * of several at once, one moves it). Returns whether it moved.
   */
  async transition(
    trx: Db,
    id: string,
    from: { states: readonly ReviewState[]; version?: number },
    set: Partial<PendingChangesTable>,
  ): Promise<boolean> {
    // PostgreSQL: a change another transaction is moving (a publish saving 2,000 photos) is not
    // waited for: this one has lost already, and holds no connection while the winner works.
    if (isPostgres(trx as Kysely<Database>)) {
      try {
        await trx.selectFrom('pending_changes').select('id').where('id', '=', id).forUpdate().noWait().execute();
      } catch (err) {
        if ((err as { code?: string }).code === '55P03') return false;
        throw err;
      }
    }
    let q = trx
      .updateTable('pending_changes')
      .set((eb) => ({ ...set, version: eb('version', '+', 1) }))
      .where('id', '=', id)
      .where('state', 'in', from.states);
    if (from.version !== undefined) q = q.where('version', '=', from.version);
    const result = await q.executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  list(db: Db, f: ListFilter) {
    let q = db.selectFrom('pending_changes').selectAll();
    if (f.states) q = q.where('state', 'in', f.states);
    if (f.collection) q = q.where('collection', '=', f.collection);
    if (f.recordId) q = q.where('recordId', '=', f.recordId);
    if (f.authorId) q = q.where('authorId', '=', f.authorId);
    if (f.after) {
      const { submittedAt, id } = f.after;
      q = q.where((eb) => eb.or([eb('submittedAt', '>', submittedAt), eb.and([eb('submittedAt', '=', submittedAt), eb('id', '>', id)])]));
    }
    return q.orderBy('submittedAt').orderBy('id').limit(f.limit).execute();
  },

  async count(db: Db, f: Omit<ListFilter, 'after' | 'limit'> & { notAuthorId?: string }): Promise<number> {
    let q = db.selectFrom('pending_changes').select((eb) => eb.fn.countAll<number>().as('n'));
    if (f.states) q = q.where('state', 'in', f.states);
    if (f.collection) q = q.where('collection', '=', f.collection);
    if (f.recordId) q = q.where('recordId', '=', f.recordId);
    if (f.authorId) q = q.where('authorId', '=', f.authorId);
    if (f.notAuthorId) q = q.where('authorId', '!=', f.notAuthorId);
    return Number((await q.executeTakeFirstOrThrow()).n);
  },

  /**
   * The first pending change in the queue's order after `after` (from the start without it) that
   * the account did not send; `except` is skipped, and so are the actions listed.
   */
  nextPending: (
    db: Db,
    f: { after?: { submittedAt: string; id: string } | undefined; notAuthorId: string; except: string; skipActions: readonly string[] },
  ) => {
    let q = db
      .selectFrom('pending_changes')
      .select(['id', 'recordName'])
      .where('state', '=', 'pending')
      .where('authorId', '!=', f.notAuthorId)
      .where('id', '!=', f.except);
    if (f.skipActions.length > 0) q = q.where('action', 'not in', f.skipActions);
    if (f.after) {
      const { submittedAt, id } = f.after;
      q = q.where((eb) => eb.or([eb('submittedAt', '>', submittedAt), eb.and([eb('submittedAt', '=', submittedAt), eb('id', '>', id)])]));
    }
    return q.orderBy('submittedAt').orderBy('id').limit(1).executeTakeFirst();
  },

  /** Approved changes whose scheduled time has come, oldest first. */
  due: (db: Db, now: string, limit: number) =>
    db
      .selectFrom('pending_changes')
      .selectAll()
      .where('state', '=', 'approved')
      .where('scheduledAt', 'is not', null)
      .where('scheduledAt', '<=', now)
      .orderBy('scheduledAt')
      .limit(limit)
      .execute(),

  async accountNames(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const part of chunks([...new Set(ids)])) {
      const rows = await db.selectFrom('accounts').select(['id', 'fullname']).where('id', 'in', part).execute();
      for (const r of rows) out.set(r.id, r.fullname);
    }
    return out;
  },

  /** Who is told of a new change: active accounts of the given roles with an email, but its author. */
  reviewers: (db: Db, roles: readonly string[], except: string) =>
    db
      .selectFrom('accounts')
      .select(['id', 'email', 'fullname'])
      .where('role', 'in', roles)
      .where('id', '!=', except)
      .where('isDeleted', '=', 0)
      .where('status', 'in', ['active', 'true'])
      .where('email', 'is not', null)
      .execute(),

  author: (db: Db, id: string) =>
    db.selectFrom('accounts').select(['email', 'fullname', 'role', 'isDeleted', 'isRestricted']).where('id', '=', id).executeTakeFirst(),

  accountEmail: (db: Db, id: string) => db.selectFrom('accounts').select(['email', 'fullname']).where('id', '=', id).executeTakeFirst(),

  async hold(trx: Db, changeId: string, imageIds: readonly string[]): Promise<void> {
    await trx.deleteFrom('review_photo_holds').where('changeId', '=', changeId).execute();
    for (const part of chunks([...new Set(imageIds)])) {
      await trx
        .insertInto('review_photo_holds')
        .values(part.map((imageId) => ({ changeId, imageId })))
        .execute();
    }
  },

  release: (trx: Db, changeId: string) => trx.deleteFrom('review_photo_holds').where('changeId', '=', changeId).execute(),
};
