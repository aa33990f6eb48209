import { ACCOUNTS } from '../../../../common/accounts.js';
import { LIMITS } from '../../../../common/limits.js';
import { normalizeRole, type Role } from '../../../../common/permissions.js';
import {
  type AccountInviteInput,
  type InvitationResult,
  type AccountCreateInput,
  type AccountList,
  type AccountListQuery,
  type AccountUpdateInput,
  type AdminAccount,
  type AvailabilityQuery,
} from '../../../../common/schemas/accounts.js';
import { SHELL } from '../../../../common/texts.js';
import { accountCreateNeedsReauth, accountEditNeedsReauth } from '../../../../common/reauth.js';
import type { ReauthInput } from '../../../../common/schemas/accounts.js';
import { identityCheck } from '../credentials/index.js';
import { newId, nowIso } from '../../../platform/support/clock.js';
import type { AppContext, AuthContext } from '../../../platform/http/context.js';
import { AppError, fail, invalid } from '../../../platform/http/errors.js';
import { hashPassword, isHash } from '../../../platform/identity/passwords.js';
import { runCommand } from '../../../platform/writes/command.js';
import type { EndReason } from '../../../platform/identity/sessions.js';
import { assertUpdated } from '../../../platform/writes/versioning.js';
import { insertAccountWithAudit } from './create-account.js';
import { invitationEmail, invitationLink, issueInvitation } from './invitations.js';
import { mailerFor } from '../../../platform/support/mail.js';
import { createInactivitySweep } from './inactivity.js';
import { credentialsRecords, voidEmailedLinks, voidPasswordProofs } from '../credentials/index.js';
import { createRestriction } from './restriction.js';
import { pageCount } from '../../../platform/http/pages.js';
import { toAdminAccount } from './presenter.js';
import { accountsRepository as repo, normalizeIdentity, type AccountListRow } from './repository.js';
import { uniqueViolationField } from './unique.js';

const M = ACCOUNTS.messages;

