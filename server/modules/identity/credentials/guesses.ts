import { CHANGE_PASSWORD } from '../../../../common/profile.js';
import { LOGIN } from '../../../../common/texts.js';
import { SYSTEM_ACTOR } from '../../../platform/writes/audit.js';
import type { Transaction } from 'kysely';
import type { Database } from '../../../db/types.js';
import { runCommand, type Command } from '../../../platform/writes/command.js';
import type { AppContext } from '../../../platform/http/context.js';
import { fail } from '../../../platform/http/errors.js';
import { mailerFor } from '../../../platform/support/mail.js';
import { AttemptBudget, minutesToWait, SIGN_IN_BUDGETS, type BudgetFailure } from '../../../platform/identity/throttle.js';
import { UNLOCK_LINK_TTL_MS } from './unlock-links.js';

/** The account a notice is about. */
export interface NoticeAccount {
  id: string;
  fullname: string;
  email: string | null;
}

/**
 * One budget of guesses per account for signing in: wrong passwords, wrong second-factor codes
 * and wrong recovery codes, at login and in Account Settings. Unknown names count by the name typed.
 */
export function signInBudget(ctx: AppContext): AttemptBudget {
  const { config } = ctx;
  return new AttemptBudget(
    ctx.db,
    SIGN_IN_BUDGETS.guesses,
    config.loginFailuresPerAccount,
    config.loginFailureWindowMs,
    config.loginFailureWindowMs,
  );
}

/** Password-and-code attempts to sign in to a locked account, the way its owner gets in at once. */
const UNLOCK_ATTEMPTS = 5;

export function unlockBudget(ctx: AppContext): AttemptBudget {
  const { config } = ctx;
  return new AttemptBudget(ctx.db, SIGN_IN_BUDGETS.unlock, UNLOCK_ATTEMPTS, config.loginFailureWindowMs, config.loginFailureWindowMs);
}

/** A locked account is told so, and for how long, even with the right password. */
export function lockedOut(retryAfterMs: number): never {
  fail('RATE_LIMITED', LOGIN.locked(minutesToWait(retryAfterMs)), undefined, {
    retryAfterSeconds: Math.ceil(retryAfterMs / 1000),
    reason: 'locked',
  });
}

/** Sends a notice to the account's own address after the audit entry is stored; a mail error is logged, never shown. */
function mailNotice(ctx: AppContext, account: NoticeAccount, subject: string, lines: string[]): void {
  const to = account.email?.trim();
  if (!to) return;
  const text = [`Hello ${account.fullname},`, '', ...lines, '', 'PalaYan Admin'].join('\n');
  mailerFor(ctx)
    .send({ to, subject, text })
    .catch((err: unknown) => ctx.log.error({ err }, 'security notice could not be sent'));
}

const LOCK_SUBJECT = 'PalaYan Admin: your account was locked';
const GUESSED: Record<'password' | 'answer', string> = {
  password: 'wrong passwords or sign-in codes',
  answer: 'wrong answers to your security question',
};

/**
 * A budget ran out: an audit entry and an email to the account's address (the outbox when no
 * mail server is set), so its owner learns that someone is guessing.
 */
export async function noticeLockout(
  ctx: AppContext,
  account: NoticeAccount,
  what: 'password' | 'answer',
  lock: BudgetFailure,
  ip: string | undefined,
  unlockLink: string | null = null,
): Promise<void> {
  const minutes = minutesToWait(lock.lockMs);
  const paused = what === 'password' ? 'sign-in' : 'password recovery with the security question';
  await runCommand(ctx, SYSTEM_ACTOR, (_trx, cmd) =>
    cmd.audit({
      action: 'LOGIN',
      collection: 'accounts',
      documentId: account.id,
      documentName: account.fullname,
      description: `Too many ${GUESSED[what]}: ${paused} locked for ${minutes} minute${minutes === 1 ? '' : 's'}`,
      details: { outcome: 'locked', what, lockouts: lock.lockouts, lockMinutes: minutes, ip: ip ?? null },
    }),
  );
  mailNotice(
    ctx,
    account,
    LOCK_SUBJECT,
    [
      `After too many ${GUESSED[what]}, ${paused} for your PalaYan Admin account is locked for ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      lock.lockouts > 1 ? `This is lockout ${lock.lockouts} in a row; each one lasts twice as long as the last.` : '',
      unlockLink
        ? `To sign in before then, open this link and sign in with your password (it works once, within ${UNLOCK_LINK_TTL_MS / 60_000} minutes):\n${unlockLink}`
        : '',
      'If this was not you, someone may be trying to get into your account: tell your system administrator.',
    ].filter(Boolean),
  );
}

/**
 * A locked sign-in ended early (by the owner's password and code, or a super admin's Unlock):
 * `within` runs in the audit entry's transaction; the owner is mailed.
 */
export async function noticeUnlock(
  ctx: AppContext,
  account: NoticeAccount,
  by: { id: string; fullname: string; email: string | null } | null,
  ip: string | undefined,
  within?: (trx: Transaction<Database>, cmd: Command) => Promise<void>,
  via: 'code' | 'link' = 'code',
): Promise<void> {
  const how = by
    ? `by ${by.fullname}`
    : via === 'link'
      ? 'with the password and the unlock link mailed to the account'
      : 'with the password and a code from the authenticator app';
  await runCommand(ctx, by ?? { id: account.id, fullname: account.fullname, email: account.email }, async (trx, cmd) => {
    if (within) await within(trx, cmd);
    await cmd.audit({
      action: 'LOGIN',
      collection: 'accounts',
      documentId: account.id,
      documentName: account.fullname,
      description: `Sign-in unlocked ${how}`,
      details: {
        outcome: 'unlocked',
        by: by ? 'super admin' : via === 'link' ? 'password and unlock link' : 'password and code',
        ip: ip ?? null,
      },
    });
  });
  mailNotice(ctx, account, 'PalaYan Admin: your account was unlocked', [
    `The sign-in lock on your PalaYan Admin account was ended ${how}.`,
    'If this was not you, tell your system administrator at once.',
  ]);
}

/** A password set through the security question: its owner hears of it at once. */
export function noticeQuestionReset(ctx: AppContext, account: NoticeAccount): void {
  mailNotice(ctx, account, 'PalaYan Admin: your password was reset', [
    'The password of your PalaYan Admin account was just reset by answering your security question.',
    'If this was not you, tell your system administrator at once: they can restrict the account.',
  ]);
}

/** A password changed in Account Settings: its owner hears of it, in case the session was not theirs. */
export function noticePasswordChanged(ctx: AppContext, account: NoticeAccount): void {
  mailNotice(ctx, account, CHANGE_PASSWORD.emailSubject, [
    'The password of your PalaYan Admin account was just changed in Account Settings, and its other sessions were signed out.',
    'If this was not you, tell your system administrator at once: they can restrict the account.',
  ]);
}
