import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import type { Config } from '../../config.js';
import { sqlitePath } from '../../db/connection.js';
import { dumpPostgres, postgresScratchFacts, scratchDir, sha256File, sqliteFacts, type BackupFacts } from './backup-facts.js';

const run = promisify(execFile);

const schemaOf = (databaseUrl: string) =>
  /search_path=([A-Za-z0-9_]+)/.exec(decodeURIComponent(new URL(databaseUrl).searchParams.get('options') ?? ''))?.[1];

export interface BackupManifest extends Partial<BackupFacts> {
  format: 'palayan-backup/1';
  createdAt: string;
  engine: 'sqlite' | 'postgres';
  database: string;
  files: number;
  bytes: number;
}

function listFiles(dir: string, base = dir): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return listFiles(full, base);
    return e.isFile() && !e.name.endsWith('.part') ? [path.relative(base, full)] : [];
  });
}

/*
 * A backup holds the password hashes, the two-step secrets and the signing keys: its folders are
 * 0700 and its files 0600 whatever the umask (a mode given at creation is masked by it, chmod is
 * not). The restore's copies into the data folder get the same modes, as the server's own.
 */
const DIR_MODE = 0o700;
const FILE_MODE = 0o600;

/** Makes `dir` (and any missing parent) 0700; an existing one is made 0700 when it is ours. */
function privateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  if (fs.statSync(dir).uid === process.getuid?.()) fs.chmodSync(dir, DIR_MODE);
}

/** Creates `file` empty and 0600, for a tool that writes into it (it keeps the mode). */
function privateFile(file: string): void {
  const fd = fs.openSync(file, 'wx', FILE_MODE);
  try {
    fs.fchmodSync(fd, FILE_MODE);
  } finally {
    fs.closeSync(fd);
  }
}

/** Copies a folder's files; with `hashes`, each copy's sha256 under `prefix/<path>`. */
function copyFiles(
  from: string,
  to: string,
  onProgress?: (done: number, total: number) => void,
  hashes?: { into: Record<string, string>; prefix: string },
): { files: number; bytes: number } {
  const files = listFiles(from);
  const made = new Set<string>();
  let bytes = 0;
  files.forEach((rel, i) => {
    const target = path.join(to, rel);
    privateDirs(to, path.dirname(rel), made);
    fs.copyFileSync(path.join(from, rel), target);
    fs.chmodSync(target, FILE_MODE);
    bytes += fs.statSync(target).size;
    if (hashes) hashes.into[`${hashes.prefix}/${rel.split(path.sep).join('/')}`] = sha256File(target);
    onProgress?.(i + 1, files.length);
  });
  return { files: files.length, bytes };
}

/** Makes `base` and each folder of `rel` below it 0700, once each (`made` remembers them). */
function privateDirs(base: string, rel: string, made: Set<string>): void {
  let dir = base;
  for (const part of ['', ...(rel === '.' ? [] : rel.split(path.sep))]) {
    dir = path.join(dir, part);
    if (made.has(dir)) continue;
    privateDir(dir);
    made.add(dir);
  }
}

const AUDIT_DIRS = ['audit-archive', 'audit-anchors'];

/**
 * A consistent snapshot while the server runs: SQLite's online backup API (or pg_dump on
 * PostgreSQL) first, then the stored files. File keys never change in place (new content gets
 * a new key), so every file the snapshot refers to is already on disk when it is copied.
 */
export async function createBackup(
  config: Config,
  outDir: string,
  onProgress?: (done: number, total: number) => void,
): Promise<BackupManifest> {
  if (fs.existsSync(outDir) && fs.readdirSync(outDir).length > 0) throw new Error(`${outDir} is not empty`);
  privateDir(outDir);
  if ((fs.statSync(outDir).mode & 0o077) !== 0)
    throw new Error(`${outDir} belongs to another user and others can open it; choose another folder`);
  const database = config.databaseUrl ? 'database.pgdump' : 'palayan.sqlite';
  privateFile(path.join(outDir, database));
  let facts: Pick<BackupFacts, 'counts' | 'auditHead'>;
  if (config.databaseUrl) {
    // A deployment that keeps the console in its own schema (search_path in the URL) dumps that schema.
    facts = await dumpPostgres(config.databaseUrl, schemaOf(config.databaseUrl), path.join(outDir, database));
  } else {
    const source = new SQLite(sqlitePath(config.dataDir), { readonly: true, fileMustExist: true });
    try {
      await source.backup(path.join(outDir, database));
    } finally {
      source.close();
    }
    facts = sqliteFacts(path.join(outDir, database));
  }
  fs.chmodSync(path.join(outDir, database), FILE_MODE);
  const fileHashes: Record<string, string> = {};
  const copied = copyFiles(path.join(config.dataDir, 'files'), path.join(outDir, 'files'), onProgress, {
    into: fileHashes,
    prefix: 'files',
  });
  // Retention archives hold the only copy of the history entries they took; anchors are small.
  for (const dir of AUDIT_DIRS)
    copyFiles(path.join(config.dataDir, dir), path.join(outDir, dir), undefined, { into: fileHashes, prefix: dir });
  const manifest: BackupManifest = {
    format: 'palayan-backup/1',
    createdAt: new Date().toISOString(),
    engine: config.databaseUrl ? 'postgres' : 'sqlite',
    database,
    ...copied,
    counts: facts.counts,
    auditHead: facts.auditHead,
    fileHashes,
  };
  fs.writeFileSync(path.join(outDir, 'manifest.json'), JSON.stringify(manifest, null, 2), { mode: FILE_MODE, flag: 'wx' });
  fs.chmodSync(path.join(outDir, 'manifest.json'), FILE_MODE);
  return manifest;
}

