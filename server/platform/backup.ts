import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import type { Config } from '../config.js';
import { sqlitePath } from '../db/connection.js';

const run = promisify(execFile);

export interface BackupManifest {
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

function copyFiles(from: string, to: string, onProgress?: (done: number, total: number) => void): { files: number; bytes: number } {
  const files = listFiles(from);
  const made = new Set<string>();
  let bytes = 0;
  files.forEach((rel, i) => {
    const target = path.join(to, rel);
    privateDirs(to, path.dirname(rel), made);
    fs.copyFileSync(path.join(from, rel), target);
    fs.chmodSync(target, FILE_MODE);
    bytes += fs.statSync(target).size;
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
export async function createBackup(config: Config, outDir: string, onProgress?: (done: number, total: number) => void): Promise<BackupManifest> {
  if (fs.existsSync(outDir) && fs.readdirSync(outDir).length > 0) throw new Error(`${outDir} is not empty`);
  privateDir(outDir);
  if ((fs.statSync(outDir).mode & 0o077) !== 0) throw new Error(`${outDir} belongs to another user and others can open it; choose another folder`);
  const database = config.databaseUrl ? 'database.pgdump' : 'palayan.sqlite';
  privateFile(path.join(outDir, database));
  if (config.databaseUrl) {
    // A deployment that keeps the console in its own schema (search_path in the URL) dumps that schema.
    const schema = /search_path=([A-Za-z0-9_]+)/.exec(decodeURIComponent(new URL(config.databaseUrl).searchParams.get('options') ?? ''))?.[1];
    await run('pg_dump', ['--format=custom', '--no-owner', ...(schema ? [`--schema=${schema}`] : []), `--file=${path.join(outDir, database)}`, config.databaseUrl]);
  } else {
    const source = new SQLite(sqlitePath(config.dataDir), { readonly: true, fileMustExist: true });
    try {
      await source.backup(path.join(outDir, database));
    } finally {
      source.close();
    }
  }
  fs.chmodSync(path.join(outDir, database), FILE_MODE);
  const copied = copyFiles(path.join(config.dataDir, 'files'), path.join(outDir, 'files'), onProgress);
  // Retention archives hold the only copy of the history entries they took; anchors are small.
  for (const dir of AUDIT_DIRS) copyFiles(path.join(config.dataDir, dir), path.join(outDir, dir));
  const manifest: BackupManifest = {
    format: 'palayan-backup/1',
    createdAt: new Date().toISOString(),
    engine: config.databaseUrl ? 'postgres' : 'sqlite',
    database,
    ...copied,
  };
  fs.writeFileSync(path.join(outDir, 'manifest.json'), JSON.stringify(manifest, null, 2), { mode: FILE_MODE, flag: 'wx' });
  fs.chmodSync(path.join(outDir, 'manifest.json'), FILE_MODE);
  return manifest;
}

/** Brings a backup back into config's data folder (and database). The server must be stopped. */
export async function restoreBackup(config: Config, fromDir: string, options: { force?: boolean; onProgress?: (done: number, total: number) => void } = {}): Promise<BackupManifest> {
  const manifestPath = path.join(fromDir, 'manifest.json');
  if (!fs.existsSync(manifestPath)) throw new Error(`${fromDir} is not a backup (no manifest.json)`);
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as BackupManifest;
  if (manifest.format !== 'palayan-backup/1') throw new Error(`Unknown backup format ${String(manifest.format)}`);
  if ((manifest.engine === 'postgres') !== Boolean(config.databaseUrl)) {
    throw new Error(`This backup is of a ${manifest.engine} database; set ${manifest.engine === 'postgres' ? 'DATABASE_URL' : 'no DATABASE_URL'} to restore it.`);
  }
  fs.mkdirSync(config.dataDir, { recursive: true });
  const filesDir = path.join(config.dataDir, 'files');
  if (config.databaseUrl) {
    await run('pg_restore', ['--clean', '--if-exists', '--no-owner', `--dbname=${config.databaseUrl}`, path.join(fromDir, manifest.database)]);
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
