import { linkOrigin } from '../../../config.js';
import type { IdentifyInput, VerifyInput } from '../../../../common/schemas/recovery.js';
import { INVITATION } from '../../../../common/accounts.js';
import { RECOVERY, RECOVERY_LIMITS, SETTINGS } from '../../../../common/profile.js';
import { Throttle } from '../../../platform/identity/throttle.js';
import { SYSTEM_ACTOR, type Actor } from '../../../platform/writes/audit.js';
import { runCommand } from '../../../platform/writes/command.js';
import { isoIn, nowIso } from '../../../platform/support/clock.js';
import { appContext, type AppContext } from '../../../platform/http/context.js';
import { fail, invalid } from '../../../platform/http/errors.js';
import { mailerFor, type Mailer } from '../../../platform/support/mail.js';
import { hashPassword, randomToken, sha256 } from '../../../platform/identity/passwords.js';
import type { AccountRow } from '../accounts/index.js';
import { accountsRecords, normalizeIdentity } from '../accounts/index.js';
import { getAccountEnums } from '../../content/maintenance/index.js';
import { hashAnswer, verifyAnswer } from './answers.js';
import { voidPasswordProofs } from '../credentials/index.js';
import { noticeQuestionReset } from '../credentials/index.js';
import { recoveryAttempts } from './attempts.js';
import { credentialsRecords } from '../credentials/index.js';
import { recoveryRepository, type TokenPurpose } from './repository.js';
import { resetEmail } from './reset-email.js';

/** Who asks: the client's address and, when signed in, the session that asks (kept on a reset). */
export interface RequestMeta {
  ip: string;
  /** The requester's own valid session for that account, kept when its password changes. */
  sessionOf?: ((accountId: string) => Promise<string | undefined>) | undefined;
}

function actorOf(account: AccountRow): Actor {
  return { id: account.id, fullname: account.fullname, email: account.email };
}

const RESET_DESCRIPTION = {
  recovery: 'Password reset through the security question',
  email_link: 'Password reset through the email link',
  invitation: 'Invitation accepted: first password set',
} as const;

/**
 * Forgot password as one server-side flow (docs/PRODUCT.md sections 4 and 5):
 * 1. identify: the account must exist; the browser gets only an opaque recovery id.
 * 2. verify: question and answer of that account; a short-lived single-use reset token.
 * 3. reset: the token sets a password that passes the checklist.
 * And the email link of Account Settings: a single-use token mailed to the account's email.
 * Failed attempts are counted and audited (attempts.ts).
 */
