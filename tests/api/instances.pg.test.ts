import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tinyPng, multipart } from '../fixtures/catalog.js';
import { startS3, type TestS3 } from '../fixtures/s3.js';
import { varietyBody } from '../fixtures/varieties.js';
import { newAdminBody } from '../fixtures/accounts.js';

/**
 * Two real server processes on one PostgreSQL database and one S3 server, as behind a load
 * balancer. Runs in the PostgreSQL project only (SQLite is one machine's file).
 */
const base = process.env.TEST_DATABASE_URL!;
const root = path.resolve(import.meta.dirname, '../..');
const ADMIN = { username: 'instances_admin', password: 'Instances#2025' };

interface Instance {
  name: string;
  port: number;
  url: string;
  process: ChildProcess;
  log: string[];
}

let s3: TestS3;
let schema: string;
let databaseUrl: string;
const instances: Instance[] = [];
const dataDirs: string[] = [];

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net
      .createServer()
      .listen(0, '127.0.0.1', () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      })
      .on('error', reject);
  });
}

async function waitHealthy(url: string, child: ChildProcess, log: string[]): Promise<void> {
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`server exited: ${log.join('')}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server did not start: ${log.join('')}`);
}

async function startInstance(name: string): Promise<Instance> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `palayan-${name}-`));
  dataDirs.push(dataDir);
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      INSTANCE_ID: name,
      EVENT_CHANNEL: `events_${schema}`,
      LOG_LEVEL: 'warn',
      LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
      REVIEW_SCHEDULE_CHECK_SECONDS: '2',
      INITIAL_ADMIN_USERNAME: ADMIN.username,
      INITIAL_ADMIN_PASSWORD: ADMIN.password,
      INITIAL_ADMIN_FULLNAME: 'Instances Admin',
      S3_BUCKET: s3.settings.bucket,
      S3_ENDPOINT: s3.settings.endpoint,
      S3_REGION: s3.settings.region,
      S3_ACCESS_KEY_ID: s3.settings.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.settings.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
      NODE_NO_WARNINGS: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: string[] = [];
  child.stdout!.on('data', (c: Buffer) => log.push(c.toString()));
  child.stderr!.on('data', (c: Buffer) => log.push(c.toString()));
  const instance = { name, port, url: `http://127.0.0.1:${port}`, process: child, log };
  instances.push(instance);
  await waitHealthy(instance.url, child, log);
  return instance;
}

async function login(
  instance: Instance,
  identifier = ADMIN.username,
  password = ADMIN.password,
): Promise<{ status: number; cookie: string }> {
  const res = await fetch(`${instance.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ identifier, password }),
  });
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  await res.arrayBuffer();
  return { status: res.status, cookie };
}

/** A live stream as the browser's EventSource reads it: `change` events with their arrival time. */
function watch(instance: Instance, cookie: string) {
  const events: Array<{ topic: string; id: string | null; op: string; at: number }> = [];
  let request: http.ClientRequest | null = null;
  const opened = new Promise<void>((resolve, reject) => {
    request = http.get(`${instance.url}/api/events`, { headers: { cookie } }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`stream answered ${res.statusCode}`));
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        if (buffer.includes(': connected')) resolve();
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.+)$/m.exec(block)?.[1];
          const data = /^data: (.+)$/m.exec(block)?.[1];
          if (event === 'change' && data)
            events.push({ ...(JSON.parse(data) as { topic: string; id: string | null; op: string }), at: Date.now() });
        }
      });
    });
    request.on('error', reject);
  });
  return {
    events,
    opened,
    async waitFor(match: (e: { topic: string; id: string | null; op: string }) => boolean, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const found = events.find(match);
        if (found) return found;
        if (Date.now() > until) throw new Error(`no matching event; saw ${JSON.stringify(events)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () => request?.destroy(),
  };
}

async function saveVariety(
  instance: Instance,
  cookie: string,
  overrides: Record<string, unknown> = {},
): Promise<{ id: string; sentAt: number }> {
  const sentAt = Date.now();
  const res = await fetch(`${instance.url}/api/varieties`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify(varietyBody(overrides)),
  });
  const body = (await res.json()) as { id: string };
  expect(res.status, JSON.stringify(body)).toBe(201);
  return { id: body.id, sentAt };
}

