import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import pg from 'pg';

const run = promisify(execFile);

/**
 * What a backup holds, written into its manifest when it is made and checked again by
 * `restore --verify` after restoring it into a scratch place: the rows of every table, the
 * audit chain's head, and the sha256 of every file.
 */
export interface BackupFacts {
  counts: Record<string, number>;
  auditHead: { index: number; hash: string } | null;
  fileHashes: Record<string, string>;
}

export function sha256File(file: string): string {
  const hash = createHash('sha256');
  const fd = fs.openSync(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(1 << 20);
    for (let n; (n = fs.readSync(fd, buffer, 0, buffer.length, null)) > 0;) hash.update(buffer.subarray(0, n));
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest('hex');
}

/** Rows per table and the audit head of a SQLite file (opened read-only). */
export function sqliteFacts(file: string): Pick<BackupFacts, 'counts' | 'auditHead'> & { integrity: string } {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const tables = db.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name").all() as {
      name: string;
    }[];
    const counts = Object.fromEntries(
      tables.map(({ name }) => [
        name,
        Number((db.prepare(`select count(*) as n from "${name.replaceAll('"', '""')}"`).get() as { n: number }).n),
      ]),
    );
    const head = tables.some((t) => t.name === 'audit_chain')
      ? (db.prepare('select "lastIndex" as "index", "lastHash" as hash from audit_chain where id = 1').get() as
          { index: number; hash: string } | undefined)
      : undefined;
    const integrity = (db.prepare('pragma integrity_check').get() as { integrity_check: string }).integrity_check;
    return { counts, auditHead: head ? { index: Number(head.index), hash: head.hash } : null, integrity };
  } finally {
    db.close();
  }
}

/** Rows per table of the connection's schema and the audit head, read by `client` (in its transaction, if any). */
export async function postgresFacts(client: pg.ClientBase): Promise<Pick<BackupFacts, 'counts' | 'auditHead'>> {
  const tables = (
    await client.query<{ name: string }>(
      "select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1",
    )
  ).rows;
  const counts: Record<string, number> = {};
  for (const { name } of tables)
    counts[name] = Number((await client.query<{ n: string }>(`select count(*) as n from "${name.replaceAll('"', '""')}"`)).rows[0]!.n);
  const head = tables.some((t) => t.name === 'audit_chain')
    ? (await client.query<{ index: number; hash: string }>('select "lastIndex" as index, "lastHash" as hash from audit_chain where id = 1'))
        .rows[0]
    : undefined;
  return { counts, auditHead: head ? { index: Number(head.index), hash: head.hash } : null };
}

/**
 * pg_dump of the console's schema, with the facts read in the very snapshot the dump takes
 * (an exported snapshot of a repeatable-read transaction), so they match the dump exactly.
 */
export async function dumpPostgres(
  databaseUrl: string,
  schema: string | undefined,
  file: string,
): Promise<Pick<BackupFacts, 'counts' | 'auditHead'>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('begin isolation level repeatable read read only');
    const snapshot = (await client.query<{ id: string }>('select pg_export_snapshot() as id')).rows[0]!.id;
    const facts = await postgresFacts(client);
    await run('pg_dump', [
      '--format=custom',
      '--no-owner',
      `--snapshot=${snapshot}`,
      ...(schema ? [`--schema=${schema}`] : []),
      `--file=${file}`,
      databaseUrl,
    ]);
    await client.query('commit');
    return facts;
  } finally {
    await client.end();
  }
}

/**
 * Restores a PostgreSQL dump into a scratch database made for the check, reads its facts and
 * drops it. Needs the right to create databases; without it, says so.
 */
export async function postgresScratchFacts(databaseUrl: string, dump: string): Promise<Pick<BackupFacts, 'counts' | 'auditHead'>> {
  const name = `palayan_verify_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  admin.on('error', () => undefined);
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } catch (err) {
    await admin.end();
    throw new Error(
      `could not create a scratch database to restore into (${(err as Error).message}); give the user CREATEDB or verify on another server`,
      { cause: err },
    );
  }
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  const schema = /search_path=([A-Za-z0-9_]+)/.exec(decodeURIComponent(url.searchParams.get('options') ?? ''))?.[1];
  try {
    await run('pg_restore', ['--no-owner', `--dbname=${url.toString()}`, dump]);
    const client = new pg.Client({ connectionString: url.toString() });
    client.on('error', () => undefined);
    await client.connect();
    try {
      if (schema) await client.query(`set search_path = ${schema}`);
      return await postgresFacts(client);
    } finally {
      await client.end();
    }
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
    await admin.end();
  }
}

export function scratchDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'palayan-verify-'));
}
