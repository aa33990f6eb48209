/** The password checklist shown live in forms and enforced by the server (SPEC.md section 5). */
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
