/** The password checklist shown live in forms and enforced by the server (docs/PRODUCT.md section 5). */
export const PASSWORD_SPECIAL_CHARS = '!@#$%^&*(),.?":{}|<>';

export const PASSWORD_RULES = [
  { id: 'length', label: 'At least 8 characters', test: (p: string) => p.length >= 8 },
  { id: 'uppercase', label: 'One uppercase letter', test: (p: string) => /[A-Z]/.test(p) },
  { id: 'number', label: 'One number', test: (p: string) => /[0-9]/.test(p) },
  {
    id: 'special',
    label: 'One special character',
    test: (p: string) => [...p].some((ch) => PASSWORD_SPECIAL_CHARS.includes(ch)),
  },
] as const;

export function passwordMeetsRules(password: string): boolean {
  return PASSWORD_RULES.every((rule) => rule.test(password));
}

export const PASSWORD_RULES_MESSAGE = 'Password does not meet all requirements';

/** bcrypt reads only the first 72 bytes: a longer password would silently lose its end. */
export const PASSWORD_MAX_BYTES = 72;
export const PASSWORD_TOO_LONG_MESSAGE =
  'Password is too long: use at most 72 bytes (72 plain letters and digits, fewer with accented letters or emoji).';

/** A complete bcrypt hash ('$2a$10$' + 53 characters). */
const BCRYPT_HASH = /^\$2[abxy]\$\d{2}\$[./A-Za-z0-9]{53}$/;
export const PASSWORD_IS_HASH_MESSAGE = 'Enter the password itself, not a stored password hash.';

/** Console users type passwords; a ready-made hash would let someone set one nobody typed. */
export function looksLikePasswordHash(password: string): boolean {
  return BCRYPT_HASH.test(password);
}

export function passwordTooLong(password: string): boolean {
  return new TextEncoder().encode(password).length > PASSWORD_MAX_BYTES;
}
