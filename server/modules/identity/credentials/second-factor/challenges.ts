import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../../../db/types.js';
import { newId } from '../../../../platform/support/clock.js';
import { randomToken, sha256 } from '../../../../platform/identity/passwords.js';
import { secondFactorRepository as repo, type ChallengeRow } from './repository.js';

/* Challenges: a login's second step and a pending setup, each named by a single-use token. */

type Db = Kysely<Database> | Transaction<Database>;

/** Starts a challenge; only the sha256 of the returned token is stored. */
export async function newChallenge(
  db: Db,
  accountId: string,
  purpose: ChallengeRow['purpose'],
  pendingSecret: string | null,
  ttlMs: number,
): Promise<string> {
  const token = randomToken(32);
  const now = Date.now();
  await repo.pruneChallenges(db, new Date(now).toISOString());
  await repo.insertChallenge(db, {
    id: newId(),
    tokenHash: sha256(token),
    accountId,
    purpose,
    pendingSecret,
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + ttlMs).toISOString(),
    usedAt: null,
  });
  return token;
}

/** The open challenge of this token and purpose, or undefined (unknown, used, expired). */
export async function findOpenChallenge(db: Db, token: string, purposes: ChallengeRow['purpose'][]): Promise<ChallengeRow | undefined> {
  const row = await repo.findChallenge(db, sha256(token));
  if (!row || row.usedAt || !purposes.includes(row.purpose) || Date.parse(row.expiresAt) <= Date.now()) return undefined;
  return row;
}
