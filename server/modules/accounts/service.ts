import { ACCOUNTS } from '../../../common/accounts.js';
import { LIMITS, TIMINGS } from '../../../common/limits.js';
import { normalizeRole, type Role } from '../../../common/permissions.js';
import {
  type AccountCreateInput, type AccountList, type AccountListQuery, type AccountUpdateInput, type AdminAccount, type AvailabilityQuery,
} from '../../../common/schemas/accounts.js';
import { SHELL } from '../../../common/texts.js';
import { newId, nowIso } from '../../platform/clock.js';
import type { AppContext, AuthContext } from '../../platform/context.js';
import { AppError, fail, invalid } from '../../platform/errors.js';
import { hashPassword, isHash } from '../../platform/passwords.js';
import { runCommand } from '../../platform/command.js';
import type { EndReason } from '../../platform/sessions.js';
import { assertUpdated } from '../../platform/versioning.js';
import { insertAccountWithAudit } from './create-account.js';
import { toAdminAccount } from './presenter.js';
import { accountsRepository as repo, normalizeIdentity, type AccountListRow } from './repository.js';
import { uniqueViolationField } from './unique.js';

const M = ACCOUNTS.messages;
const DAY_MS = 86_400_000;

const TAKEN_MESSAGE = { username: M.usernameTaken, email: M.emailTaken } as const;

function roleLabel(role: Role): string {
  return SHELL.roleLabel[role];
}

/** Turns a unique violation of the database into the form's field message; rethrows anything else. */
function rethrowUnique(err: unknown): never {
  const field = uniqueViolationField(err);
  if (field) fail('CONFLICT', TAKEN_MESSAGE[field], { [field]: TAKEN_MESSAGE[field] });
  throw err;
}