const PROOF_FIELDS = { password: 'currentPassword', code: 'code' };
const proofOf = (input: ReauthInput) => ({ password: input.currentPassword, code: input.code });

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
  const confirmIdentity = identityCheck(ctx);

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

  /** The link mailed to the account when a mail server is set, otherwise (or when the email fails) handed back, once. */
  async function deliverInvitation(
    account: AdminAccount,
    { token, expiresAt }: { token: string; expiresAt: string },
    auth: AuthContext,
  ): Promise<InvitationResult> {
    const link = invitationLink(ctx.config, token);
    if (ctx.config.smtpUrl && account.email) {
      try {
        await mailerFor(ctx).send(invitationEmail(account.email, account, auth.actor.fullname, link, expiresAt));
        return { account, delivery: 'email', sentTo: account.email, link: null, mailFailed: false, expiresAt };
      } catch (err) {
        log.error({ err }, 'invitation email could not be sent; the link is shown instead');
        return { account, delivery: 'link', sentTo: null, link, mailFailed: true, expiresAt };
      }
    }
    return { account, delivery: 'link', sentTo: null, link, mailFailed: false, expiresAt };
  }

  const { sweepInactive, idle } = createInactivitySweep(ctx);

  return {
    sweepInactive,

    /** Waits for a running sweep (used when the server closes). */
    idle,

    async list(query: AccountListQuery): Promise<AccountList> {
      await sweepInactive();
      const pageSize = LIMITS.accountPageSize;
      let page = query.page;
      let { rows, total } = await repo.list(db, { q: query.q, offset: (page - 1) * pageSize, limit: pageSize });
      const pages = pageCount(total, pageSize);
      if (page > pages) {
        page = pages;
        ({ rows, total } = await repo.list(db, { q: query.q, offset: (page - 1) * pageSize, limit: pageSize }));
      }
      return { items: rows.map((row) => toAdminAccount(row)), page, pageSize, pageCount: pages, total };
    },

    get: present,

    async availability(query: AvailabilityQuery): Promise<{ available: boolean }> {
      const value = query.value.trim();
      if (!value) return { available: false };
      return { available: !(await repo.isTaken(db, query.field, value, query.excludeId)) };
    },

    async create(input: AccountCreateInput, auth: AuthContext): Promise<AdminAccount> {
      await assertAvailable(input.username, input.email);
      if (accountCreateNeedsReauth(input)) await confirmIdentity(auth, proofOf(input), PROOF_FIELDS);
      const password = await securePassword(input.password);
      const id = newId();
      const now = nowIso();
      try {
        await runCommand(ctx, auth.actor, async (trx, cmd) => {
          await insertAccountWithAudit(trx, cmd, {
            id,
            fullname: input.fullname,
            username: input.username,
            email: input.email,
            contactNo: null,
            password,
            role: input.role,
            now,
          });
          cmd.publish({ topic: 'accounts', id, op: 'create' });
        });
      } catch (err) {
        rethrowUnique(err);
      }
      return present(id);
    },

    /**
     * Add New Admin with an invitation instead of a typed password: the account is created
     * without a password (nobody can sign in to it) with a single-use link to set one, in one
     * transaction with its audit entries. With a mail server the link is mailed to the account's
     * address; without one, or when the email fails, the answer carries the link, once.
     */
    async invite(input: AccountInviteInput, auth: AuthContext): Promise<InvitationResult> {
      await assertAvailable(input.username, input.email);
      if (accountCreateNeedsReauth(input)) await confirmIdentity(auth, proofOf(input), PROOF_FIELDS);
      const id = newId();
      const now = Date.now();
      const mailing = Boolean(ctx.config.smtpUrl);
      let issued: { token: string; expiresAt: string } | undefined;
      try {
        await runCommand(ctx, auth.actor, async (trx, cmd) => {
          await insertAccountWithAudit(trx, cmd, {
            id,
            fullname: input.fullname,
            username: input.username,
            email: input.email,
            contactNo: null,
            password: '',
            role: input.role,
            now: new Date(now).toISOString(),
          });
          issued = await issueInvitation(trx, id, now);
          await cmd.audit({
            action: 'UPDATE',
            collection: 'accounts',
            documentId: id,
            documentName: input.fullname,
            description: mailing
              ? `Invited ${input.username} to set a password: link emailed to ${input.email}`
              : `Invited ${input.username} to set a password: link shown once to ${auth.actor.fullname}`,
            details: { invitation: 'created', delivery: mailing ? 'email' : 'link', expiresAt: issued.expiresAt },
          });
          cmd.publish({ topic: 'accounts', id, op: 'create' });
        });
      } catch (err) {
        if (err instanceof AppError) throw err;
        rethrowUnique(err);
      }
      return deliverInvitation(await present(id), issued!, auth);
    },

    /**
     * A new invitation link for an account that has no password yet (its link lost or expired,
     * or the account back from the trash): earlier links stop working; mailed or shown once as
     * for a new account; audited.
     */
    async reinvite(id: string, input: ReauthInput, auth: AuthContext): Promise<InvitationResult> {
      const current = await loadLive(id);
      if (current.password) fail('CONFLICT', M.hasPassword);
      if (accountCreateNeedsReauth({ role: normalizeRole(current.role) })) await confirmIdentity(auth, proofOf(input), PROOF_FIELDS);
      const mailing = Boolean(ctx.config.smtpUrl && current.email);
      let issued: { token: string; expiresAt: string } | undefined;
      await runCommand(ctx, auth.actor, async (trx, cmd) => {
        const now = Date.now();
        await credentialsRecords.retireTokens(trx, id, new Date(now).toISOString(), 'invitation');
        issued = await issueInvitation(trx, id, now);
        await cmd.audit({
          action: 'UPDATE',
          collection: 'accounts',
          documentId: id,
          documentName: current.fullname,
          description: mailing
            ? `New invitation link for ${current.username}: emailed to ${current.email}`
            : `New invitation link for ${current.username}: shown once to ${auth.actor.fullname}`,
          details: { invitation: 'renewed', delivery: mailing ? 'email' : 'link', expiresAt: issued.expiresAt },
        });
        cmd.publish({ topic: 'accounts', id, op: 'update' });
      });
      return deliverInvitation(await present(id), issued!, auth);
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
      if (accountEditNeedsReauth({ email: current.email, role: currentRole }, input))
        await confirmIdentity(auth, proofOf(input), PROOF_FIELDS);
      const passwordChange = input.password !== '';
      const password = passwordChange ? await securePassword(input.password) : null;

      const before: Record<string, unknown> = {};
      const after: Record<string, unknown> = {};
      const note = (key: string, was: unknown, now: unknown) => {
        if (was !== now) {
          before[key] = was;
          after[key] = now;
        }
      };
      note('fullname', current.fullname, input.fullname);
      note('username', current.username, input.username);
      note('email', current.email, input.email);
      if (roleChange) note('role', currentRole, input.role);
      if (passwordChange) {
        before.password = '(unchanged)';
        after.password = '(changed)';
      }

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
          if (passwordChange) await voidPasswordProofs(trx, id, nowIso());
          else if (normalizeIdentity(input.email) !== current.normalizedEmail) await voidEmailedLinks(trx, id, nowIso());
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

    ...createRestriction(ctx, { loadLive, assertNameTyped, present }),

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
