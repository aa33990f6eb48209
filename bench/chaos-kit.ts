/**
 * What the fault experiments of bench/chaos.ts share: the production server as a child process
 * (started, killed, stopped), a signed-in client of its API, answers tallied by status and error
 * code, the database read directly, and the bundle's operations command.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import sharp from 'sharp';

export const root = path.resolve(import.meta.dirname, '..');
export const USER = { username: 'chaos_admin', password: 'Chaos#Pass1', fullname: 'Chaos Admin', email: 'chaos@example.test' };
export const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'palayan-chaos-logs-'));
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const rand = () => Math.random().toString(36).slice(2, 10);

/** Every server process started, so an interrupted run still stops them. */
const running = new Set<ChildProcess>();
export function killAll(): void {
  for (const child of running) child.kill('SIGKILL');
}
export function track(child: ChildProcess): ChildProcess {
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

export interface Server {
  name: string;
  url: string;
  port: number;
  child: ChildProcess;
  alive(): boolean;
  startedInMs: number;
}
export interface ServerOptions {
  port: number;
  dataDir: string;
  databaseUrl?: string;
  env?: Record<string, string>;
  log: string;
}

export async function startServer(o: ServerOptions): Promise<Server> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env))
    if (name === 'DATABASE_URL' || name.startsWith('S3_') || name.startsWith('INITIAL_ADMIN_')) delete env[name];
  Object.assign(env, {
    PORT: String(o.port),
    HOST: '127.0.0.1',
    DATA_DIR: o.dataDir,
    LOG_LEVEL: 'warn',
    LOGIN_RATE_LIMIT_PER_MINUTE: '10000',
    INITIAL_ADMIN_USERNAME: USER.username,
    INITIAL_ADMIN_PASSWORD: USER.password,
    INITIAL_ADMIN_FULLNAME: USER.fullname,
    INITIAL_ADMIN_EMAIL: USER.email,
    ...(o.databaseUrl ? { DATABASE_URL: o.databaseUrl } : {}),
    ...o.env,
  });
  const out = fs.openSync(path.join(logDir, `${o.log}.log`), 'a');
  const started = performance.now();
  const child = spawn(process.execPath, ['build/server/main.js'], { cwd: root, env, stdio: ['ignore', out, out] });
  fs.closeSync(out);
  track(child);
  const server: Server = {
    name: o.log,
    url: `http://127.0.0.1:${o.port}`,
    port: o.port,
    child,
    alive: () => child.exitCode === null && child.signalCode === null,
    startedInMs: 0,
  };
  for (const until = Date.now() + 60_000; Date.now() < until && server.alive();) {
    const res = await call(server.url, '/api/health', {}, 2000);
    if (res.status === 200) return { ...server, startedInMs: Math.round(performance.now() - started) };
    await sleep(25);
  }
  child.kill('SIGKILL');
  throw new Error(`server ${o.log} did not start (log: ${path.join(logDir, `${o.log}.log`)})`);
}

export function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', () => r()));
}

export async function kill9(server: Server): Promise<void> {
  server.child.kill('SIGKILL');
  await exited(server.child);
}

/** SIGTERM (a graceful close), then SIGKILL after 15 s. */
export async function stopServer(server: Server | undefined): Promise<void> {
  if (!server || !server.alive()) return;
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => {
    console.log(`  server ${server.name} still running 15 s after SIGTERM: killed`);
    server.child.kill('SIGKILL');
  }, 15_000);
  await exited(server.child);
  clearTimeout(timer);
}

export interface Answer {
  status: number;
  code: string;
  body: Record<string, unknown>;
}

/** One request, bounded in time; a connection that failed is status 0 with the error's code. */
export async function call(url: string, route: string, init: RequestInit = {}, timeoutMs = 15_000): Promise<Answer> {
  try {
    const res = await fetch(url + route, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const text = await res.text();
    let body: Record<string, unknown> = {};
    try {
      body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      /* not JSON */
    }
    const error = body.error as { code?: string } | undefined;
    return { status: res.status, code: error?.code ?? '', body };
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause;
    return { status: 0, code: cause?.code ?? (err as Error).name, body: {} };
  }
}

export async function login(url: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ identifier: USER.username, password: USER.password }),
    signal: AbortSignal.timeout(15_000),
  });
  if (!res.ok) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .find((c) => c.startsWith('palayan_session='))!
    .split(';')[0]!;
}

let made = 0;
/** A complete add-form body with a unique name; `long` fills every text field to its limit. */
export function varietyBody(name = `NSIC Rc Chaos ${rand()}${(made += 1)}`, long = false): Record<string, unknown> {
  const text = (s: string) => (long ? `${s} `.padEnd(300, 'x') : s);
  return {
    varietyName: name,
    releaseName: text(`Tubigan ${made}`),
    yearRelease: '2019',
    breedingCode: text(`PR${made}-B-1`),
    breederOrigin: text('PhilRice'),
    maturityDays: 112,
    averageYield: 5.4,
    maxYield: 9.1,
    plantHeight: 101,
    tillers: 16,
    location: text('Province-wide'),
    season: ['Dry', 'Wet'],
    plantingMethod: 'Transplanting',
    environment: ['Low Irrigated Land'],
    recommendedInTarlac: true,
  };
}