beforeAll(async () => {
  s3 = await startS3();
  schema = `inst_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  databaseUrl = `${base}${base!.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  // One after the other: the first start migrates and creates the first super admin.
  await startInstance('A');
  await startInstance('B');
}, 120_000);

afterAll(async () => {
  for (const i of instances) i.process.kill('SIGTERM');
  await Promise.all(instances.map((i) => new Promise((r) => (i.process.exitCode !== null ? r(null) : i.process.once('exit', r)))));
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`drop schema if exists ${schema} cascade`);
  await admin.end();
  await s3.close();
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('two server instances on one PostgreSQL and one S3 store', () => {
  it('serves from B a photo uploaded through A', async () => {
    const [a, b] = instances as [Instance, Instance];
    const { cookie } = await login(a);
    const png = await tinyPng(48);
    const form = multipart('leaf.png', png, 'image/png');
    const staged = await fetch(`${a.url}/api/rice_pests/images`, {
      method: 'POST',
      headers: { ...form.headers, cookie },
      body: form.payload,
    });
    expect(staged.status).toBe(201);
    const { id: imageId } = (await staged.json()) as { id: string };
    const created = await fetch(`${a.url}/api/rice_pests`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Rice bug',
        scientificName: 'Leptocorisa oratorius',
        description: 'Sucks the grain.',
        cause: 'Insect.',
        symptoms: 'Empty grains.',
        treatments: 'Clean fields.',
        imageIds: [imageId],
      }),
    });
    expect(created.status).toBe(201);
    const entry = (await created.json()) as { id: string };
    // B reads the entry and the original from the shared database and bucket.
    const seen = (await (await fetch(`${b.url}/api/rice_pests/${entry.id}`, { headers: { cookie } })).json()) as {
      images: Array<{ url: string }>;
    };
    const original = await fetch(`${b.url}${seen.images[0]!.url}`, { headers: { cookie } });
    expect(original.status).toBe(200);
    expect(Buffer.from(await original.arrayBuffer()).equals(png)).toBe(true);
  });

  it('brings a variety saved on A to a browser watching B within a second', async () => {
    const [a, b] = instances as [Instance, Instance];
    const { cookie } = await login(a);
    const stream = watch(b, cookie);
    await stream.opened;
    try {
      const { id, sentAt } = await saveVariety(a, cookie);
      const event = await stream.waitFor((e) => e.topic === 'rice_seed_varieties' && e.id === id);
      expect((event as { at: number }).at - sentAt).toBeLessThan(1000);
      // The search texts that travel between instances never reach a browser.
      expect(event).not.toHaveProperty('texts');
    } finally {
      stream.close();
    }
  });

  it("keeps events flowing after B's database connection is killed, and tells B's browsers to refresh once", async () => {
    const [a, b] = instances as [Instance, Instance];
    const { cookie } = await login(b);
    const stream = watch(b, cookie);
    await stream.opened;
    try {
      const admin = new pg.Client({ connectionString: base });
      await admin.connect();
      const killed = await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'palayan-events:B'`,
      );
      await admin.end();
      expect(killed.rowCount).toBe(1);
      await stream.waitFor((e) => e.topic === '*' && e.op === 'resync');
      const { id } = await saveVariety(a, cookie);
      await stream.waitFor((e) => e.topic === 'rice_seed_varieties' && e.id === id);
    } finally {
      stream.close();
    }
  });

  it("publishes a scheduled change exactly once with both instances' schedulers running, within a minute of its time", async () => {
    const [a, b] = instances as [Instance, Instance];
    const { cookie: superCookie } = await login(a);
    const json = { 'content-type': 'application/json' };
    const author = newAdminBody();
    expect(
      (await fetch(`${a.url}/api/accounts`, { method: 'POST', headers: { cookie: superCookie, ...json }, body: JSON.stringify(author) }))
        .status,
    ).toBe(201);
    const { cookie: authorCookie, status } = await login(b, author.username, author.password);
    expect(status).toBe(200);
    const { id } = await saveVariety(a, superCookie, { location: 'Victoria' });
    const variety = (await (await fetch(`${a.url}/api/varieties/${id}`, { headers: { cookie: superCookie } })).json()) as Record<
      string,
      unknown
    >;
    expect(
      (
        await fetch(`${a.url}/api/review/settings/rice_seed_varieties`, {
          method: 'PUT',
          headers: { cookie: superCookie, ...json },
          body: JSON.stringify({ enabled: true }),
        })
      ).status,
    ).toBe(200);

    const edit = await fetch(`${b.url}/api/varieties/${id}`, {
      method: 'PUT',
      headers: { cookie: authorCookie, ...json },
      body: JSON.stringify({ ...varietyBody({ varietyName: variety.varietyName, location: 'La Paz' }), version: variety.version }),
    });
    expect(edit.status).toBe(202);
    const change = ((await edit.json()) as { review: { id: string } }).review;
    const at = Date.now() + 3_000;
    const approved = await fetch(`${a.url}/api/review/changes/${change.id}/approve`, {
      method: 'POST',
      headers: { cookie: superCookie, ...json },
      body: JSON.stringify({ version: 1, publishAt: new Date(at).toISOString() }),
    });
    expect(approved.status).toBe(200);

    const location = async () =>
      ((await (await fetch(`${b.url}/api/public/v1/varieties`)).json()) as { items: Array<{ id: string; location: string }> }).items.find(
        (v) => v.id === id,
      )?.location;
    expect(await location()).toBe('Victoria');
    await expect.poll(location, { timeout: 60_000, interval: 250 }).toBe('La Paz');

    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      // Both schedulers keep looking a while longer: still one publish.
      await new Promise((r) => setTimeout(r, 4_500));
      const { rows } = await client.query<{ action: string; n: string }>(
        `select action, count(*) as n from audit_logs where "documentId" = $1 and action in ('UPDATE', 'PUBLISH') group by action order by action`,
        [id],
      );
      expect(rows.map((r) => [r.action, Number(r.n)])).toEqual([
        ['PUBLISH', 1],
        ['UPDATE', 1],
      ]);
      const state = await client.query<{ state: string; publishedAt: string }>(
        'select state, "publishedAt" from pending_changes where id = $1',
        [change.id],
      );
      expect(state.rows[0]?.state).toBe('published');
      // Not before its time, and within the schedulers' 2 s timer (plus a loaded machine's slack), far inside a minute.
      const late = Date.parse(state.rows[0]!.publishedAt) - at;
      expect(late).toBeGreaterThanOrEqual(0);
      expect(late).toBeLessThan(10_000);
    } finally {
      await client.end();
    }
  }, 90_000);

  it('limits 40 wrong logins spread over A and B as one budget', async () => {
    const [a, b] = instances as [Instance, Instance];
    const statuses: number[] = [];
    for (let i = 0; i < 40; i += 1) statuses.push((await login(i % 2 === 0 ? a : b, ADMIN.username, `Wrong#${i}`)).status);
    // LOGIN_FAILURES_PER_ACCOUNT is 10: nine plain refusals, then locked on both instances.
    expect(statuses.filter((s) => s === 401)).toHaveLength(9);
    expect(statuses.slice(9).every((s) => s === 429)).toBe(true);
    expect((await login(b)).status).toBe(429);
  });
});
