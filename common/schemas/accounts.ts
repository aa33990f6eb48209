import { z } from './zod.js';
import { accountIdentitySchema } from './auth.js';
import { ACCOUNTS } from '../accounts.js';
import { LIMITS } from '../limits.js';
import {
  PASSWORD_IS_HASH_MESSAGE,
  PASSWORD_RULES_MESSAGE,
  PASSWORD_TOO_LONG_MESSAGE,
  looksLikePasswordHash,
  passwordMeetsRules,
  passwordTooLong,
} from '../password.js';
import { ROLES } from '../permissions.js';

const M = ACCOUNTS.messages;

/** docs/PRODUCT.md section 5: an email must look like x@y.z. */
export const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const fullnameField = z
  .string({ error: M.fullnameRequired })
  .trim()
  .min(1, M.fullnameRequired)
  .max(LIMITS.maxShortTextLength, M.tooLong);

export const usernameField = z
  .string({ error: M.usernameMin })
  .trim()
  .min(LIMITS.usernameMinLength, M.usernameMin)
  .max(LIMITS.maxShortTextLength, M.tooLong)
  .regex(/^[^\s@]+$/, M.usernameChars);

export const emailField = z
  .string({ error: M.emailInvalid })
  .trim()
  .max(LIMITS.maxShortTextLength, M.tooLong)
  .regex(EMAIL_SHAPE, M.emailInvalid);

/**
 * A new account's password: the checklist must pass and it must fit bcrypt's 72 bytes. It is
 * always hashed by the server; text shaped like a bcrypt hash is refused.
 */
export const newPasswordField = z
  .string({ error: PASSWORD_RULES_MESSAGE })
  .refine((p) => !looksLikePasswordHash(p), PASSWORD_IS_HASH_MESSAGE)
  .refine((p) => !passwordTooLong(p), PASSWORD_TOO_LONG_MESSAGE)
  .refine((p) => passwordMeetsRules(p), PASSWORD_RULES_MESSAGE);

/** On edit an empty password keeps the stored one; anything else must pass the same rules. */
export const changedPasswordField = z
  .string({ error: PASSWORD_RULES_MESSAGE })
  .refine((p) => !looksLikePasswordHash(p), PASSWORD_IS_HASH_MESSAGE)
  .refine((p) => !passwordTooLong(p), PASSWORD_TOO_LONG_MESSAGE)
  .refine((p) => p === '' || passwordMeetsRules(p), PASSWORD_RULES_MESSAGE);

/**
 * The editor's own current password, and a code when the editor has a second factor: asked for
 * the changes of common/reauth.ts, and may be left out within 5 minutes of the last time.
 */
export const reauthFields = {
  currentPassword: z.string().max(1024).optional(),
  code: z.string().trim().max(64).optional(),
};
export const reauthSchema = z.object(reauthFields);
export type ReauthInput = z.infer<typeof reauthSchema>;

/** The Add New Admin form, and the body of POST /api/accounts. */
export const accountCreateSchema = z.object({
  fullname: fullnameField,
  email: emailField,
  username: usernameField,
  password: newPasswordField,
  role: z.enum(ROLES),
  ...reauthFields,
});
export type AccountCreateInput = z.infer<typeof accountCreateSchema>;

/** Add New Admin with an invitation: no password; the invitee sets one through the link. */
export const accountInviteSchema = accountCreateSchema.omit({ password: true });
export type AccountInviteInput = z.infer<typeof accountInviteSchema>;

/**
 * The Add New Admin form: a typed password (checked as on POST /api/accounts) or an invitation
 * (POST /api/accounts/invitations), chosen in the form.
 */
export const accountAddFormSchema = accountInviteSchema
  .extend({ method: z.enum(['password', 'invite']), password: z.string().max(1024) })
  .superRefine((v, ctx) => {
    if (v.method !== 'password') return;
    const checked = newPasswordField.safeParse(v.password);
    if (!checked.success) ctx.addIssue({ code: 'custom', path: ['password'], message: checked.error.issues[0]!.message });
  });
export type AccountAddFormValues = z.output<typeof accountAddFormSchema>;

/**
 * The Edit Admin form, and the body of PUT /api/accounts/:id. The form never sends `role` (its
 * selector is disabled); the API accepts one so a role change stays possible, ending the
 * account's sessions. `version` is the version the form was opened on.
 */
export const accountUpdateSchema = z.object({
  fullname: fullnameField,
  email: emailField,
  username: usernameField,
  password: changedPasswordField.optional().default(''),
  role: z.enum(ROLES).optional(),
  version: z.number().int().min(1),
  ...reauthFields,
});
export type AccountUpdateInput = z.infer<typeof accountUpdateSchema>;
export type AccountUpdateFormValues = z.input<typeof accountUpdateSchema>;

/** Restrict and delete carry the full name the user typed (compared trimmed, docs/PRODUCT.md section 5). */
export const confirmNameSchema = z.object({
  confirmName: z.string({ error: M.nameMismatch }).max(LIMITS.maxShortTextLength, M.nameMismatch),
});

export const accountIdParams = z.object({ id: z.string().min(1).max(100) });

export const accountListQuery = z.object({
  q: z
    .string()
    .max(LIMITS.maxShortTextLength)
    .optional()
    .default('')
    .transform((s) => s.trim()),
  page: z.coerce.number().int().min(1).max(1_000_000).optional().default(1),
});
export type AccountListQuery = z.infer<typeof accountListQuery>;

export const availabilityQuery = z.object({
  field: z.enum(['username', 'email']),
  value: z.string().max(LIMITS.maxShortTextLength),
  excludeId: z.string().max(100).optional(),
});
export type AvailabilityQuery = z.infer<typeof availabilityQuery>;
export const availabilitySchema = z.object({ available: z.boolean() });

/** What the admin list and detail show. Never a hash, a security answer or a session. */
export const adminAccountSchema = accountIdentitySchema.extend({
  role: z.enum(ROLES),
  status: z.string(),
  displayStatus: z.enum(['active', 'inactive', 'restricted']),
  isRestricted: z.boolean(),
  restrictedAt: z.string().nullable(),
  autoInactive: z.boolean(),
  autoInactiveAt: z.string().nullable(),
  lastLogin: z.string().nullable(),
  lastLogoutAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string().nullable(),
  /** True when the account is the actor of an audit entry: it cannot be deleted. */
  hasActivities: z.boolean(),
  /** The second factor is on (the reset action applies); never the key or codes. */
  hasSecondFactor: z.boolean(),
  /** No password yet (invited, or restored from the trash): nobody can sign in until one is set. */
  needsPassword: z.boolean(),
  /** While wrong passwords or codes keep it locked: when the lock ends (a super admin may Unlock it sooner). */
  signInLockedUntil: z.string().nullable(),
  version: z.number(),
});
export type AdminAccount = z.infer<typeof adminAccountSchema>;

export const accountListSchema = z.object({
  items: z.array(adminAccountSchema),
  page: z.number(),
  pageSize: z.number(),
  pageCount: z.number(),
  total: z.number(),
});
export type AccountList = z.infer<typeof accountListSchema>;

/**
 * An invitation made: mailed (`email`), or, when the server sends no email or the email failed,
 * the link itself (`link`), in this answer only: it is stored nowhere but as a hash.
 */
export const invitationResultSchema = z.object({
  account: adminAccountSchema,
  delivery: z.enum(['email', 'link']),
  sentTo: z.string().nullable(),
  link: z.string().nullable(),
  mailFailed: z.boolean(),
  expiresAt: z.string(),
});
export type InvitationResult = z.infer<typeof invitationResultSchema>;
