import fs from 'node:fs';
import { execFile, execFileSync } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { expect, request, type APIRequestContext, type Page } from '@playwright/test';
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

/**
 * A signed-in API client of the running server, as `who` (by default a super admin made for
 * fixtures, so the tests' own browser sessions are never replaced by its login). Fixtures go
 * through the API or the command line, never the database file, so they work on either engine.
 */
export async function apiAs(who?: { username: string; password: string }, baseURL = `http://127.0.0.1:${E2E.main.port}`): Promise<APIRequestContext> {
  const account = who ?? fixtureAdmin();
  const api = await request.newContext({ baseURL });
  const res = await api.post('/api/auth/login', { data: { identifier: account.username, password: account.password } });
  expect(res.status(), await res.text()).toBe(200);
  return api;
}

let fixtureAccount: E2EAccount | undefined;
function fixtureAdmin(): E2EAccount {
  fixtureAccount ??= createAccountViaCli('SYSTEM_ADMIN', E2E.main.dataDir, 'Fixture Admin');
  return fixtureAccount;
}

/** An account's id and name, found through the accounts API by its username. */
export async function accountByUsername(username: string): Promise<{ id: string; fullname: string }> {
  const api = await apiAs();
  try {
    const res = await api.get(`/api/accounts?q=${encodeURIComponent(username)}`);
    const found = (await res.json() as { items: Array<{ id: string; fullname: string; username: string }> }).items.find((a) => a.username === username);
    if (!found) throw new Error(`no account ${username}`);
    return { id: found.id, fullname: found.fullname };
  } finally {
    await api.dispose();
  }
}

/** Restricts or deletes an account the way a super admin does, through the accounts API. */
export async function blockAccount(username: string, how: 'restrict' | 'delete'): Promise<void> {
  const { id, fullname } = await accountByUsername(username);
  const api = await apiAs();
  try {
    const res = how === 'restrict'
      ? await api.post(`/api/accounts/${id}/restrict`, { data: { confirmName: fullname } })
      : await api.delete(`/api/accounts/${id}`, { data: { confirmName: fullname } });
    expect(res.status(), await res.text()).toBe(how === 'restrict' ? 200 : 204);
  } finally {
    await api.dispose();
  }
}

/** Sets the account's own security question and answer through Account Settings' API. */
export async function setSecurityQuestion(account: { username: string; password: string }, question: string, answer: string): Promise<void> {
  const api = await apiAs(account);
  try {
    const profile = await (await api.get('/api/profile')).json() as { fullname: string; email: string | null; contactNo: string | null; version: number };
    const res = await api.put('/api/profile', {
      data: { fullname: profile.fullname, email: profile.email ?? '', contactNo: profile.contactNo ?? '', securityQuestion: question, securityAnswer: answer, version: profile.version },
    });
    expect(res.status(), await res.text()).toBe(200);
    await api.post('/api/auth/logout');
  } finally {
    await api.dispose();
  }
}

/**
 * Imports Firestore-export collections with the real import command on the running server's
 * data folder. Image URLs are fetched when `files` is given: they are served for the command
 * from a loopback server (url: /<name>).
 */
export async function importExport(collections: Record<string, Record<string, Record<string, unknown>>>, files?: Record<string, Buffer>, dataDir = E2E.main.dataDir): Promise<void> {
  let server: http.Server | null = null;
  let origin = '';
  if (files) {
    server = http.createServer((req, res) => {
      const body = files[decodeURIComponent((req.url ?? '/').slice(1))];
      if (!body) { res.statusCode = 404; res.end(); return; }
      res.setHeader('content-type', 'image/jpeg');
      res.end(body);
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  }
  const json = JSON.stringify(collections).replaceAll('{{files}}', origin);
  const file = path.join(dataDir, '..', `import-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  fs.writeFileSync(file, json);
  try {
    const args = ['tsx', 'server/cli/import.ts', file, ...(files ? [] : ['--no-fetch'])];
    // Asynchronous: the command fetches from this process's loopback server.
    await new Promise<void>((resolve, reject) => {
      execFile('npx', args, { env: { ...process.env, DATA_DIR: dataDir } }, (err, _out, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve()));
    });
  } finally {
    fs.rmSync(file, { force: true });
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
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
