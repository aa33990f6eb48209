import type { Kysely, Transaction } from 'kysely';
import { formatRecoveryCode, isTotpCode, normalizeSecondFactorCode, SECOND_FACTOR_LIMITS } from '../../../../../common/second-factor.js';
import type { Database } from '../../../../db/types.js';
import type { Command } from '../../../../platform/writes/command.js';
import { randomCode, sha256 } from '../../../../platform/identity/passwords.js';
import { secondFactorRepository as repo, type SecondFactorRow } from './repository.js';
import { checkTotp } from './totp.js';

/* Codes (app codes and recovery codes): made, checked, used up; shared by sign-in and Account Settings. */

type Db = Kysely<Database> | Transaction<Database>;

/** A code that was right when checked; `consume` makes it used (or finds that it was, meanwhile). */
export type AcceptedCode = { kind: 'totp'; step: number } | { kind: 'recovery'; codeHash: string };

/** Thrown inside a transaction when a code was used by a concurrent request: counted as wrong. */
export class CodeAlreadyUsed extends Error {}

/** Ten new recovery codes: shown once (formatted), stored as the sha256 of the normalised code. */
export function newRecoveryCodes(): { codes: string[]; hashes: string[] } {
  const raw = Array.from({ length: SECOND_FACTOR_LIMITS.recoveryCodeCount }, () =>
    randomCode(SECOND_FACTOR_LIMITS.recoveryCodeLength, SECOND_FACTOR_LIMITS.recoveryCodeAlphabet),
  );
  return { codes: raw.map(formatRecoveryCode), hashes: raw.map((c) => sha256(c)) };
}

/** Checks a typed code against the factor: a 6-digit app code (newer than the last one used) or an unused recovery code. */
export async function checkCode(db: Db, factor: SecondFactorRow, typed: string): Promise<AcceptedCode | null> {
  const code = normalizeSecondFactorCode(typed);
  if (code === '') return null;
  if (isTotpCode(code)) {
    const step = await checkTotp(factor.secret, code, Number(factor.lastTimeStep));
    return step === null ? null : { kind: 'totp', step };
  }
  const codeHash = sha256(code);
  return (await repo.hasUnusedRecoveryCode(db, factor.accountId, codeHash)) ? { kind: 'recovery', codeHash } : null;
}

/** Uses the accepted code inside the caller's transaction; throws CodeAlreadyUsed when a concurrent request used it first. */
export async function consumeCode(trx: Db, accountId: string, accepted: AcceptedCode, now: string): Promise<void> {
  const ok =
    accepted.kind === 'totp'
      ? await repo.advanceTimeStep(trx, accountId, accepted.step)
      : await repo.useRecoveryCode(trx, accountId, accepted.codeHash, now);
  if (!ok) throw new CodeAlreadyUsed();
}

/** Turns a confirmed key on, with ten recovery codes, the audit entry and the live event, in the caller's command. */
export async function enableFactor(
  trx: Db,
  cmd: Command,
  account: { id: string; fullname: string },
  secret: string,
  step: number,
  now: string,
): Promise<string[]> {
  await repo.insert(trx, { accountId: account.id, secret, enabledAt: now, lastTimeStep: step });
  const { codes, hashes } = newRecoveryCodes();
  await repo.replaceRecoveryCodes(trx, account.id, hashes, now);
  cmd.publish({ topic: 'accounts', id: account.id, op: 'update' });
  await cmd.audit({
    action: 'SECOND_FACTOR',
    collection: 'accounts',
    documentId: account.id,
    documentName: account.fullname,
    description: 'Turned on two-step sign-in',
    details: { recoveryCodes: codes.length },
  });
  return codes;
}
