import { z } from './zod.js';
import {
  PASSWORD_IS_HASH_MESSAGE,
  PASSWORD_TOO_LONG_MESSAGE,
  looksLikePasswordHash,
  passwordMeetsRules,
  passwordTooLong,
} from '../password.js';
import { RECOVERY } from '../profile.js';

/**
 * Forgot password (docs/PRODUCT.md sections 4 and 5) and the email-link reset. Each form's schema is
 * also its route's body schema; the route adds the opaque id or token of the flow.
 */
const shortText = (message: string) => z.string({ error: message }).trim().min(1, message).max(300);

export const identifySchema = z.object({ identifier: shortText(RECOVERY.identifierRequired) });
export type IdentifyInput = z.infer<typeof identifySchema>;
export const identifyResultSchema = z.object({ recoveryId: z.string() });

export const answerFieldsSchema = z.object({
  question: shortText(RECOVERY.questionRequired),
  answer: shortText(RECOVERY.answerRequired),
});
export type AnswerFields = z.infer<typeof answerFieldsSchema>;
export const verifySchema = answerFieldsSchema.extend({ recoveryId: z.string().min(1).max(200) });
export type VerifyInput = z.infer<typeof verifySchema>;
export const verifyResultSchema = z.object({ resetToken: z.string() });

export const passwordFieldsShape = {
  newPassword: z.string({ error: RECOVERY.fillBoth }).min(1, RECOVERY.fillBoth).max(1024),
  confirmPassword: z.string({ error: RECOVERY.fillBoth }).min(1, RECOVERY.fillBoth).max(1024),
};

/** Step 3's order: both filled, then the checklist, then the match. */
export function passwordRules(v: { newPassword?: unknown; confirmPassword?: unknown }, ctx: z.RefinementCtx): void {
  if (typeof v.newPassword !== 'string' || typeof v.confirmPassword !== 'string' || v.newPassword === '' || v.confirmPassword === '')
    return;
  if (!passwordMeetsRules(v.newPassword)) {
    ctx.addIssue({ code: 'custom', path: ['newPassword'], message: RECOVERY.rulesNotMet });
    return;
  }
  if (passwordTooLong(v.newPassword)) {
    ctx.addIssue({ code: 'custom', path: ['newPassword'], message: PASSWORD_TOO_LONG_MESSAGE });
    return;
  }
  if (looksLikePasswordHash(v.newPassword)) {
    ctx.addIssue({ code: 'custom', path: ['newPassword'], message: PASSWORD_IS_HASH_MESSAGE });
    return;
  }
  if (v.newPassword !== v.confirmPassword)
    ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: RECOVERY.passwordsDontMatch });
}

export const newPasswordSchema = z.object(passwordFieldsShape).superRefine(passwordRules);
export type NewPasswordInput = z.infer<typeof newPasswordSchema>;
export const recoveryResetSchema = z.object({ ...passwordFieldsShape, resetToken: z.string().min(1).max(200) }).superRefine(passwordRules);
export const emailLinkResetSchema = z.object({ ...passwordFieldsShape, token: z.string().min(1).max(200) }).superRefine(passwordRules);

export const emailLinkQuerySchema = z.object({ token: z.string().min(1).max(200) });
export const emailLinkStatusSchema = z.object({ valid: z.literal(true), expiresAt: z.string() });
export const securityQuestionsSchema = z.object({ securityQuestions: z.array(z.string()) });
export const okSchema = z.object({ ok: z.literal(true) });

/** The invitation page: does the link still work, and whose account is it. */
export const invitationStatusSchema = z.object({
  valid: z.literal(true),
  fullname: z.string(),
  username: z.string(),
  expiresAt: z.string(),
});
export const invitationAcceptSchema = z.object({ ...passwordFieldsShape, token: z.string().min(1).max(200) }).superRefine(passwordRules);
