import { z } from './zod.js';
import { LIMITS } from '../limits.js';
import { CHANGE_PASSWORD, SETTINGS } from '../profile.js';
import { accountIdentitySchema } from './auth.js';
import { reauthFields } from './accounts.js';
import { passwordFieldsShape, passwordRules } from './recovery.js';

/** The signed-in user's own account as Account Settings shows it: never a hash or an answer. */
export const profileSchema = accountIdentitySchema.extend({
  securityQuestion: z.string().nullable(),
  /** A stored answer exists (it is never sent). */
  hasSecurityAnswer: z.boolean(),
  version: z.number(),
});
export type Profile = z.infer<typeof profileSchema>;

const emailShape = z.email();
const CONTACT = /^[0-9+()\-\s]{7,20}$/;
const max = LIMITS.maxShortTextLength;

const fieldsShape = {
  fullname: z.string({ error: SETTINGS.fullnameRequired }).trim().min(1, SETTINGS.fullnameRequired).max(max),
  email: z
    .string()
    .trim()
    .max(max)
    .refine((v) => v === '' || emailShape.safeParse(v).success, SETTINGS.invalidEmail),
  contactNo: z
    .string()
    .trim()
    .max(max)
    .refine((v) => v === '' || CONTACT.test(v), SETTINGS.invalidContact),
  securityQuestion: z.string().trim().max(max),
  securityAnswer: z.string().trim().max(max).default(''),
  /** Keep the stored answer: the question is unchanged and the answer field was left blank. */
  keepAnswer: z.boolean().default(false),
  /** Needed when the email or the security question or answer changes (see REAUTH_WINDOW_MS). */
  ...reauthFields,
};

/** docs/PRODUCT.md section 5: a chosen question needs a non-empty trimmed answer (or the kept one). */
function answerRule(v: { securityQuestion?: unknown; securityAnswer?: unknown; keepAnswer?: unknown }, ctx: z.RefinementCtx): void {
  const question = typeof v.securityQuestion === 'string' ? v.securityQuestion.trim() : '';
  const answer = typeof v.securityAnswer === 'string' ? v.securityAnswer.trim() : '';
  if (question !== '' && answer === '' && v.keepAnswer !== true) {
    ctx.addIssue({ code: 'custom', path: ['securityAnswer'], message: SETTINGS.answerRequired });
  }
}

/** The Account Settings form. Text fields are trimmed (docs/PRODUCT.md section 5). */
export const profileFormSchema = z.object(fieldsShape).superRefine(answerRule);
export type ProfileFormInput = z.input<typeof profileFormSchema>;
export type ProfileFormValues = z.output<typeof profileFormSchema>;

/** PUT /api/profile: the form plus the staged picture and the version the form edited. */
export const profileUpdateSchema = z
  .object({
    ...fieldsShape,
    avatarKey: z.string().max(max).nullable().optional(),
    version: z.number().int().positive().optional(),
  })
  .superRefine(answerRule);
export type ProfileUpdateInput = z.infer<typeof profileUpdateSchema>;

export const avatarUploadResultSchema = z.object({ avatarKey: z.string(), previewURL: z.string() });
export const resetEmailResultSchema = z.object({ sentTo: z.string() });

/**
 * Account Settings' Change password, and the body of POST /api/profile/password: the current
 * password is always asked (no five-minute grace), a code too when the account has a second
 * factor; the new one passes the checklist, matches its confirmation and differs from the current.
 */
export const changePasswordSchema = z
  .object({
    currentPassword: z.string({ error: CHANGE_PASSWORD.currentRequired }).min(1, CHANGE_PASSWORD.currentRequired).max(1024),
    ...passwordFieldsShape,
    code: z.string().trim().max(64).optional(),
  })
  .superRefine((v, ctx) => {
    passwordRules(v, ctx);
    if (typeof v.newPassword === 'string' && v.newPassword !== '' && v.newPassword === v.currentPassword)
      ctx.addIssue({ code: 'custom', path: ['newPassword'], message: CHANGE_PASSWORD.sameAsCurrent });
  });
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;
export const passwordChangedSchema = z.object({ endedSessions: z.number() });
