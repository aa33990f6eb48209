import type { Kysely, Transaction } from 'kysely';
import { allColumns, fixedQuery } from '../../db/dialect.js';
import type { Database } from '../../db/types.js';
import type { AccountsTable } from '../../db/types/accounts.js';
import { nowIso, newId } from '../support/clock.js';
import type { EventBus } from '../writes/events.js';
import { randomToken, sha256 } from './passwords.js';
import type { AccountRow } from './session-user.js';

export const SESSION_COOKIE = 'palayan_session';

type Db = Kysely<Database> | Transaction<Database>;

export type EndReason =
  'logout' | 'replaced' | 'inactivity' | 'expired' | 'restricted' | 'deleted' | 'role_changed' | 'password_changed' | 'signed_out';

/** The session rules of the configuration. */
export interface SessionRules {
  sessionIdleTimeoutMs: number;
  sessionMaxAgeMs: number;
  maxSessionsPerAccount: number;
}

export interface ResolvedSession {
  sessionId: string;
  account: AccountRow;
  createdAt: string;
  lastSeenAt: string;
  reauthAt: string | null;
}

/** Opens a session: a random 256-bit token for the cookie; only its hash is stored. */
export async function openSession(
  trx: Transaction<Database>,
  accountId: string,
  meta: { ip?: string; userAgent?: string },
): Promise<{ sessionId: string; token: string }> {
  const token = randomToken(32);
  const sessionId = newId();
  const now = nowIso();
  await trx
    .insertInto('sessions')
    .values({
      id: sessionId,
      accountId,
      tokenHash: sha256(token),
      createdAt: now,
      lastSeenAt: now,
      endedAt: null,
      endedReason: null,
      ip: meta.ip ?? null,
      userAgent: meta.userAgent?.slice(0, 300) ?? null,
    })
    .execute();
  return { sessionId, token };
}

type SessionAccountRow = AccountRow & {
  sessionId: string;
  sessionCreatedAt: string;
  sessionReauthAt: string | null;
  sessionLastSeenAt: string;
  sessionEndedAt: string | null;
};

/** The account's columns, named: a prepared statement's `a.*` fails once a migration adds one. */
export const ACCOUNT_COLUMNS = allColumns<AccountsTable>()([
  'id',
  'fullname',
  'username',
  'normalizedUsername',
  'email',
  'normalizedEmail',
  'contactNo',
  'photoURL',
  'password',
  'securityQuestion',
  'securityAnswer',
  'role',
  'status',
  'isRestricted',
  'restrictedAt',
  'autoInactive',
  'autoInactiveAt',
  'currentSession',
  'lastLogin',
  'lastLogoutAt',
  'createdAt',
  'updatedAt',
  'isDeleted',
  'deletedAt',
  'deletedBy',
  'version',
]);

/** Every request with a session runs this: written once and, on PostgreSQL, prepared (planned once per connection). */
const sessionByTokenHash = fixedQuery<SessionAccountRow>(
  `select ${ACCOUNT_COLUMNS.map((c) => `a."${c}"`).join(', ')},
    s.id as "sessionId", s."createdAt" as "sessionCreatedAt", s."reauthAt" as "sessionReauthAt", s."lastSeenAt" as "sessionLastSeenAt",
    s."endedAt" as "sessionEndedAt"
  from sessions s inner join accounts a on a.id = s."accountId" where s."tokenHash" = ?`,
  { prepared: true },
);

/** Why the cookie's session ended (null when it is unknown or not ended): a tab told by its next request says so. */
export async function endedReasonOf(db: Db, token: string): Promise<string | null> {
  const row = await db.selectFrom('sessions').select(['endedAt', 'endedReason']).where('tokenHash', '=', sha256(token)).executeTakeFirst();
  return row?.endedAt ? row.endedReason : null;
}

/** Looks the cookie's token up; undefined when unknown or already ended. */
export async function findSessionByToken(db: Db, token: string): Promise<ResolvedSession | undefined> {
  const [row] = await sessionByTokenHash(db, [sha256(token)]);
  if (!row || row.sessionEndedAt) return undefined;
  const { sessionId, sessionCreatedAt, sessionReauthAt, sessionLastSeenAt, sessionEndedAt: _ended, ...account } = row;
  return {
    sessionId,
    account: account as AccountRow,
    createdAt: sessionCreatedAt,
    lastSeenAt: sessionLastSeenAt,
    reauthAt: sessionReauthAt,
  };
}

/**
 * docs/PRODUCT.md section 4: valid only while the account is active and, with one session per account
 * (the default), while it is the account's current session (so of two logins racing, one wins).
 * With MAX_SESSIONS_PER_ACCOUNT above 1, every session not ended is valid. Any session ends
 * after SESSION_MAX_AGE_HOURS, in use or not ('expired'), so a stolen cookie does not last.
 */
