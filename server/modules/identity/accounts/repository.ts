import { sql, type ExpressionBuilder, type Kysely, type Transaction, type Insertable, type Updateable } from 'kysely';
import type { Database } from '../../../db/types.js';
import type { AccountsTable } from '../../../db/types/accounts.js';
import { containsInsensitive } from '../../../db/dialect.js';
import { SIGN_IN_BUDGETS, signInLockKey } from '../../../platform/identity/throttle.js';
import type { AccountRow } from '../../../platform/identity/session-user.js';

export type { AccountRow };
export type AccountListRow = AccountRow & { hasActivities: boolean; hasSecondFactor: boolean; signInLockedUntil?: string | null };
type Db = Kysely<Database> | Transaction<Database>;

export function normalizeIdentity(value: string): string {
  return value.trim().toLowerCase();
}

/**
 * "Has activities": the account is the actor of an audit entry (userId, or the older actorId /
 * performedBy fields). Blocked-login entries (action LOGIN) record attempts made against the
 * account, not work it did, so they do not count. Each test uses its own index.
 */
function activityExists(eb: ExpressionBuilder<Database, 'accounts'>) {
  return eb.or(
    (['userId', 'actorId', 'performedBy'] as const).map((field) =>
      eb.exists(
        eb
          .selectFrom('audit_logs')
          .select('audit_logs.seq')
          .whereRef(`audit_logs.${field}`, '=', 'accounts.id')
          .where('audit_logs.action', '!=', 'LOGIN'),
      ),
    ),
  );
}

/** Two-step sign-in is on (migration 170); only the flag, never the key. */
function secondFactorExists(eb: ExpressionBuilder<Database, 'accounts'>) {
  return eb.exists(
    eb.selectFrom('second_factors').select('second_factors.accountId').whereRef('second_factors.accountId', '=', 'accounts.id'),
  );
}

/** The end of the account's sign-in lock as stored (it may have passed). */
function signInLock(eb: ExpressionBuilder<Database, 'accounts'>) {
  return eb
    .selectFrom('throttles')
    .select('throttles.lockedUntil')
    .where('throttles.key', '=', sql<string>`${`${SIGN_IN_BUDGETS.guesses}:${signInLockKey('')}`} || accounts.id`);
}

/** Live accounts of the list's search: name, email or username contain the term. */
function searched(db: Db, q: string) {
  const base = db.selectFrom('accounts').where('isDeleted', '=', 0);
  if (!q) return base;
  return base.where((eb) =>
    eb.or([
      containsInsensitive(db, eb.ref('fullname'), q),
      containsInsensitive(db, eb.ref('email'), q),
      containsInsensitive(db, eb.ref('username'), q),
    ]),
  );
}

function toListRow(row: AccountRow & { hasActivities: unknown; hasSecondFactor: unknown }): AccountListRow {
  return { ...row, hasActivities: Boolean(Number(row.hasActivities)), hasSecondFactor: Boolean(Number(row.hasSecondFactor)) };
}