export function createRecoveryService(ctx: AppContext, mailer: Mailer) {
  const { db } = ctx;
  const { ipFailures, identifierFailures, assertIpAllowed, assertNotPaused, spendAnswer, recordWrong, answered } = recoveryAttempts(ctx);
  // Reset emails per account, in the database so every instance shares the count.
  const emailSends = new Throttle(db, 'reset-email', RECOVERY_LIMITS.resetEmailsPerWindow, RECOVERY_LIMITS.failureWindowMs);

  /** Resolves a live flow or says it expired (the browser then starts again at step 1). */
  async function liveFlow(recoveryId: string, ip: string) {
    const flow = await recoveryRepository.findFlow(db, sha256(recoveryId));
    const account = flow ? await accountsRecords.findById(db, flow.accountId) : undefined;
    if (!flow || flow.verifiedAt || flow.expiresAt <= nowIso() || !account || account.isDeleted) {
      await ipFailures.hit(ip);
      fail('NOT_FOUND', RECOVERY.expired, undefined, { reason: 'recovery_expired' });
    }
    return { flow, account };
  }

  /** Step 3, the email link and an invitation: consume the token once, set the password, end other sessions. */
  async function resetWithToken(
    token: string,
    purpose: Exclude<TokenPurpose, 'unlock'>,
    newPassword: string,
    meta: RequestMeta,
    invalidMessage: string,
  ): Promise<void> {
    const tokenHash = sha256(token);
    const found = await recoveryRepository.findLiveToken(db, tokenHash, purpose, nowIso());
    const account = found ? await accountsRecords.findById(db, found.accountId) : undefined;
    if (!found || !account || account.isDeleted) {
      await ipFailures.hit(meta.ip);
      fail('NOT_FOUND', invalidMessage, undefined, { reason: 'token_invalid' });
    }
    const hash = await hashPassword(newPassword);
    const keepSession = await meta.sessionOf?.(account.id);
    await runCommand(ctx, actorOf(account), async (trx, cmd) => {
      const now = nowIso();
      if ((await recoveryRepository.consumeToken(trx, tokenHash, purpose, now)) === 0) {
        fail('NOT_FOUND', invalidMessage, undefined, { reason: 'token_invalid' });
      }
      await recoveryRepository.setPassword(trx, account.id, hash, now);
      await voidPasswordProofs(trx, account.id, now);
      cmd.afterCommit(() => answered(account.id));
      // A password set through the security question is news its owner must hear at once.
      if (purpose === 'recovery') cmd.afterCommit(() => noticeQuestionReset(ctx, account));
      const endedIds = await cmd.endSessions(account.id, 'password_changed', keepSession);
      await cmd.audit({
        action: 'UPDATE',
        collection: 'accounts',
        documentId: account.id,
        documentName: account.fullname,
        description: RESET_DESCRIPTION[purpose],
        details: { field: 'password', method: purpose, endedSessions: endedIds.length },
      });
      cmd.publish({ topic: 'accounts', id: account.id, op: 'update' });
    });
  }

  return {
    async identify(input: IdentifyInput, meta: RequestMeta): Promise<{ recoveryId: string }> {
      await assertIpAllowed(meta.ip);
      const key = normalizeIdentity(input.identifier);
      if ((await identifierFailures.check(key)).blocked) fail('RATE_LIMITED', RECOVERY.tooManyAttempts);
      const account = await accountsRecords.findByIdentifier(db, input.identifier);
      if (!account || account.isDeleted) {
        await ipFailures.hit(meta.ip);
        await identifierFailures.hit(key);
        await runCommand(ctx, SYSTEM_ACTOR, (_trx, cmd) =>
          cmd.audit({
            action: 'LOGIN',
            collection: 'accounts',
            documentId: null,
            documentName: null,
            description: 'Password recovery: no account matches the username or email',
            details: { step: 'identify', outcome: 'unknown_account', identifier: input.identifier.slice(0, 100), ip: meta.ip },
          }),
        );
        fail('NOT_FOUND', RECOVERY.userNotFound, { identifier: RECOVERY.userNotFound });
      }
      await assertNotPaused(account.id);
      const recoveryId = randomToken(32);
      const now = Date.now();
      await recoveryRepository.deleteExpiredFlows(db, new Date(now).toISOString());
      await recoveryRepository.insertFlow(db, {
        id: sha256(recoveryId),
        accountId: account.id,
        ip: meta.ip,
        createdAt: new Date(now).toISOString(),
        expiresAt: isoIn(RECOVERY_LIMITS.flowTtlMs, now),
      });
      return { recoveryId };
    },

    async verify(input: VerifyInput, meta: RequestMeta): Promise<{ resetToken: string }> {
      await assertIpAllowed(meta.ip);
      const { account } = await liveFlow(input.recoveryId, meta.ip);
      const spent = await spendAnswer(account.id);
      const stored = account.securityQuestion?.trim() ?? '';
      if (stored === '' || stored !== input.question.trim()) {
        await recordWrong(account, spent, meta.ip, 'question_mismatch');
        invalid({ question: RECOVERY.questionMismatch });
      }
      const check = await verifyAnswer(input.answer, account.securityAnswer);
      if (check.legacyPlain && account.securityAnswer) {
        // Existing plain answers are hashed on first use, whatever the outcome.
        await recoveryRepository.setAnswerHash(db, account.id, account.securityAnswer, await hashAnswer(account.securityAnswer));
      }
      if (!check.ok) {
        await recordWrong(account, spent, meta.ip, 'wrong_answer');
        invalid({ answer: RECOVERY.wrongAnswer });
      }
      const resetToken = randomToken(32);
      await runCommand(ctx, SYSTEM_ACTOR, async (trx) => {
        const now = Date.now();
        const nowText = new Date(now).toISOString();
        if ((await recoveryRepository.verifyFlow(trx, sha256(input.recoveryId), nowText)) === 0) {
          fail('NOT_FOUND', RECOVERY.expired, undefined, { reason: 'recovery_expired' });
        }
        await credentialsRecords.retireTokens(trx, account.id, nowText, 'recovery');
        await recoveryRepository.insertToken(trx, {
          tokenHash: sha256(resetToken),
          accountId: account.id,
          purpose: 'recovery',
          createdAt: nowText,
          expiresAt: isoIn(RECOVERY_LIMITS.resetTokenTtlMs, now),
        });
      });
      await answered(account.id);
      return { resetToken };
    },

    async reset(input: { resetToken: string; newPassword: string }, meta: RequestMeta): Promise<void> {
      await assertIpAllowed(meta.ip);
      return resetWithToken(input.resetToken, 'recovery', input.newPassword, meta, RECOVERY.expired);
    },

    /** The email link's page asks first whether the link still works. */
    async checkEmailLink(token: string, ip: string): Promise<{ valid: true; expiresAt: string }> {
      await assertIpAllowed(ip);
      const found = await recoveryRepository.findLiveToken(db, sha256(token), 'email_link', nowIso());
      const account = found ? await accountsRecords.findById(db, found.accountId) : undefined;
      if (!found || !account || account.isDeleted) {
        await ipFailures.hit(ip);
        fail('NOT_FOUND', RECOVERY.linkInvalid, undefined, { reason: 'token_invalid' });
      }
      return { valid: true, expiresAt: found.expiresAt };
    },

    async resetWithEmailLink(input: { token: string; newPassword: string }, meta: RequestMeta): Promise<void> {
      await assertIpAllowed(meta.ip);
      return resetWithToken(input.token, 'email_link', input.newPassword, meta, RECOVERY.linkInvalid);
    },

    /** The invitation page asks first whether the link still works, and whose account it opens. */
    async checkInvitation(token: string, ip: string): Promise<{ valid: true; fullname: string; username: string; expiresAt: string }> {
      await assertIpAllowed(ip);
      const found = await recoveryRepository.findLiveToken(db, sha256(token), 'invitation', nowIso());
      const account = found ? await accountsRecords.findById(db, found.accountId) : undefined;
      if (!found || !account || account.isDeleted) {
        await ipFailures.hit(ip);
        fail('NOT_FOUND', INVITATION.invalid, undefined, { reason: 'token_invalid' });
      }
      return { valid: true, fullname: account.fullname, username: account.username, expiresAt: found.expiresAt };
    },

    /** A new account's first password, set once with its invitation link; the invitee then logs in. */
    async acceptInvitation(input: { token: string; newPassword: string }, meta: RequestMeta): Promise<void> {
      await assertIpAllowed(meta.ip);
      return resetWithToken(input.token, 'invitation', input.newPassword, meta, INVITATION.invalid);
    },

    /**
     * Account Settings' 'Send password reset email': a new single-use link (older unused ones
     * stop working), valid 30 minutes, to the account's email.
     */
    async sendResetEmail(accountId: string): Promise<{ sentTo: string }> {
      const account = await accountsRecords.findById(db, accountId);
      if (!account) fail('NOT_FOUND');
      const email = account.email?.trim();
      if (!email) fail('VALIDATION_FAILED', SETTINGS.noEmail);
      if ((await emailSends.check(account.id)).blocked) fail('RATE_LIMITED');
      await emailSends.hit(account.id);
      const token = randomToken(32);
      const tokenHash = sha256(token);
      await runCommand(ctx, SYSTEM_ACTOR, async (trx) => {
        const now = Date.now();
        const nowText = new Date(now).toISOString();
        await credentialsRecords.retireTokens(trx, account.id, nowText, 'email_link');
        await recoveryRepository.insertToken(trx, {
          tokenHash,
          accountId: account.id,
          purpose: 'email_link',
          createdAt: nowText,
          expiresAt: isoIn(RECOVERY_LIMITS.emailLinkTtlMs, now),
        });
      });
      const link = `${linkOrigin(ctx.config)}/reset-password#token=${encodeURIComponent(token)}`;
      try {
        await mailer.send(resetEmail(email, account.fullname, link));
      } catch (err) {
        ctx.log.error({ err }, 'password reset email could not be sent');
        await credentialsRecords.retireTokens(db, account.id, nowIso(), 'email_link');
        fail('INTERNAL', SETTINGS.sendFailed);
      }
      return { sentTo: email };
    },

    /** Security questions for step 2, before anyone is signed in. */
    questions: () => getAccountEnums(db),
  };
}
export type RecoveryService = ReturnType<typeof createRecoveryService>;

/** One recovery service per app (with the app's mailer), shared by the recovery and profile routes. */
const services = new WeakMap<AppContext, RecoveryService>();
export function recoveryServiceFor(ctx: AppContext): RecoveryService {
  const app = appContext(ctx);
  let service = services.get(app);
  if (!service) {
    service = createRecoveryService(app, mailerFor(app));
    services.set(app, service);
  }
  return service;
}
