/**
 * The restore drill of bench/chaos.ts: a SQLite console with varieties and photos is stopped,
 * backed up with the bundle's command, its data folder wiped and restored, and compared.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { freePort } from './support.js';
import {
  call,
  createVariety,
  json,
  login,
  msUntil,
  png,
  runCli,
  searchVarieties,
  startServer,
  stopServer,
  uploadPhoto,
  varietyBody,
  type Server,
} from './chaos-kit.js';
import type { Row } from './chaos-db.js';

interface Snapshot {
  counts: Map<string, number>;
  head: string;
  files: Map<string, string>;
}

function listFiles(dir: string, base = dir): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? listFiles(full, base) : [path.relative(base, full)];
  });
}

/** Row counts of every table, the audit chain's head, and the sha256 of every file under files/. */
function snapshot(dataDir: string): Snapshot {
  const db = new SQLite(path.join(dataDir, 'palayan.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const tables = (
      db.prepare(`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`).all() as Array<{
        name: string;
      }>
    ).map((t) => t.name);
    const counts = new Map(tables.map((t) => [t, (db.prepare(`select count(*) as n from "${t}"`).get() as { n: number }).n]));
    const head = db.prepare('select "lastIndex", "lastHash" from audit_chain where id = 1').get() as
      { lastIndex: number; lastHash: string } | undefined;
    const filesDir = path.join(dataDir, 'files');
    const files = new Map(
      listFiles(filesDir).map((f) => [
        f,
        createHash('sha256')
          .update(fs.readFileSync(path.join(filesDir, f)))
          .digest('hex'),
      ]),
    );
    return { counts, head: head ? `#${head.lastIndex} ${head.lastHash.slice(0, 12)}` : 'none', files };
  } finally {
    db.close();
  }
}

function differences<T>(before: Map<string, T>, after: Map<string, T>): string[] {
  const keys = new Set([...before.keys(), ...after.keys()]);
  return [...keys]
    .filter((k) => before.get(k) !== after.get(k))
    .map((k) => `${k}: ${String(before.get(k) ?? '–')} → ${String(after.get(k) ?? '–')}`);
}

export async function restoreDrill(): Promise<Row> {
  const row: Row = { fault: 'restore drill', engine: 'sqlite', answers: '', process: '', servedAgain: '', checks: [], failures: [] };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'palayan-chaos-restore-'));
  const backupParent = fs.mkdtempSync(path.join(os.tmpdir(), 'palayan-chaos-backup-'));
  const backupDir = path.join(backupParent, 'backup');
  const port = await freePort();
  let server: Server | undefined;
  try {
    server = await startServer({ port, dataDir, log: 'restore-1' });
    let cookie = await login(server.url);
    const name = String(varietyBody().varietyName);
    const made = [await createVariety(server.url, cookie, varietyBody(name))];
    for (let i = 0; i < 24; i += 1) made.push(await createVariety(server.url, cookie));
    const photos = [await uploadPhoto(server.url, cookie, await png()), await uploadPhoto(server.url, cookie, await png())];
    const pest = await call(
      server.url,
      '/api/rice_pests',
      json(cookie, {
        name: 'Chaos Stem Borer',
        scientificName: 'Scirpophaga chaos',
        description: 'Restore drill.',
        cause: 'Drill.',
        symptoms: 'None.',
        treatments: 'Rest.',
        imageIds: photos.map((p) => String(p.body.id)),
      }),
    );
    const setup = [...made, ...photos, pest].filter((a) => a.status !== 201);
    if (setup.length) throw new Error(`setup failed: ${setup.map((a) => `${a.status} ${a.code}`).join(', ')}`);
    const pestId = String(pest.body.id);
    const detail = async () =>
      (await call(server!.url, `/api/rice_pests/${pestId}`, { headers: { cookie } })).body.images as
        Array<{ status: string; url: string | null }> | undefined;
    const processed = await msUntil(async () => (await detail())?.every((i) => i.status === 'ready') ?? false, 20_000, 100);
    row.checks.push(
      processed === null ? 'photos not processed within 20 s' : `25 varieties, 1 pest with 2 photos (processed in ${processed} ms)`,
    );
    await stopServer(server);

    const before = snapshot(dataDir);
    const backup = await runCli(['backup', '--out', backupDir], dataDir);
    row.checks.push(`backup: ${backup.out}`);
    if (backup.code !== 0) throw new Error(`backup failed: ${backup.out}`);
    // The drill first (a scratch restore compared with what the backup recorded), then the real restore.
    const drill = await runCli(['restore', '--verify', backupDir], dataDir);
    row.checks.push(`restore --verify (exit ${drill.code}): ${/(Verified|Verify failed):.*$/.exec(drill.out)?.[0] ?? drill.out}`);
    if (drill.code !== 0) row.failures.push(`restore --verify: ${drill.out}`);
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.mkdirSync(dataDir);
    const restore = await runCli(['restore', backupDir], dataDir);
    row.checks.push(`restore (exit ${restore.code}): ${restore.out}`);
    if (restore.code !== 0) throw new Error(`restore failed: ${restore.out}`);

    const after = snapshot(dataDir);
    const rowDiffs = differences(before.counts, after.counts);
    const fileDiffs = differences(before.files, after.files);
    const rows = [...before.counts.values()].reduce((a, b) => a + b, 0);
    row.checks.push(
      rowDiffs.length ? `row counts differ: ${rowDiffs.join('; ')}` : `${before.counts.size} tables, ${rows} rows: same counts`,
    );
    row.checks.push(fileDiffs.length ? `files differ: ${fileDiffs.length}` : `${before.files.size} files under files/: same sha256`);
    row.checks.push(before.head === after.head ? `chain head ${after.head}: same` : `chain head ${before.head} → ${after.head}`);
    if (rowDiffs.length) row.failures.push('row counts differ');
    if (fileDiffs.length) row.failures.push(`files differ: ${fileDiffs.slice(0, 3).join('; ')}`);
    if (before.head !== after.head) row.failures.push('audit chain head differs');
    if (before.files.size === 0) row.failures.push('no files to compare');
    const verify = await runCli(['audit-verify', '--quiet'], dataDir);
    row.checks.push(`audit-verify: ${verify.code === 0 ? 'intact' : `exit ${verify.code}: ${verify.out}`}`);
    if (verify.code !== 0) row.failures.push('audit chain does not verify');

    server = await startServer({ port, dataDir, log: 'restore-2' });
    cookie = await login(server.url);
    const found = await searchVarieties(server.url, cookie, name);
    const hits = (found.body.items as unknown[] | undefined)?.length ?? 0;
    const images = (await detail()) ?? [];
    const served = await Promise.all(
      images.map(async (i) => {
        if (!i.url) return 0;
        const res = await fetch(server!.url + i.url, { headers: { cookie }, signal: AbortSignal.timeout(10_000) });
        // An unread body keeps the response in flight, and the server's graceful close waits for it.
        await res.arrayBuffer();
        return res.status;
      }),
    );
    row.answers = `search ${found.status} (${hits} hit), photos ${served.join(', ') || 'none'}`;
    row.process = 'stopped, restored, started';
    row.servedAgain = `restored server up in ${server.startedInMs} ms`;
    if (found.status !== 200 || hits === 0) row.failures.push('restored variety not found by search');
    if (served.length !== 2 || served.some((s) => s !== 200)) row.failures.push(`restored photos not served: ${served.join(', ')}`);
    return row;
  } finally {
    await stopServer(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(backupParent, { recursive: true, force: true });
  }
}
