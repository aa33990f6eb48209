import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { expect, type Page } from '@playwright/test';
import { E2E } from '../../playwright.config';

let counter = 0;

export interface E2EAccount {
  username: string;
  password: string;
  fullname: string;
  email: string;
}

/** Adds an account through the real command line, against the running server's data folder. */
export function createAccountViaCli(role: 'ADMIN' | 'SYSTEM_ADMIN' = 'ADMIN', dataDir = E2E.main.dataDir, fullname?: string): E2EAccount {
  counter += 1;
  const tag = `${Date.now().toString(36)}${counter}`;
  const account = { username: `e2e_user_${tag}`, password: 'Field#Work1', fullname: fullname ?? `Jose Rizal ${tag}`, email: `e2e_${tag}@da.example` };
  execFileSync('npx', ['tsx', 'server/cli/create-admin.ts', '--username', account.username, '--password', account.password,
    '--email', account.email, '--fullname', account.fullname, '--role', role], { env: { ...process.env, DATA_DIR: dataDir }, stdio: 'pipe' });
  return account;
}

/** Sets an account's state straight in the database file (for states no screen makes yet). */
export function setAccountState(username: string, state: { status?: string; isRestricted?: number; isDeleted?: number }, dataDir = E2E.main.dataDir): void {
  const db = new SQLite(path.join(dataDir, 'palayan.sqlite'));
  try {
    const sets = Object.keys(state).map((k) => `"${k}" = @${k}`).join(', ');
    db.prepare(`update accounts set ${sets} where username = @username`).run({ ...state, username });
  } finally {
    db.close();
  }
}

export async function loginViaUi(page: Page, identifier: string, password: string, baseURL?: string): Promise<void> {
  await page.goto(`${baseURL ?? ''}/login`);
  await page.getByLabel('Username or email').fill(identifier);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Password', { exact: true }).press('Enter');
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 15_000 });
}

/**
 * Adds audit entries as an import of older data does: through `npm run import` on the running
 * server's data folder, so they join the audit chain like any other entry.
 */
export function importAuditEntries(entries: Array<Record<string, unknown>>, dataDir = E2E.main.dataDir): void {
  const auditLogs = Object.fromEntries(entries.map((e) => [crypto.randomUUID(), Object.fromEntries(Object.entries(e).filter(([, v]) => v !== null && v !== undefined))]));
  const file = path.join(dataDir, '..', `audit-import-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  fs.writeFileSync(file, JSON.stringify({ audit_logs: auditLogs }));
  try {
    execFileSync('npx', ['tsx', 'server/cli/import.ts', file, '--no-fetch'], { env: { ...process.env, DATA_DIR: dataDir }, stdio: 'pipe' });
  } finally {
    fs.rmSync(file, { force: true });
  }
}
