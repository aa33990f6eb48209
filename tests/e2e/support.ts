import fs from 'node:fs';
import { execFile } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, type E2EAccount, type E2EServer, type Role } from './fixtures';

/** Restricts or deletes an account the way a super admin does, through the accounts API. */
export async function blockAccount(app: E2EServer, account: E2EAccount, how: 'restrict' | 'delete'): Promise<void> {
  const api = await app.fixtureApi();
  const res =
    how === 'restrict'
      ? await api.post(`/api/accounts/${account.id}/restrict`, { data: { confirmName: account.fullname } })
      : await api.delete(`/api/accounts/${account.id}`, { data: { confirmName: account.fullname } });
  expect(res.status(), await res.text()).toBe(how === 'restrict' ? 200 : 204);
}

/** Sets the account's own security question and answer through Account Settings' API. */
export async function setSecurityQuestion(
  app: E2EServer,
  account: { username: string; password: string },
  question: string,
  answer: string,
): Promise<void> {
  const api = await app.signedInApi(account);
  try {
    const profile = (await (await api.get('/api/profile')).json()) as {
      fullname: string;
      email: string | null;
      contactNo: string | null;
      version: number;
    };
    const res = await api.put('/api/profile', {
      data: {
        fullname: profile.fullname,
        email: profile.email ?? '',
        contactNo: profile.contactNo ?? '',
        securityQuestion: question,
        securityAnswer: answer,
        version: profile.version,
        currentPassword: account.password,
      },
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
export async function importExport(
  app: E2EServer,
  collections: Record<string, Record<string, Record<string, unknown>>>,
  files?: Record<string, Buffer>,
): Promise<void> {
  let server: http.Server | null = null;
  let origin = '';
  if (files) {
    server = http.createServer((req, res) => {
      const body = files[decodeURIComponent((req.url ?? '/').slice(1))];
      if (!body) {
        res.statusCode = 404;
        res.end();
        return;
      }
      res.setHeader('content-type', 'image/jpeg');
      res.end(body);
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  }
  const json = JSON.stringify(collections).replaceAll('{{files}}', origin);
  const file = path.join(app.dataDir, '..', `import-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  fs.writeFileSync(file, json);
  try {
    // The photos come from this test's own server on 127.0.0.1.
    await runImport(app, file, files ? ['--allow-private-addresses'] : ['--no-fetch']);
  } finally {
    fs.rmSync(file, { force: true });
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }
}

/**
 * Starts the page signed in, for tests of something other than signing in: as the file's account
 * of a role (the first super admin, or an ADMIN made for the file), whose one sign-in through the
 * API the file's tests share, or as an account of the test's own, signed in through the API.
 * Opens `to` (the dashboard by default) and waits until the signed-in shell shows.
 */
export async function signIn(page: Page, app: E2EServer, who: Role | E2EAccount, to = '/dashboard'): Promise<E2EAccount> {
  const state = typeof who === 'string' ? await app.storageState(who) : await app.storageStateOf(who);
  // Leave the current page first: a late 401 of a signed-out page forgets the hint cookie, and
  // would forget the one added here.
  if (page.url() !== 'about:blank') await page.goto('about:blank');
  await page.context().addCookies(state.cookies);
  await page.goto(to);
  await expect(page.getByTestId('header-name')).toBeAttached();
  return typeof who === 'string' ? app.roleAccount(who) : who;
}

/** Signs in through the login screen, for tests of signing in itself (others start signed in: `signedInAs`). */
export async function loginViaUi(page: Page, identifier: string, password: string): Promise<void> {
  await page.goto('/login');
  // The form can re-render while the page settles: start once nothing is loading, then make
  // sure both values are in place together (each field cleared before it is filled).
  await page.waitForLoadState('networkidle');
  const username = page.getByLabel('Username or email');
  const passwordField = page.getByLabel('Password', { exact: true });
  await expect(async () => {
    await username.clear();
    await username.fill(identifier);
    await passwordField.clear();
    await passwordField.fill(password);
    await expect(username).toHaveValue(identifier, { timeout: 500 });
    await expect(passwordField).toHaveValue(password, { timeout: 500 });
  }).toPass();
  await passwordField.press('Enter');
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 15_000 });
}

/**
 * Adds audit entries as an import of older data does: through the import command on the
 * running server's data folder, so they join the audit chain like any other entry.
 */
export async function importAuditEntries(app: E2EServer, entries: Array<Record<string, unknown>>): Promise<void> {
  const auditLogs = Object.fromEntries(
    entries.map((e) => [crypto.randomUUID(), Object.fromEntries(Object.entries(e).filter(([, v]) => v !== null && v !== undefined))]),
  );
  const file = path.join(app.dataDir, '..', `audit-import-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  fs.writeFileSync(file, JSON.stringify({ audit_logs: auditLogs }));
  try {
    await runImport(app, file, ['--no-fetch']);
  } finally {
    fs.rmSync(file, { force: true });
  }
}

/** Firestore variety documents (by id) imported with the built import command, as an office moving from the old app does. */
export async function importVarietyDocs(app: E2EServer, docs: Record<string, Record<string, unknown>>): Promise<void> {
  const file = path.join(app.dataDir, '..', `variety-import-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  fs.writeFileSync(file, JSON.stringify({ rice_seed_varieties: docs }));
  try {
    await runImport(app, file, ['--no-fetch']);
  } finally {
    fs.rmSync(file, { force: true });
  }
}

/** The built import command (as a production install runs it), asynchronous: it may fetch from this process. */
function runImport(app: E2EServer, file: string, flags: string[]): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    execFile(
      process.execPath,
      ['build/server/cli/import.js', file, ...flags],
      { env: { ...process.env, DATA_DIR: app.dataDir } },
      (err, _out, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve()),
    );
  });
}

/**
 * Uploads go through Chromium's own network throttling (DevTools network conditions), so the
 * real upload route is slow the way a provincial office's link is; nothing in the app or the
 * server knows it is being tested. `restore` lifts the limit.
 */
export async function throttleUploads(page: Page, bytesPerSecond: number): Promise<{ restore(): Promise<void> }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 20,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond,
  });
  return {
    restore: async () => {
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    },
  };
}
