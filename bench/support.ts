/** What every benchmark needs: percentiles, a free local port, and a process's memory and CPU from /proc. */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/** The p-th percentile of `xs` (nearest rank). */
export function percentile(xs: number[], p: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export const median = (xs: number[]) => percentile(xs, 50);

/** A TCP port nothing listens on at the moment, on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** Resident memory of a process, in MB (0 once it has exited). */
export function rssMb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/**
 * What a process's resident memory is made of (MB): its own memory (V8's heap, native
 * allocations such as SQLite's page cache) and pages of files it maps (a memory-mapped SQLite
 * database: shared with the OS's file cache, given back under memory pressure).
 */
export function rssParts(pid: number): { anon: number; file: number } {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
    return { anon: kb('RssAnon') / 1024, file: (kb('RssFile') + kb('RssShmem')) / 1024 };
  } catch {
    return { anon: 0, file: 0 };
  }
}

/** CPU seconds (user + system) a process has used (0 once it has exited). */
export function cpuSeconds(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** Busy and total CPU time of the whole machine (all cores), from /proc/stat. */
export function machineCpu(): { busy: number; total: number } {
  const [, ...nums] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const v = nums.map(Number);
  const idle = (v[3] ?? 0) + (v[4] ?? 0);
  const total = v.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

/**
 * A benchmark's database: SQLite in a temp folder, or a throw-away schema in the PostgreSQL of
 * `pgUrl` (the URL's search_path points into it). drop() removes both.
 */
export async function benchDatabase(
  engine: 'sqlite' | 'postgres',
  pgUrl: string,
  prefix: string,
): Promise<{ dataDir: string; databaseUrl: string | undefined; drop(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  if (engine === 'sqlite')
    return { dataDir, databaseUrl: undefined, drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
  const schema = `bench_${Math.random().toString(36).slice(2, 10)}`;
  const run = async (statement: string) => {
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    try {
      await admin.query(statement);
    } finally {
      await admin.end();
    }
  };
  await run(`create schema ${schema}`);
  const u = new URL(pgUrl);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return {
    dataDir,
    databaseUrl: u.toString(),
    async drop() {
      await run(`drop schema if exists ${schema} cascade`);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** --pg: the PostgreSQL server benchmarks make their throw-away schemas in. */
export const benchPgUrl = (): string => option('pg', process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test');

/** --engines: which engines a benchmark runs on (both by default). */
export const benchEngines = (): Array<'sqlite' | 'postgres'> =>
  option('engines', 'sqlite,postgres').split(',') as Array<'sqlite' | 'postgres'>;

/** The value after `--name` on the command line, or `fallback`. */
export function option(name: string, fallback: string, args: readonly string[] = process.argv.slice(2)): string {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
}

/**
 * The built server (build/server/main.js, as `npm start` runs it) on a free port with these
 * settings added to the environment (and `nodeArgs` before the script, as `npm start` passes
 * its heap sizes); resolves when /api/health answers.
 */
export async function startBuiltServer(
  env: Record<string, string>,
  nodeArgs: readonly string[] = [],
): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, 'build/server/main.js'], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (const until = Date.now() + 60_000; Date.now() < until;) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { url, child };
    } catch {
      /* starting */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error('the server did not start');
}

/** Stops a server started by startBuiltServer: SIGTERM, then SIGKILL if it has not exited within 10 s (at once if it already has). */
export async function stopBuiltServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Signs in over HTTP; the session cookie. */
export async function benchLogin(url: string, user: { username: string; password: string }): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ identifier: user.username, password: user.password }),
  });
  if (!res.ok) throw new Error(`login failed: ${res.status}`);
  return res.headers
    .getSetCookie()
    .find((c) => c.startsWith('palayan_session='))!
    .split(';')[0]!;
}

/** A disease with `count` photo rows (no files): what the versions and review benches edit. Returns the photo ids in order. */
export async function storeBenchDisease(
  db: import('kysely').Kysely<import('../server/db/types.js').Database>,
  id: string,
  count: number,
): Promise<string[]> {
  const now = new Date().toISOString();
  await db
    .insertInto('rice_local_diseases')
    .values({
      id,
      name: 'Rice blast (bench)',
      scientificName: 'Magnaporthe oryzae',
      treatments: 'Treatment 0',
      createdAt: now,
      updatedAt: now,
    })
    .execute();
  const photoIds = Array.from({ length: count }, (_, i) => `bench-photo-${String(i).padStart(5, '0')}`);
  for (let i = 0; i < count; i += 200) {
    await db
      .insertInto('catalog_images')
      .values(
        photoIds.slice(i, i + 200).map((pid, k) => ({
          id: pid,
          collection: 'rice_local_diseases',
          entryId: id,
          position: i + k,
          status: 'ready',
          originalKey: `rice_disease/bench/${pid}.jpg`,
          displayKey: `rice_disease/_variants/${pid}_display.jpg`,
          thumbKey: `rice_disease/_variants/${pid}_thumb.jpg`,
          externalUrl: null,
          mimeType: 'image/jpeg',
          sizeBytes: 900_000,
          width: 1600,
          height: 1200,
          originalName: `IMG_${i + k}.jpg`,
          sha256: `sha-${pid}`,
          uploadedBy: null,
          createdAt: now,
          linkedAt: now,
        })),
      )
      .execute();
  }
  return photoIds;
}
