import { LOGIN } from '../../../common/texts.js';
import { SYSTEM_ACTOR } from '../../platform/audit.js';
import { runCommand } from '../../platform/command.js';
import type { AppContext } from '../../platform/context.js';
import { fail } from '../../platform/errors.js';
import { mailerFor } from '../../platform/mail.js';
import { AttemptBudget, minutesToWait, type BudgetFailure } from '../../platform/throttle.js';

/** The account a notice is about. */
export interface NoticeAccount { id: string; fullname: string; email: string | null }

/**
 * One budget of guesses per account for signing in: wrong passwords, wrong second-factor codes
 * and wrong recovery codes, at login and in Account Settings. Unknown names count by the name typed.
 */
export function signInBudget(ctx: AppContext): AttemptBudget {
  const { config } = ctx;
  return new AttemptBudget(ctx.db, 'login-failures', config.loginFailuresPerAccount, config.loginFailureWindowMs, config.loginFailureWindowMs);
}

/** A locked account is told so, and for how long, even with the right password. */
export function lockedOut(retryAfterMs: number): never {
  fail('RATE_LIMITED', LOGIN.locked(minutesToWait(retryAfterMs)), undefined, { retryAfterSeconds: Math.ceil(retryAfterMs / 1000) });
}

/** Sends a notice to the account's own address after the audit entry is stored; a mail error is logged, never shown. */
function mailNotice(ctx: AppContext, account: NoticeAccount, subject: string, lines: string[]): void {
  const to = account.email?.trim();
  if (!to) return;
  const text = [`Hello ${account.fullname},`, '', ...lines, '', 'PalaYan Admin'].join('\n');
  mailerFor(ctx).send({ to, subject, text }).catch((err: unknown) => ctx.log.error({ err }, 'security notice could not be sent'));
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
export async function noticeLockout(ctx: AppContext, account: NoticeAccount, what: 'password' | 'answer', lock: BudgetFailure, ip: string | undefined): Promise<void> {
  const minutes = minutesToWait(lock.lockMs);
  const paused = what === 'password' ? 'sign-in' : 'password recovery with the security question';
  await runCommand(ctx, SYSTEM_ACTOR, (_trx, cmd) => cmd.audit({
    action: 'LOGIN',
    collection: 'accounts',
    documentId: account.id,
    documentName: account.fullname,
    description: `Too many ${GUESSED[what]}: ${paused} locked for ${minutes} minute${minutes === 1 ? '' : 's'}`,
    details: { outcome: 'locked', what, lockouts: lock.lockouts, lockMinutes: minutes, ip: ip ?? null },
  }));
  mailNotice(ctx, account, LOCK_SUBJECT, [
    `After too many ${GUESSED[what]}, ${paused} for your PalaYan Admin account is locked for ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    lock.lockouts > 1 ? `This is lockout ${lock.lockouts} in a row; each one lasts twice as long as the last.` : '',
    'If this was not you, someone may be trying to get into your account: tell your system administrator.',
  ].filter(Boolean));
}

/** A password set through the security question: its owner hears of it at once. */
export function noticeQuestionReset(ctx: AppContext, account: NoticeAccount): void {
  mailNotice(ctx, account, 'PalaYan Admin: your password was reset', [
    'The password of your PalaYan Admin account was just reset by answering your security question.',
    'If this was not you, tell your system administrator at once: they can restrict the account.',
  ]);
}