export function createAccountsService(ctx: AppContext) {
  const { db, log } = ctx;
  let sweeping: Promise<string[]> | null = null;

  /** The password's bcrypt hash; a failed or wrong hash fails the save (nothing stored in plain text). */
  async function securePassword(plain: string): Promise<string> {
    let hashed: string;
    try {
      hashed = await hashPassword(plain);
    } catch (err) {
      log.error({ err }, 'password hashing failed; the account was not saved');
      fail('INTERNAL', M.passwordNotSaved);
    }
    if (typeof hashed !== 'string' || !isHash(hashed)) fail('INTERNAL', M.passwordNotSaved);
    return hashed;
  }

  /** Both fields are checked so the form can show both messages at once. */
  async function assertAvailable(username: string, email: string, excludeId?: string): Promise<void> {
    const fields: Record<string, string> = {};
    if (await repo.isTaken(db, 'username', username, excludeId)) fields.username = M.usernameTaken;
    if (await repo.isTaken(db, 'email', email, excludeId)) fields.email = M.emailTaken;
    const first = Object.values(fields)[0];
    if (first) fail('CONFLICT', first, fields);
  }

  async function loadLive(id: string): Promise<AccountListRow> {
    const row = await repo.findLive(db, id);
    if (!row) fail('NOT_FOUND');
    return row;
  }

  function assertNameTyped(row: AccountListRow, typed: string): void {
    if (typed.trim() !== row.fullname.trim()) invalid({ confirmName: M.nameMismatch });
  }

  async function present(id: string): Promise<AdminAccount> {
    return toAdminAccount(await loadLive(id));
  }

  /**
   * SPEC.md section 4, auto-inactivation, done by the server: each account with a known
   * lastLogin, not restricted, status active, whose last login is 8 or more days old becomes
   * inactive. The update is conditional on the state it was read in, so an account changes (and
   * gets its audit entry and live event) once, however many loads or instances race.
   */
  async function runSweep(now: number): Promise<string[]> {
    const cutoff = new Date(now - TIMINGS.autoInactiveDays * DAY_MS).toISOString();
    const changed: string[] = [];
    for (const candidate of await repo.staleCandidates(db, cutoff)) {
      const last = Date.parse(candidate.lastLogin ?? '');
      if (Number.isNaN(last) || now - last < TIMINGS.autoInactiveDays * DAY_MS) continue;
      const at = nowIso();
      const changedNow = await runCommand(ctx, null, async (trx, cmd) => {
        if (!(await repo.markInactive(trx, candidate, at))) return false;
        await cmd.endSessions(candidate.id, 'inactivity');
        await cmd.audit({
          action: 'UPDATE',
          collection: 'accounts',
          documentId: candidate.id,
          documentName: candidate.fullname,
          description: ACCOUNTS.audit.autoInactive(TIMINGS.autoInactiveDays),
          changes: {
            before: { status: 'active', autoInactive: false, autoInactiveAt: null },
            after: { status: 'inactive', autoInactive: true, autoInactiveAt: at },
          },
        });
        cmd.publish({ topic: 'accounts', id: candidate.id, op: 'update' });
        return true;
      });
      if (changedNow) changed.push(candidate.id);
    }
    return changed;
  }

  /** One sweep at a time per process; a caller arriving mid-sweep waits for it. */
  function sweepInactive(now = Date.now()): Promise<string[]> {
    if (!sweeping) sweeping = runSweep(now).finally(() => { sweeping = null; });
    return sweeping;
  }

  return {
    sweepInactive,

    /** Waits for a running sweep (used when the server closes). */
    async idle(): Promise<void> {
      await sweeping?.catch(() => undefined);
    },

    async list(query: AccountListQuery): Promise<AccountList> {
      await sweepInactive();
      const pageSize = LIMITS.accountPageSize;
      let page = query.page;
      let { rows, total } = await repo.list(db, { q: query.q, offset: (page - 1) * pageSize, limit: pageSize });
      const pageCount = Math.max(1, Math.ceil(total / pageSize));
      if (page > pageCount) {
        page = pageCount;
        ({ rows, total } = await repo.list(db, { q: query.q, offset: (page - 1) * pageSize, limit: pageSize }));
      }
      return { items: rows.map(toAdminAccount), page, pageSize, pageCount, total };
    },

    get: present,

    async availability(query: AvailabilityQuery): Promise<{ available: boolean }> {
      const value = query.value.trim();
      if (!value) return { available: false };
      return { available: !(await repo.isTaken(db, query.field, value, query.excludeId)) };
    },

    async create(input: AccountCreateInput, auth: AuthContext): Promise<AdminAccount> {
      await assertAvailable(input.username, input.email);
      const password = await securePassword(input.password);
      const id = newId();
      const now = nowIso();
      try {
        await runCommand(ctx, auth.actor, async (trx, cmd) => {
          await insertAccountWithAudit(trx, cmd, {
            id, fullname: input.fullname, username: input.username, email: input.email, contactNo: null, password, role: input.role, now,
          });
          cmd.publish({ topic: 'accounts', id, op: 'create' });
        });
      } catch (err) {
        rethrowUnique(err);
      }
      return present(id);
    },

    /**
     * Edits name, username, email and (when given) the password. A role in the body changes the
     * role too, except one's own. A new password or role ends the account's sessions (keeping
     * the editor's own session when they edit themselves).
     */
    async update(id: string, input: AccountUpdateInput, auth: AuthContext): Promise<AdminAccount> {
      const current = await loadLive(id);
      const self = id === auth.user.id;
      const currentRole = normalizeRole(current.role);
      const roleChange = input.role !== undefined && input.role !== currentRole;
      if (roleChange && self) fail('FORBIDDEN', M.cannotChangeOwnRole);
      await assertAvailable(input.username, input.email, id);
      const passwordChange = input.password !== '';
      const password = passwordChange ? await securePassword(input.password) : null;

      const before: Record<string, unknown> = {};
      const after: Record<string, unknown> = {};
      const note = (key: string, was: unknown, now: unknown) => { if (was !== now) { before[key] = was; after[key] = now; } };
      note('fullname', current.fullname, input.fullname);
      note('username', current.username, input.username);
      note('email', current.email, input.email);
      if (roleChange) note('role', currentRole, input.role);
      if (passwordChange) { before.password = '(unchanged)'; after.password = '(changed)'; }

      const reason: EndReason | null = roleChange ? 'role_changed' : passwordChange ? 'password_changed' : null;
      try {
        await runCommand(ctx, auth.actor, async (trx, cmd) => {
          const n = await repo.updateVersioned(trx, id, input.version, {
            fullname: input.fullname,
            username: input.username,
            normalizedUsername: normalizeIdentity(input.username),
            email: input.email,
            normalizedEmail: normalizeIdentity(input.email),
            updatedAt: nowIso(),
            ...(password ? { password } : {}),
            ...(roleChange && input.role ? { role: input.role } : {}),
          });
          if (n === 0) assertUpdated(0, await repo.findLive(trx, id), (row: AccountListRow) => toAdminAccount(row));
          if (reason) await cmd.endSessions(id, reason, self ? auth.sessionId : undefined);
          await cmd.audit({
            action: 'UPDATE',
            collection: 'accounts',
            documentId: id,
            documentName: input.fullname,
            description: roleChange
              ? `Updated admin account ${input.username} (role changed to ${roleLabel(input.role!)})`
              : `Updated admin account ${input.username}`,
            changes: { before, after },
          });
          cmd.publish({ topic: 'accounts', id, op: 'update' });
        });
      } catch (err) {
        if (err instanceof AppError) throw err;
        rethrowUnique(err);
      }
      return present(id);
    },

    /** Restrict: status restricted, isRestricted, restrictedAt; the account's open session ends at once. */
    async restrict(id: string, confirmName: string, auth: AuthContext): Promise<AdminAccount> {
      if (id === auth.user.id) fail('FORBIDDEN', M.cannotRestrictSelf);
      const current = await loadLive(id);
      assertNameTyped(current, confirmName);
      const at = nowIso();
      await runCommand(ctx, auth.actor, async (trx, cmd) => {
        if (!(await repo.restrict(trx, id, at))) {
          if (!(await repo.findLive(trx, id))) fail('NOT_FOUND');
          fail('CONFLICT', M.alreadyRestricted);
        }
        await cmd.endSessions(id, 'restricted');
        await cmd.audit({
          action: 'RESTRICT',
          collection: 'accounts',
          documentId: id,
          documentName: current.fullname,
          description: `Restricted admin account ${current.username}`,
          changes: {
            before: { status: current.status, isRestricted: false, restrictedAt: null },
            after: { status: 'restricted', isRestricted: true, restrictedAt: at },
          },
        });
        cmd.publish({ topic: 'accounts', id, op: 'restrict' });
      });
      return present(id);
    },

    /** Unrestrict (no confirmation): status active, isRestricted false, restrictedAt null. */
    async unrestrict(id: string, auth: AuthContext): Promise<AdminAccount> {
      const current = await loadLive(id);
      const at = nowIso();
      await runCommand(ctx, auth.actor, async (trx, cmd) => {
        if (!(await repo.unrestrict(trx, id, at))) {
          if (!(await repo.findLive(trx, id))) fail('NOT_FOUND');
          fail('CONFLICT', M.notRestricted);
        }
        await cmd.audit({
          action: 'UNRESTRICT',
          collection: 'accounts',
          documentId: id,
          documentName: current.fullname,
          description: `Unrestricted admin account ${current.username}`,
          changes: {
            before: { status: current.status, isRestricted: Boolean(current.isRestricted), restrictedAt: current.restrictedAt },
            after: { status: 'active', isRestricted: false, restrictedAt: null },
          },
        });
        cmd.publish({ topic: 'accounts', id, op: 'unrestrict' });
      });
      return present(id);
    },

    /**
     * Soft delete, refused for one's own account and for an account that has activities
     * (it is the actor of an audit entry): restrict that one instead.
     */
    async remove(id: string, confirmName: string, auth: AuthContext): Promise<void> {
      if (id === auth.user.id) fail('FORBIDDEN', M.cannotDeleteSelf);
      const current = await loadLive(id);
      assertNameTyped(current, confirmName);
      const at = nowIso();
      await runCommand(ctx, auth.actor, async (trx, cmd) => {
        if (await repo.hasActivities(trx, id)) fail('CONFLICT', M.cannotDeleteHasActivities, undefined, { reason: 'has_activities' });
        if (!(await repo.softDelete(trx, id, at, auth.user.id))) fail('NOT_FOUND');
        await cmd.endSessions(id, 'deleted');
        await cmd.audit({
          action: 'DELETE',
          collection: 'accounts',
          documentId: id,
          documentName: current.fullname,
          description: `Deleted admin account ${current.username}`,
          changes: { before: { isDeleted: false }, after: { isDeleted: true, deletedAt: at, deletedBy: auth.user.id } },
        });
        cmd.publish({ topic: 'accounts', id, op: 'delete' });
      });
    },
  };
}
