import { z } from './zod.js';
import { LIMITS } from '../limits.js';
import { LOGIN } from '../texts.js';
import { ROLES } from '../permissions.js';

export const loginSchema = z.object({
  identifier: z.string({ error: LOGIN.usernameRequired }).trim().min(1, LOGIN.usernameRequired).max(LIMITS.maxShortTextLength),
  password: z.string({ error: LOGIN.passwordRequired }).min(1, LOGIN.passwordRequired).max(1024),
  /** Only while the account is locked: with the right password, a second-factor code signs its owner in at once. */
  code: z.string().trim().max(64).optional(),
  /** Only while the account is locked: with the right password, the unlock link mailed in the lockout notice signs its owner in. */
  unlockToken: z.string().trim().max(128).optional(),
});
export type LoginInput = z.infer<typeof loginSchema>;

/** The identity fields every view of an account shares (never a hash, answer or token). */
export const accountIdentitySchema = z.object({
  id: z.string(),
  fullname: z.string(),
  username: z.string(),
  email: z.string().nullable(),
  contactNo: z.string().nullable(),
  photoURL: z.string().nullable(),
});
export type AccountIdentity = z.infer<typeof accountIdentitySchema>;

/** What the browser may know about the signed-in account. */
export const sessionUserSchema = accountIdentitySchema.extend({
  role: z.enum(ROLES),
  securityQuestion: z.string().nullable(),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

export const sessionSchema = z.object({
  user: sessionUserSchema,
  sessionId: z.string(),
  idleTimeoutMs: z.number(),
});
export type SessionInfo = z.infer<typeof sessionSchema>;

export const errorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
  }),
});
export type ApiErrorBody = z.infer<typeof errorSchema>;
