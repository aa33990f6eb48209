import { z } from './zod.js';
import { SECOND_FACTOR } from '../second-factor.js';
import { sessionSchema } from './auth.js';

/** A 6-digit code from the app or a recovery code (spaces and dashes allowed). */
export const secondFactorCodeSchema = z
  .string({ error: SECOND_FACTOR.codeRequired })
  .trim()
  .min(1, SECOND_FACTOR.codeRequired)
  .max(64, SECOND_FACTOR.invalidCode);

/** What authenticator apps need: the key, its otpauth:// URI and the URI as a QR code (SVG). */
export const secondFactorSetupSchema = z.object({
  secret: z.string(),
  otpauthUri: z.string(),
  qrSvg: z.string(),
});
export type SecondFactorSetup = z.infer<typeof secondFactorSetupSchema>;

/** Password accepted, the code is still to come: no session yet, only this challenge. */
export const secondFactorChallengeSchema = z.object({
  secondFactor: z.enum(['verify', 'enroll']),
  challenge: z.string(),
  /** Only for 'enroll': the new key to scan. */
  setup: secondFactorSetupSchema.optional(),
});
export type SecondFactorChallenge = z.infer<typeof secondFactorChallengeSchema>;

/** POST /api/auth/login answers with a session, or with a second-factor challenge. */
export const loginResultSchema = z.union([sessionSchema, secondFactorChallengeSchema]);
export type LoginResult = z.infer<typeof loginResultSchema>;

export const loginSecondFactorSchema = z.object({
  challenge: z.string().min(1, SECOND_FACTOR.expired).max(200, SECOND_FACTOR.expired),
  code: secondFactorCodeSchema,
});
export type LoginSecondFactorInput = z.infer<typeof loginSecondFactorSchema>;

/** The session, and after an enrolment the ten recovery codes (shown once). */
export const secondFactorSessionSchema = sessionSchema.extend({
  recoveryCodes: z.array(z.string()).optional(),
});
export type SecondFactorSession = z.infer<typeof secondFactorSessionSchema>;

/** Account Settings: the own account's status. */
export const secondFactorStatusSchema = z.object({
  enabled: z.boolean(),
  enabledAt: z.string().nullable(),
  recoveryCodesLeft: z.number(),
  /** REQUIRE_2FA_FOR names the role: it cannot be turned off. */
  required: z.boolean(),
});
export type SecondFactorStatus = z.infer<typeof secondFactorStatusSchema>;

export const secondFactorSetupStartSchema = secondFactorSetupSchema.extend({ setupToken: z.string() });
export type SecondFactorSetupStart = z.infer<typeof secondFactorSetupStartSchema>;

export const secondFactorEnableSchema = z.object({
  setupToken: z.string().min(1, SECOND_FACTOR.setupExpired).max(200, SECOND_FACTOR.setupExpired),
  code: z.string({ error: SECOND_FACTOR.codeRequired }).trim().min(1, SECOND_FACTOR.codeRequired).max(64, SECOND_FACTOR.invalidCode),
});
export type SecondFactorEnableInput = z.infer<typeof secondFactorEnableSchema>;

/**
 * Turning off or making new codes: the password and a current code (app or recovery), checked on
 * the server (credentials/identity.ts); both may be left out within 5 minutes of the last confirmation.
 */
export const secondFactorProofSchema = z.object({
  code: z.string().trim().max(64, SECOND_FACTOR.invalidCode).optional(),
  password: z.string().max(1024).optional(),
});
export type SecondFactorProofInput = z.infer<typeof secondFactorProofSchema>;

export const recoveryCodesSchema = z.object({
  recoveryCodes: z.array(z.string()),
  status: secondFactorStatusSchema,
});
export type RecoveryCodesResult = z.infer<typeof recoveryCodesSchema>;

/** The browser's one-field forms: a code (login step, confirming a setup). */
export const secondFactorCodeFormSchema = z.object({ code: secondFactorCodeSchema });
/** The browser's form before a setup starts: the password (the account has no code yet). */
export const secondFactorPasswordFormSchema = z.object({
  password: z.string({ error: SECOND_FACTOR.passwordRequired }).min(1, SECOND_FACTOR.passwordRequired).max(1024),
});
/** The browser's proof form (turn off, new codes): the password and a code. */
export const secondFactorProofFormSchema = z.object({
  password: z.string({ error: SECOND_FACTOR.passwordRequired }).min(1, SECOND_FACTOR.passwordRequired).max(1024),
  code: secondFactorCodeSchema,
});