export function isSessionValid(s: ResolvedSession, rules: SessionRules, now = Date.now()): 'ok' | 'ended' | 'inactivity' | 'expired' {
  const a = s.account;
  if (a.isDeleted || a.isRestricted || a.status !== 'active') return 'ended';
  if (rules.maxSessionsPerAccount <= 1 && a.currentSession !== s.sessionId) return 'ended';
  if (now - Date.parse(s.createdAt) > rules.sessionMaxAgeMs) return 'expired';
  if (now - Date.parse(s.lastSeenAt) > rules.sessionIdleTimeoutMs) return 'inactivity';
  return 'ok';
}

/** Ends one open session; clears currentSession when it was that one. False when it was not open. */
export async function endSession(trx: Db, sessionId: string, reason: EndReason): Promise<boolean> {
  const result = await trx
    .updateTable('sessions')
    .set({ endedAt: nowIso(), endedReason: reason })
    .where('id', '=', sessionId)
    .where('endedAt', 'is', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return false;
  await trx.updateTable('accounts').set({ currentSession: null }).where('currentSession', '=', sessionId).execute();
  return true;
}

export interface OpenSession {
  id: string;
  accountId: string;
  createdAt: string;
  lastSeenAt: string;
  ip: string | null;
  userAgent: string | null;
}

/** The account's sessions not ended and active within the idle timeout, most recently active first. */
export function openSessionsOf(db: Db, accountId: string, idleTimeoutMs: number, now = Date.now()): Promise<OpenSession[]> {
  return db
    .selectFrom('sessions')
    .select(['id', 'accountId', 'createdAt', 'lastSeenAt', 'ip', 'userAgent'])
    .where('accountId', '=', accountId)
    .where('endedAt', 'is', null)
    .where('lastSeenAt', '>', new Date(now - idleTimeoutMs).toISOString())
    .orderBy('lastSeenAt', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/**
 * Before a login opens a session: ends the account's idle sessions, then the least recently
 * active ones beyond MAX_SESSIONS_PER_ACCOUNT - 1 (with the default of 1: every open one).
 */
export async function makeRoomForSession(trx: Db, accountId: string, rules: SessionRules): Promise<{ replaced: string[]; idle: string[] }> {
  const open = await trx
    .selectFrom('sessions')
    .select(['id', 'lastSeenAt'])
    .where('accountId', '=', accountId)
    .where('endedAt', 'is', null)
    .orderBy('lastSeenAt', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const cutoff = Date.now() - rules.sessionIdleTimeoutMs;
  const idle = open.filter((s) => Date.parse(s.lastSeenAt) <= cutoff).map((s) => s.id);
  const active = open.filter((s) => Date.parse(s.lastSeenAt) > cutoff).map((s) => s.id);
  const replaced = active.slice(Math.max(0, rules.maxSessionsPerAccount - 1));
  const at = nowIso();
  if (idle.length > 0) await trx.updateTable('sessions').set({ endedAt: at, endedReason: 'inactivity' }).where('id', 'in', idle).execute();
  if (replaced.length > 0)
    await trx.updateTable('sessions').set({ endedAt: at, endedReason: 'replaced' }).where('id', 'in', replaced).execute();
  return { replaced, idle };
}

export async function touchSession(db: Db, sessionId: string): Promise<void> {
  await db.updateTable('sessions').set({ lastSeenAt: nowIso() }).where('id', '=', sessionId).execute();
}

/**
 * Ends every open session of an account inside the caller's transaction and clears
 * currentSession. Returns the ended session ids so the caller can push them after commit.
 */
export async function endAccountSessions(trx: Db, accountId: string, reason: EndReason, exceptSessionId?: string): Promise<string[]> {
  let q = trx.selectFrom('sessions').select('id').where('accountId', '=', accountId).where('endedAt', 'is', null);
  if (exceptSessionId) q = q.where('id', '!=', exceptSessionId);
  const ids = (await q.execute()).map((r) => r.id);
  if (ids.length === 0) return [];
  await trx.updateTable('sessions').set({ endedAt: nowIso(), endedReason: reason }).where('id', 'in', ids).execute();
  if (!exceptSessionId) {
    await trx
      .updateTable('accounts')
      .set({ currentSession: null })
      .where('id', '=', accountId)
      .where('currentSession', 'in', ids)
      .execute();
  }
  return ids;
}

/** Tells open tabs of those sessions, over the live stream, that they have ended. */
export function announceEnded(events: EventBus, accountId: string, sessionIds: string[], reason: EndReason): void {
  for (const id of sessionIds) events.publish({ topic: 'session', id, op: 'ended', accountId, reason });
}

/** Records that the session's user just confirmed their password (and code). */
export async function markReauthenticated(db: Db, sessionId: string, at: string): Promise<void> {
  await db.updateTable('sessions').set({ reauthAt: at }).where('id', '=', sessionId).execute();
}
