import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { test as base, expect, request, type APIRequestContext } from '@playwright/test';
import { generate } from 'otplib';
import { E2E } from '../../playwright.config';

/**
 * Every spec file gets servers of its own: the built console (as `npm start` runs it) on a fresh
 * data folder and a free port, started at the file's first test and stopped when the worker
 * moves on to another file. So no spec sees another's records, and any order, or two workers at
 * once, gives the same results. Inside a file the tests share their server, and a file's tests
 * signed in as a role share one sign-in, made through the API and kept as stored state (signIn).
 */

export type Role = 'SYSTEM_ADMIN' | 'ADMIN';
type StoredState = Awaited<ReturnType<APIRequestContext['storageState']>>;

export interface E2EAccount {
  id: string;
  username: string;
  password: string;
  fullname: string;
  email: string;
}

/** Server settings a spec changes with `test.use({ serverEnv })`; each distinct set is its own server. */
type ServerEnv = Record<string, string>;

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const PASSWORD = 'Field#Work1';
let counter = 0;

export function uniqueTag(): string {
  counter += 1;
  return `${Date.now().toString(36)}${process.pid.toString(36)}${counter}`;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net
      .createServer()
      .once('error', reject)
      .listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
  });
}

export class E2EServer {
  readonly url: string;
  private api: Promise<APIRequestContext> | null = null;
  private readonly states = new Map<Role, Promise<StoredState>>();
  private readonly roleAccounts = new Map<Role, Promise<E2EAccount>>();
  private readonly secrets = new Map<string, string>();
  /** Recovery codes shown when the fixtures set a second factor up: each confirms one change. */
  private readonly recoveryCodes = new Map<string, string[]>();
  private fixtureAccount: { username: string; password: string } | null = null;
  private exited = false;

  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
    readonly dataDir: string,
    private readonly output: string[],
  ) {
    this.url = `http://127.0.0.1:${port}`;
    child.once('exit', () => {
      this.exited = true;
    });
  }

  /** What the server has written to its log so far (its last 5,000 writes). */
  log(): string {
    return this.output.join('');
  }

  static async start(env: ServerEnv): Promise<E2EServer> {
    const port = await freePort();
    const dataDir = path.join(ROOT, '.tmp', 'e2e-data', `${port}-${uniqueTag()}`);
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.mkdirSync(dataDir, { recursive: true });
    const child = spawn(process.execPath, ['build/server/main.js'], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
        INITIAL_ADMIN_USERNAME: E2E.admin.username,
        INITIAL_ADMIN_PASSWORD: E2E.admin.password,
        INITIAL_ADMIN_FULLNAME: E2E.admin.fullname,
        INITIAL_ADMIN_EMAIL: E2E.admin.email,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: string[] = [];
    const keep = (chunk: Buffer) => {
      output.push(chunk.toString());
      if (output.length > 5000) output.shift();
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    const server = new E2EServer(child, port, dataDir, output);
    running.add(server);
    await server.waitUntilHealthy();
    return server;
  }

  private async waitUntilHealthy(): Promise<void> {
    const until = Date.now() + 60_000;
    for (;;) {
      if (this.exited) throw new Error(`the e2e server exited while starting:\n${this.output.join('')}`);
      const ok = await fetch(`${this.url}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return;
      if (Date.now() > until) throw new Error(`the e2e server did not answer within 60 s:\n${this.output.join('')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async stop(): Promise<void> {
    running.delete(this);
    await this.api?.then((api) => api.dispose()).catch(() => {});
    if (this.exited) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGTERM');
    const forced = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(forced);
  }

  /** Kills the process at once (the worker is exiting and cannot wait). */
  killNow(): void {
    if (!this.exited) this.child.kill('SIGKILL');
  }

  /**
   * A new API client signed in as `who`; the caller disposes it. On a server that requires
   * two-step sign-in of the account's role, the fixture sets it up with the key it is shown and
   * keeps the key for the account's later sign-ins.
   */
  async signedInApi(who: { username: string; password: string }): Promise<APIRequestContext> {
    const api = await request.newContext({ baseURL: this.url });
    const res = await api.post('/api/auth/login', { data: { identifier: who.username, password: who.password } });
    expect(res.status(), await res.text()).toBe(200);
    const body = (await res.json()) as { secondFactor?: 'verify' | 'enroll'; challenge?: string; setup?: { secret: string } };
    if (body.secondFactor) {
      if (body.setup) this.secrets.set(who.username, body.setup.secret);
      const secret = this.secrets.get(who.username);
      if (!secret) throw new Error(`${who.username} has a second factor the fixtures do not know`);
      // A recovery code where one is left: an app code of the step a sign-in already used is refused.
      const code = (!body.setup && this.recoveryCodes.get(who.username)?.shift()) || (await generate({ secret }));
      const step = await api.post('/api/auth/login/second-factor', { data: { challenge: body.challenge, code } });
      expect(step.status(), await step.text()).toBe(200);
      const codes = ((await step.json()) as { recoveryCodes?: string[] }).recoveryCodes;
      if (codes?.length) this.recoveryCodes.set(who.username, [...codes]);
    }
    return api;
  }

  /**
   * What the Accounts screen asks of its user to create a super admin: the password, and a
   * recovery code when the account has a second factor (an app code would use up the time
   * step its next sign-in needs).
   */
  private proofOf(who: { username: string; password: string }): { currentPassword: string; code?: string } {
    const code = this.recoveryCodes.get(who.username)?.shift();
    return { currentPassword: who.password, ...(code ? { code } : {}) };
  }

  /**
   * The fixtures' own super admin, signed in once through the API: it makes accounts and
   * changes records for the tests without ever signing a test's browser out.
   */
  fixtureApi(): Promise<APIRequestContext> {
    this.api ??= this.signInFixtureAdmin();
    return this.api;
  }

  private async signInFixtureAdmin(): Promise<APIRequestContext> {
    const bootstrap = await this.signedInApi(E2E.admin);
    const fixture = { username: `e2e_fixture_${uniqueTag()}`, password: PASSWORD };
    this.fixtureAccount = fixture;
    const res = await bootstrap.post('/api/accounts', {
      data: {
        ...fixture,
        fullname: 'Fixture Admin',
        email: `${fixture.username}@da.example`,
        role: 'SYSTEM_ADMIN',
        ...this.proofOf(E2E.admin),
      },
    });
    expect(res.status(), await res.text()).toBe(201);
    // Not the super admin's stored state: that session has just confirmed its password, and the
    // tests must meet the confirmation a fresh sign-in meets.
    await bootstrap.dispose();
    return this.signedInApi(fixture);
  }

  /** A new account made through the Accounts API, as a super admin adds one. */
  async account(role: Role = 'ADMIN', fullname?: string): Promise<E2EAccount> {
    const api = await this.fixtureApi();
    const tag = uniqueTag();
    const body = {
      username: `e2e_user_${tag}`,
      password: PASSWORD,
      fullname: fullname ?? `Jose Rizal ${tag}`,
      email: `e2e_${tag}@da.example`,
      role,
    };
    const res = await api.post('/api/accounts', {
      data: { ...body, ...(role === 'SYSTEM_ADMIN' ? this.proofOf(this.fixtureAccount!) : {}) },
    });
    expect(res.status(), await res.text()).toBe(201);
    const { id } = (await res.json()) as { id: string };
    return { id, username: body.username, password: body.password, fullname: body.fullname, email: body.email };
  }

  /** The account behind a role's stored sign-in: the bootstrap super admin, or one ADMIN made for the file. */
  async roleAccount(role: Role): Promise<E2EAccount> {
    if (role === 'SYSTEM_ADMIN') {
      const api = await this.fixtureApi();
      const res = await api.get(`/api/accounts?q=${encodeURIComponent(E2E.admin.username)}`);
      const found = ((await res.json()) as { items: Array<{ id: string; username: string }> }).items.find(
        (a) => a.username === E2E.admin.username,
      );
      return { ...E2E.admin, id: found!.id };
    }
    if (!this.roleAccounts.has(role)) this.roleAccounts.set(role, this.account(role, `Apolinario Mabini ${uniqueTag()}`));
    return this.roleAccounts.get(role)!;
  }

  /** Cookies of one sign-in per role, made through the API once and shared by the file's tests. */
  async storageState(role: Role): Promise<StoredState> {
    await this.fixtureApi();
    if (!this.states.has(role))
      this.states.set(
        role,
        this.roleAccount(role).then((account) => this.storageStateOf(account)),
      );
    return this.states.get(role)!;
  }

  /** Cookies of a new sign-in of `who` through the API (it ends that account's other sessions). */
  async storageStateOf(who: { username: string; password: string }): Promise<StoredState> {
    const api = await this.signedInApi(who);
    try {
      return await api.storageState();
    } finally {
      await api.dispose();
    }
  }
}

const running = new Set<E2EServer>();
// A worker stopped without its teardown (a crash, a timeout) leaves no server behind.
process.once('exit', () => {
  for (const server of running) server.killNow();
});

/** The servers of the spec file this worker runs now, by their settings. */
let current: { file: string; servers: Map<string, Promise<E2EServer>> } | null = null;

async function stopCurrent(): Promise<void> {
  if (!current) return;
  const servers = [...current.servers.values()];
  current = null;
  await Promise.all(servers.map(async (s) => (await s.catch(() => null))?.stop()));
}

async function serverFor(file: string, env: ServerEnv): Promise<E2EServer> {
  if (current?.file !== file) {
    await stopCurrent();
    current = { file, servers: new Map() };
  }
  const key = JSON.stringify(Object.entries(env).sort());
  if (!current.servers.has(key)) current.servers.set(key, E2EServer.start(env));
  return current.servers.get(key)!;
}

export const test = base.extend<{ app: E2EServer; serverEnv: ServerEnv; extraContextsClosed: void }, { serversStopped: void }>({
  serverEnv: [{}, { option: true }],
  // Contexts a test opens itself (a second browser, a phone) end with it: left open, their pages
  // keep polling a server that has stopped and take CPU from the tests after them.
  extraContextsClosed: [
    async ({ browser, context }, use) => {
      const kept = new Set([context, ...browser.contexts()]);
      await use();
      await Promise.all(
        browser
          .contexts()
          .filter((c) => !kept.has(c))
          .map((c) => c.close()),
      );
    },
    { auto: true },
  ],
  app: async ({ serverEnv }, use, testInfo) => {
    await use(await serverFor(testInfo.file, serverEnv));
  },
  baseURL: async ({ app }, use) => {
    await use(app.url);
  },
  serversStopped: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      await use();
      await stopCurrent();
    },
    { scope: 'worker', auto: true },
  ],
});

export { expect };
