import crypto from 'node:crypto';
import bcrypt from 'bcrypt';
import { hashPassword, isHash } from '../../../platform/identity/passwords.js';

/** Security answers are compared case-insensitively: trimmed and lower-cased, then hashed. */
export function normalizeAnswer(answer: string): string {
  return answer.trim().toLowerCase();
}

export function hashAnswer(answer: string): Promise<string> {
  return hashPassword(normalizeAnswer(answer));
}

export interface AnswerCheck {
  ok: boolean;
  /** The stored answer was legacy plain text: the caller replaces it by hashAnswer(stored). */
  legacyPlain: boolean;
}

/** Compares a given answer with the stored one (bcrypt hash, or legacy plain text). */
export async function verifyAnswer(given: string, stored: string | null | undefined): Promise<AnswerCheck> {
  if (!stored || stored.trim() === '') return { ok: false, legacyPlain: false };
  const normalized = normalizeAnswer(given);
  if (isHash(stored)) return { ok: await bcrypt.compare(normalized, stored), legacyPlain: false };
  const a = crypto.createHash('sha256').update(normalized).digest();
  const b = crypto.createHash('sha256').update(normalizeAnswer(stored)).digest();
  return { ok: crypto.timingSafeEqual(a, b), legacyPlain: true };
}