export const json = (cookie: string, body: unknown): RequestInit => ({
  method: 'POST',
  headers: { cookie, 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

export const createVariety = (url: string, cookie: string, body = varietyBody()) => call(url, '/api/varieties', json(cookie, body));

export const searchVarieties = (url: string, cookie: string, text: string) =>
  call(url, `/api/varieties?search=${encodeURIComponent(text)}`, { headers: { cookie } });

let colour = 0;
/** A small real PNG, a different colour each call. */
export async function png(): Promise<Buffer> {
  colour += 1;
  return sharp({ create: { width: 16, height: 16, channels: 3, background: { r: colour % 256, g: (colour >> 8) % 256, b: 90 } } })
    .png()
    .toBuffer();
}

/** Stages one photo through POST /api/<route>/images (multipart, one field named "file"). */
export async function uploadPhoto(url: string, cookie: string, photo: Buffer, route = 'rice_pests'): Promise<Answer> {
  const boundary = `----chaos${rand()}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="leaf_${rand()}.png"\r\nContent-Type: image/png\r\n\r\n`;
  const payload = Buffer.concat([Buffer.from(head), photo, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return call(url, `/api/${route}/images`, {
    method: 'POST',
    headers: { cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
    body: payload,
  });
}

/** Answers counted by status and error code: "201", "503 DATABASE_UNAVAILABLE", "0 ECONNREFUSED". */
export class Tally {
  readonly counts = new Map<string, number>();
  add(a: Answer): Answer {
    const key = a.status >= 200 && a.status < 300 ? '2xx' : `${a.status} ${a.code}`.trim();
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    return a;
  }
  count(test: (status: number, key: string) => boolean): number {
    let n = 0;
    for (const [key, c] of this.counts) if (test(key === '2xx' ? 200 : Number(key.split(' ')[0]), key)) n += c;
    return n;
  }
  ok(): number {
    return this.counts.get('2xx') ?? 0;
  }
  /** Keys outside `allowed` (e.g. '2xx', '503 DATABASE_UNAVAILABLE'). */
  unexpected(allowed: string[]): string[] {
    return [...this.counts.keys()].filter((k) => !allowed.includes(k)).map((k) => `${k} ×${this.counts.get(k)}`);
  }
  summary(): string {
    const other = [...this.counts]
      .filter(([k]) => k !== '2xx' && !/^(503|507|5\d\d) /.test(k))
      .map(([k, c]) => `${k.replace(/^0 /, 'no answer: ')} ${c}`);
    const parts = [
      `2xx ${this.ok()}`,
      `503 ${this.count((s) => s === 503)}`,
      `507 ${this.count((s) => s === 507)}`,
      `other 5xx ${this.count((s) => s >= 500 && s !== 503 && s !== 507)}`,
    ];
    return [...parts, ...other].join(' / ');
  }
}

/** The database read directly (the server stopped, or alongside it): rows of plain SQL. */
export interface DataView {
  all(sql: string): Promise<Array<Record<string, unknown>>>;
  close(): Promise<void>;
}

export async function openData(dataDir: string, databaseUrl: string | undefined): Promise<DataView> {
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    return { all: async (q) => (await client.query(q)).rows as Array<Record<string, unknown>>, close: () => client.end() };
  }
  const db = new SQLite(path.join(dataDir, 'palayan.sqlite'), { fileMustExist: true });
  return {
    all: async (q) => db.prepare(q).all() as Array<Record<string, unknown>>,
    close: async () => {
      db.close();
    },
  };
}

/** node build/server/cli.js <args> with DATA_DIR (and DATABASE_URL); exit code and output. */
export function runCli(args: string[], dataDir: string, databaseUrl?: string): Promise<{ code: number; out: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  return new Promise((resolve) => {
    execFile(process.execPath, ['build/server/cli.js', ...args], { cwd: root, env, timeout: 180_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({
        code,
        out: `${stdout}${stderr}`
          .replace(/\r/g, '\n')
          .split('\n')
          .map((l) => l.trim())
          .filter(Boolean)
          .filter((l) => !/^[A-Z][a-z ]+ \[/.test(l))
          .join(' '),
      });
    });
  });
}

/** How long until `probe` is true (checked every `everyMs`), or null after `limitMs`. */
export async function msUntil(probe: () => Promise<boolean>, limitMs: number, everyMs = 25): Promise<number | null> {
  const started = performance.now();
  while (performance.now() - started < limitMs) {
    if (await probe()) return Math.round(performance.now() - started);
    await sleep(everyMs);
  }
  return null;
}