export const accountsRepository = {
  findById(db: Db, id: string): Promise<AccountRow | undefined> {
    return db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
  },

  /** Not deleted, with its "has activities" flag. */
  async findLive(db: Db, id: string): Promise<AccountListRow | undefined> {
    const row = await db
      .selectFrom('accounts')
      .selectAll()
      .select((eb) => activityExists(eb).as('hasActivities'))
      .select((eb) => secondFactorExists(eb).as('hasSecondFactor'))
      .select((eb) => signInLock(eb).as('signInLockedUntil'))
      .where('id', '=', id)
      .where('isDeleted', '=', 0)
      .executeTakeFirst();
    return row ? toListRow(row) : undefined;
  },

  /** Matches the login identifier against username or email, case-insensitively. */
  findByIdentifier(db: Db, identifier: string): Promise<AccountRow | undefined> {
    const key = normalizeIdentity(identifier);
    return db
      .selectFrom('accounts')
      .selectAll()
      .where((eb) => eb.or([eb('normalizedUsername', '=', key), eb('normalizedEmail', '=', key)]))
      .orderBy('isDeleted', 'asc')
      .executeTakeFirst();
  },

  async countAll(db: Db): Promise<number> {
    const row = await db
      .selectFrom('accounts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  async insert(db: Db, values: Insertable<AccountsTable>): Promise<void> {
    await db.insertInto('accounts').values(values).execute();
  },

  async update(db: Db, id: string, values: Updateable<AccountsTable>): Promise<void> {
    await db.updateTable('accounts').set(values).where('id', '=', id).execute();
  },

  /**
   * Is the normalized username or email held by another account? Deleted accounts keep theirs
   * (the database index is unique over every row), so they count as taken too.
   */
  async isTaken(db: Db, field: 'username' | 'email', value: string, excludeId?: string): Promise<boolean> {
    const column = field === 'username' ? 'normalizedUsername' : 'normalizedEmail';
    let q = db.selectFrom('accounts').select('id').where(column, '=', normalizeIdentity(value));
    if (excludeId) q = q.where('id', '!=', excludeId);
    return (await q.limit(1).executeTakeFirst()) !== undefined;
  },

  /** One page of live accounts, newest first, searched over name, email and username. */
  async list(db: Db, options: { q: string; offset: number; limit: number }): Promise<{ rows: AccountListRow[]; total: number }> {
    const base = searched(db, options.q);
    const count = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const rows = await base
      .selectAll()
      .orderBy('createdAt', 'desc')
      .orderBy('id', 'asc')
      .offset(options.offset)
      .limit(options.limit)
      .execute();
    // The activity flag is computed for the page's rows only, not for the rows an offset skips.
    const flags =
      rows.length === 0
        ? []
        : await db
            .selectFrom('accounts')
            .select((eb) => [
              'id',
              activityExists(eb).as('hasActivities'),
              secondFactorExists(eb).as('hasSecondFactor'),
              signInLock(eb).as('signInLockedUntil'),
            ])
            .where(
              'id',
              'in',
              rows.map((r) => r.id),
            )
            .execute();
    const byId = new Map(flags.map((f) => [f.id, f]));
    return {
      rows: rows.map((r) => {
        const f = byId.get(r.id);
        return {
          ...r,
          hasActivities: Boolean(Number(f?.hasActivities)),
          hasSecondFactor: Boolean(Number(f?.hasSecondFactor)),
          signInLockedUntil: f?.signInLockedUntil ?? null,
        };
      }),
      total: Number(count.n),
    };
  },

  /** The list as searched, in its order (newest first, then id), after where the previous batch ended. */
  async exportBatch(db: Db, q: string, after: { createdAt: string; id: string } | null, limit: number): Promise<AccountListRow[]> {
    let query = searched(db, q);
    if (after)
      query = query.where((eb) =>
        eb.or([eb('createdAt', '<', after.createdAt), eb.and([eb('createdAt', '=', after.createdAt), eb('id', '>', after.id)])]),
      );
    const rows = await query
      .selectAll()
      .select((eb) => [activityExists(eb).as('hasActivities'), secondFactorExists(eb).as('hasSecondFactor')])
      .orderBy('createdAt', 'desc')
      .orderBy('id', 'asc')
      .limit(limit)
      .execute();
    return rows.map(toListRow);
  },

  async hasActivities(db: Db, id: string): Promise<boolean> {
    const row = await db
      .selectFrom('accounts')
      .select((eb) => activityExists(eb).as('has'))
      .where('id', '=', id)
      .executeTakeFirst();
    return Boolean(Number(row?.has ?? 0));
  },

  /** Live accounts as audit actors (the seed-audit command's entry authors). */
  liveActors(db: Db): Promise<Pick<AccountRow, 'id' | 'fullname' | 'email'>[]> {
    return db.selectFrom('accounts').select(['id', 'fullname', 'email']).where('isDeleted', '=', 0).execute();
  },

  /**
   * docs/PRODUCT.md section 4, auto-inactivation: a known lastLogin, not restricted, status active,
   * last login at or before the cutoff (timestamps are ISO-8601 UTC text, so text order is time order).
   */
  staleCandidates(db: Db, cutoffIso: string): Promise<Pick<AccountRow, 'id' | 'fullname' | 'lastLogin' | 'version'>[]> {
    return db
      .selectFrom('accounts')
      .select(['id', 'fullname', 'lastLogin', 'version'])
      .where('isDeleted', '=', 0)
      .where('isRestricted', '=', 0)
      .where('status', '=', 'active')
      .where('lastLogin', 'is not', null)
      .where('lastLogin', '<=', cutoffIso)
      .execute();
  },

  /** Marks one account inactive only if it is still in the state it was read in; true when it changed. */
  async markInactive(db: Db, candidate: { id: string; lastLogin: string | null }, now: string): Promise<boolean> {
    const result = await db
      .updateTable('accounts')
      .set((eb) => ({ status: 'inactive', autoInactive: 1, autoInactiveAt: now, version: eb('version', '+', 1) }))
      .where('id', '=', candidate.id)
      .where('isDeleted', '=', 0)
      .where('isRestricted', '=', 0)
      .where('status', '=', 'active')
      .where('lastLogin', '=', candidate.lastLogin)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  /** An update naming the version it edited; 0 rows when the record is gone or newer. */
  async updateVersioned(db: Db, id: string, version: number, values: Updateable<AccountsTable>): Promise<number> {
    const result = await db
      .updateTable('accounts')
      .set((eb) => ({ ...values, version: eb('version', '+', 1) }))
      .where('id', '=', id)
      .where('version', '=', version)
      .where('isDeleted', '=', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  },

  /** Restricts a live, unrestricted account; false when it is gone or already restricted. */
  async restrict(db: Db, id: string, at: string): Promise<boolean> {
    const result = await db
      .updateTable('accounts')
      .set((eb) => ({ status: 'restricted', isRestricted: 1, restrictedAt: at, updatedAt: at, version: eb('version', '+', 1) }))
      .where('id', '=', id)
      .where('isDeleted', '=', 0)
      .where('isRestricted', '=', 0)
      .where('status', '!=', 'restricted')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  /** Lifts a restriction (and an auto-inactivation) of a live account; false when it had none. */
  async unrestrict(db: Db, id: string, at: string): Promise<boolean> {
    const result = await db
      .updateTable('accounts')
      .set((eb) => ({
        status: 'active',
        isRestricted: 0,
        restrictedAt: null,
        autoInactive: 0,
        autoInactiveAt: null,
        updatedAt: at,
        version: eb('version', '+', 1),
      }))
      .where('id', '=', id)
      .where('isDeleted', '=', 0)
      .where((eb) => eb.or([eb('isRestricted', '=', 1), eb('status', '=', 'restricted')]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  /** Soft delete of a live account; false when it is already gone. */
  async softDelete(db: Db, id: string, at: string, deletedBy: string): Promise<boolean> {
    const result = await db
      .updateTable('accounts')
      .set((eb) => ({ isDeleted: 1, deletedAt: at, deletedBy, updatedAt: at, version: eb('version', '+', 1) }))
      .where('id', '=', id)
      .where('isDeleted', '=', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },
};
