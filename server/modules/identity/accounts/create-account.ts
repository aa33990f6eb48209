import type { Kysely, Transaction } from 'kysely';
import { z } from 'zod';
import { normalizeRole, type Role } from '../../../../common/permissions.js';
import {
  looksLikePasswordHash,
  passwordMeetsRules,
  passwordTooLong,
  PASSWORD_IS_HASH_MESSAGE,
  PASSWORD_RULES_MESSAGE,
  PASSWORD_TOO_LONG_MESSAGE,
} from '../../../../common/password.js';
import type { Database } from '../../../db/types.js';
import type { Actor } from '../../../platform/writes/audit.js';
import { runCommand, type Command } from '../../../platform/writes/command.js';
import { newId, nowIso } from '../../../platform/support/clock.js';
import { hashPassword } from '../../../platform/identity/passwords.js';
import { ACCOUNTS } from '../../../../common/accounts.js';
import { SHELL } from '../../../../common/texts.js';
import { accountsRepository, normalizeIdentity } from './repository.js';
import { uniqueViolationField } from './unique.js';

export interface NewAccount {
  username: string;
  password: string;
  email?: string | null | undefined;
  fullname: string;
  role: Role | string;
  contactNo?: string | null | undefined;
}

const emailShape = z.email();

/**
 * Creates an active, unrestricted account with its audit entry in one transaction.
 * Used by the first-start bootstrap and the create-admin command; the accounts screen's
 * service builds on the same rules.
 */
export async function createAccount(db: Kysely<Database>, input: NewAccount, actor: Actor | null): Promise<string> {
  const username = input.username.trim();
  if (username.length < 8) throw new Error('Username must be at least 8 characters');
  if (looksLikePasswordHash(input.password)) throw new Error(PASSWORD_IS_HASH_MESSAGE);
  if (!passwordMeetsRules(input.password)) throw new Error(PASSWORD_RULES_MESSAGE);
  if (passwordTooLong(input.password)) throw new Error(PASSWORD_TOO_LONG_MESSAGE);
  const email = input.email?.trim() || null;
  if (email && !emailShape.safeParse(email).success) throw new Error('Enter a valid email address');
  const role = normalizeRole(input.role);
  const password = await hashPassword(input.password);
  const id = newId();
  const now = nowIso();
  await runCommand({ db, events: null }, actor, async (trx, cmd) => {
    await insertAccountWithAudit(trx, cmd, {
      id,
      fullname: input.fullname.trim(),
      username,
      email,
      contactNo: input.contactNo?.trim() || null,
      password,
      role,
      now,
    });
  }).catch((err: unknown) => {
    const field = uniqueViolationField(err);
    if (field) throw new Error(field === 'username' ? ACCOUNTS.messages.usernameTaken : ACCOUNTS.messages.emailTaken);
    throw err;
  });
  return id;
}

/**
 * The one way an account row is born: active, unrestricted, with its CREATE audit entry in the
 * caller's command. The accounts screen, the first-start bootstrap and the create-admin
 * command all come through here.
 */
export async function insertAccountWithAudit(
  trx: Transaction<Database>,
  cmd: Command,
  account: {
    id: string;
    fullname: string;
    username: string;
    email: string | null;
    contactNo: string | null;
    password: string;
    role: Role;
    now: string;
  },
): Promise<void> {
  const { id, fullname, username, email, contactNo, password, role, now } = account;
  await accountsRepository.insert(trx, {
    id,
    fullname,
    username,
    normalizedUsername: normalizeIdentity(username),
    email,
    normalizedEmail: email ? normalizeIdentity(email) : null,
    contactNo,
    photoURL: null,
    password,
    securityQuestion: null,
    securityAnswer: null,
    role,
    status: 'active',
    isRestricted: 0,
    restrictedAt: null,
    autoInactive: 0,
    autoInactiveAt: null,
    currentSession: null,
    lastLogin: null,
    lastLogoutAt: null,
    createdAt: now,
    updatedAt: null,
    isDeleted: 0,
    deletedAt: null,
    deletedBy: null,
  });
  await cmd.audit({
    action: 'CREATE',
    collection: 'accounts',
    documentId: id,
    documentName: fullname,
    description: `Created ${SHELL.roleLabel[role]} account ${username}`,
    changes: { before: null, after: { fullname, username, email, role, status: 'active' } },
  });
}
