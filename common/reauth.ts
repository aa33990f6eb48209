import type { Role } from './permissions.js';

/**
 * The Accounts screen's changes that could hand an account to whoever holds the editor's
 * session: they need the editor's current password (and a code when the editor has a second
 * factor), as Account Settings' own email and question changes do. The server enforces this
 * (credentials/identity.ts); the browser reads it to show the password field before it is asked.
 */
export function accountCreateNeedsReauth(input: { role: Role }): boolean {
  return input.role === 'SYSTEM_ADMIN';
}

export function accountEditNeedsReauth(
  stored: { email: string | null; role: Role },
  input: { email: string; password?: string | undefined; role?: Role | undefined },
): boolean {
  const emailChanged = input.email.trim().toLowerCase() !== (stored.email ?? '').trim().toLowerCase();
  const roleChanged = input.role !== undefined && input.role !== stored.role;
  return emailChanged || roleChanged || (input.password ?? '') !== '';
}
