import type { Config } from './config.js';
import type { AppContext } from './platform/http/context.js';
import { accountsRecords } from './modules/identity/accounts/index.js';
import { createAccount } from './modules/identity/accounts/index.js';
import { generatePassword } from './platform/identity/passwords.js';

/**
 * First start with no accounts creates the first super admin, from INITIAL_ADMIN_* when set,
 * otherwise with a generated password printed once. There is no fixed default password.
 */
export async function ensureInitialAdmin(ctx: AppContext, print: (line: string) => void = console.log): Promise<void> {
  if ((await accountsRecords.countAll(ctx.db)) > 0) return;
  const given = ctx.config.initialAdmin;
  const username = given.username?.trim() || 'superadmin';
  const password = given.password || generatePassword();
  try {
    await createAccount(
      ctx.db,
      {
        username,
        password,
        email: given.email || null,
        fullname: given.fullname?.trim() || 'Super Admin',
        role: 'SYSTEM_ADMIN',
      },
      null,
    );
  } catch (err) {
    // Another instance starting at the same moment created it first.
    if ((await accountsRecords.countAll(ctx.db)) > 0) return;
    throw err;
  }
  if (!given.password) {
    print('');
    print('  First start: a super admin account was created.');
    print(`    username: ${username}`);
    print(`    password: ${password}`);
    print('  This password is shown only once. Sign in and change it in Account Settings.');
    print('');
  } else {
    print(`First start: super admin "${username}" created from INITIAL_ADMIN_* settings.`);
  }
}

export function describeDatabase(config: Config): string {
  return config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `SQLite in ${config.dataDir}`;
}