function readManifest(fromDir: string): BackupManifest {
  const manifestPath = path.join(fromDir, 'manifest.json');
  if (!fs.existsSync(manifestPath)) throw new Error(`${fromDir} is not a backup (no manifest.json)`);
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as BackupManifest;
  if (manifest.format !== 'palayan-backup/1') throw new Error(`Unknown backup format ${String(manifest.format)}`);
  return manifest;
}

/** Brings a backup back into config's data folder (and database). The server must be stopped. */
export async function restoreBackup(
  config: Config,
  fromDir: string,
  options: { force?: boolean; onProgress?: (done: number, total: number) => void } = {},
): Promise<BackupManifest> {
  const manifest = readManifest(fromDir);
  if ((manifest.engine === 'postgres') !== Boolean(config.databaseUrl)) {
    throw new Error(
      `This backup is of a ${manifest.engine} database; set ${manifest.engine === 'postgres' ? 'DATABASE_URL' : 'no DATABASE_URL'} to restore it.`,
    );
  }
  fs.mkdirSync(config.dataDir, { recursive: true });
  const filesDir = path.join(config.dataDir, 'files');
  if (config.databaseUrl) {
    await run('pg_restore', [
      '--clean',
      '--if-exists',
      '--no-owner',
      `--dbname=${config.databaseUrl}`,
      path.join(fromDir, manifest.database),
    ]);
  } else {
    const target = sqlitePath(config.dataDir);
    if (fs.existsSync(target) && !options.force) throw new Error(`${target} exists; pass --force to replace it (stop the server first).`);
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(target + suffix, { force: true });
    fs.copyFileSync(path.join(fromDir, manifest.database), target);
    fs.chmodSync(target, FILE_MODE);
  }
  if (fs.existsSync(filesDir) && options.force) fs.rmSync(filesDir, { recursive: true, force: true });
  copyFiles(path.join(fromDir, 'files'), filesDir, options.onProgress);
  for (const dir of AUDIT_DIRS) copyFiles(path.join(fromDir, dir), path.join(config.dataDir, dir));
  return manifest;
}

export interface VerifyCheck {
  check: string;
  expected: string;
  found: string;
  ok: boolean;
}

/**
 * The restore drill: the backup restored into a scratch place (a copy of the SQLite file, or a
 * scratch PostgreSQL database; its files copied), then its rows per table, audit chain head and
 * file hashes compared with what the manifest recorded when the backup was made.
 */
export async function verifyBackup(config: Config, fromDir: string): Promise<VerifyCheck[]> {
  const manifest = readManifest(fromDir);
  if (!manifest.counts || !manifest.fileHashes)
    throw new Error('This backup was made before backups recorded what they hold; make a new one to verify.');
  const scratch = scratchDir();
  try {
    let restored: Pick<BackupFacts, 'counts' | 'auditHead'>;
    const checks: VerifyCheck[] = [];
    if (manifest.engine === 'sqlite') {
      const file = path.join(scratch, 'palayan.sqlite');
      fs.copyFileSync(path.join(fromDir, manifest.database), file);
      const facts = sqliteFacts(file);
      checks.push({ check: 'SQLite integrity', expected: 'ok', found: facts.integrity, ok: facts.integrity === 'ok' });
      restored = facts;
    } else {
      if (!config.databaseUrl) throw new Error('A PostgreSQL backup is verified with DATABASE_URL set (a scratch database is made there).');
      restored = await postgresScratchFacts(config.databaseUrl, path.join(fromDir, manifest.database));
    }
    for (const table of new Set([...Object.keys(manifest.counts), ...Object.keys(restored.counts)])) {
      const expected = manifest.counts[table];
      const found = restored.counts[table];
      checks.push({
        check: `rows of ${table}`,
        expected: String(expected ?? 'absent'),
        found: String(found ?? 'absent'),
        ok: expected === found,
      });
    }
    const head = (h: BackupFacts['auditHead'] | undefined) => (h ? `#${h.index} ${h.hash.slice(0, 12)}` : 'none');
    checks.push({
      check: 'audit chain head',
      expected: head(manifest.auditHead),
      found: head(restored.auditHead),
      ok: head(manifest.auditHead) === head(restored.auditHead),
    });
    const copiedHashes: Record<string, string> = {};
    copyFiles(path.join(fromDir, 'files'), path.join(scratch, 'files'), undefined, { into: copiedHashes, prefix: 'files' });
    for (const dir of AUDIT_DIRS)
      copyFiles(path.join(fromDir, dir), path.join(scratch, dir), undefined, { into: copiedHashes, prefix: dir });
    const wrong = Object.keys(manifest.fileHashes).filter((rel) => copiedHashes[rel] !== manifest.fileHashes![rel]);
    const extra = Object.keys(copiedHashes).filter((rel) => !(rel in manifest.fileHashes!));
    checks.push({
      check: 'file hashes',
      expected: `${Object.keys(manifest.fileHashes).length} files`,
      found:
        wrong.length || extra.length
          ? `${wrong.length} missing or changed${wrong[0] ? ` (${wrong[0]})` : ''}, ${extra.length} not in the manifest`
          : `${Object.keys(copiedHashes).length} files, same sha256`,
      ok: wrong.length === 0 && extra.length === 0,
    });
    return checks;
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
