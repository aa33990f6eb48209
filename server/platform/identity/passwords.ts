import crypto from 'node:crypto';
import bcrypt from 'bcrypt';
import { LIMITS } from '../../../common/limits.js';

/**
 * bcrypt's cost: LIMITS.passwordHashRounds. Only code Vitest runs (it sets VITEST) reads
 * TEST_PASSWORD_HASH_ROUNDS: the API suite hashes and checks thousands of passwords, where
 * the full cost would dominate its time. Every server and CLI uses the full cost.
 */
export const PASSWORD_HASH_ROUNDS =
  process.env.VITEST && process.env.TEST_PASSWORD_HASH_ROUNDS
    ? Math.max(4, Number(process.env.TEST_PASSWORD_HASH_ROUNDS) || LIMITS.passwordHashRounds)
    : LIMITS.passwordHashRounds;

/** bcrypt runs in libuv's thread pool, off the event loop. */
export async function hashPassword(plain: string): Promise<string> {
  return bcrypt.hash(plain, PASSWORD_HASH_ROUNDS);
}

export function isHash(stored: string): boolean {
  return stored.startsWith('$2');
}

// Compared against when no account matches, so unknown users cost the same time as wrong passwords.
const DUMMY_HASH = bcrypt.hashSync('palayan-timing-equaliser', PASSWORD_HASH_ROUNDS);

export interface PasswordCheck {
  ok: boolean;
  /** The stored value was legacy plain text and should be replaced by a hash. */
  needsRehash: boolean;
}

export async function verifyPassword(plain: string, stored: string | null | undefined): Promise<PasswordCheck> {
  if (!stored) {
    await bcrypt.compare(plain, DUMMY_HASH);
    return { ok: false, needsRehash: false };
  }
  if (isHash(stored)) return { ok: await bcrypt.compare(plain, stored), needsRehash: false };
  // Legacy plain text: compare in constant time, and still spend a hash's worth of time.
  await bcrypt.compare(plain, DUMMY_HASH);
  const a = crypto.createHash('sha256').update(plain).digest();
  const b = crypto.createHash('sha256').update(stored).digest();
  const ok = crypto.timingSafeEqual(a, b);
  return { ok, needsRehash: ok };
}

export function randomToken(bytes = 32): string {
  return crypto.randomBytes(bytes).toString('base64url');
}

/** Random characters from an alphabet, from the system's secure generator (recovery codes). */
export function randomCode(length: number, alphabet: string): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += alphabet[crypto.randomInt(alphabet.length)];
  return out;
}

export function sha256(value: string): string {
  return crypto.createHash('sha256').update(value).digest('hex');
}

/** A strong generated password that passes the checklist (upper, lower, digit, special). */
export function generatePassword(): string {
  return `${randomToken(12)}-Aa1!`;
}
