import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import readline from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { Kysely } from 'kysely';
import { AUDIT_TRAIL_LIMITS } from '../../../../common/audit-trail.js';
import type { Database } from '../../../db/types.js';
import { auditTrailRepository as repo, type ChainRow } from './repository.js';

/**
 * Retention archives: the oldest part of the chain written to DATA_DIR/audit-archive as gzip'd
 * JSON lines before it leaves the database. The first line is a header (range, the hash the
 * first entry links to, the last entry's hash); every other line is one entry with its chain
 * fields, so an archive verifies on its own and joins the next archive or the live chain.
 */
export const ARCHIVE_FORMAT = 'palayan-audit-archive';

export interface ArchiveHeader {
  format: typeof ARCHIVE_FORMAT;
  version: 1;
  firstIndex: number;
  lastIndex: number;
  count: number;
  /** The hash the first entry links to (the previous archive's last, or the genesis hash). */
  prevHash: string;
  lastHash: string;
  createdAt: string;
}

export function archiveDir(dataDir: string): string {
  return path.join(dataDir, 'audit-archive');
}

export function archiveFileName(firstIndex: number, lastIndex: number, at: string): string {
  return `audit-${firstIndex}-${lastIndex}-${at.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}.jsonl.gz`;
}

/** Writes entries base+1..throughIndex to a new archive (temp file, fsync, rename); returns its path and sha256. */
export async function writeArchive(
  db: Kysely<Database>,
  dataDir: string,
  range: { baseIndex: number; baseHash: string; throughIndex: number; throughHash: string },
  at: string,
): Promise<{ file: string; sha256: string; header: ArchiveHeader }> {
  const dir = archiveDir(dataDir);
  await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
  const header: ArchiveHeader = {
    format: ARCHIVE_FORMAT,
    version: 1,
    firstIndex: range.baseIndex + 1,
    lastIndex: range.throughIndex,
    count: range.throughIndex - range.baseIndex,
    prevHash: range.baseHash,
    lastHash: range.throughHash,
    createdAt: at,
  };
  const file = path.join(dir, archiveFileName(header.firstIndex, header.lastIndex, at));
  const temp = `${file}.partial`;
  async function* lines(): AsyncGenerator<string> {
    yield `${JSON.stringify(header)}\n`;
    let after = range.baseIndex;
    while (after < range.throughIndex) {
      const rows = await repo.chainBatch(db, after, AUDIT_TRAIL_LIMITS.batch, range.throughIndex);
      if (rows.length === 0) break;
      let out = '';
      for (const row of rows) out += `${JSON.stringify(row)}\n`;
      after = rows[rows.length - 1]!.chainIndex!;
      yield out;
    }
  }
  const hash = crypto.createHash('sha256');
  const out = fs.createWriteStream(temp, { mode: 0o600 });
  const gzip = zlib.createGzip({ level: 6 });
  gzip.on('data', (chunk: Buffer) => hash.update(chunk));
  await pipeline(Readable.from(lines()), gzip, out);
  const handle = await fsp.open(temp, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fsp.rename(temp, file);
  return { file, sha256: hash.digest('hex'), header };
}

/** Reads an archive: its header, then its entries one at a time (streamed, memory stays flat). */
export async function openArchive(file: string): Promise<{ header: ArchiveHeader; rows: AsyncGenerator<ChainRow> }> {
  const source = fs.createReadStream(file);
  const input = zlib.createGunzip();
  source.on('error', (err) => input.destroy(err));
  source.pipe(input);
  const reader = readline.createInterface({ input, crlfDelay: Infinity })[Symbol.asyncIterator]();
  let header: ArchiveHeader | null;
  try {
    const first = await reader.next();
    header = first.done ? null : (JSON.parse(first.value) as ArchiveHeader);
  } catch (err) {
    source.destroy();
    throw new Error(`cannot read ${path.basename(file)}: ${(err as Error).message}`, { cause: err });
  }
  if (!header || header.format !== ARCHIVE_FORMAT) {
    source.destroy();
    throw new Error(`${path.basename(file)} is not a PalaYan audit archive`);
  }
  async function* rows(): AsyncGenerator<ChainRow> {
    try {
      for (let next = await reader.next(); !next.done; next = await reader.next()) {
        if (next.value.trim() !== '') yield JSON.parse(next.value) as ChainRow;
      }
    } finally {
      source.destroy();
    }
  }
  return { header, rows: rows() };
}

export interface ArchiveInfo {
  file: string;
  firstIndex: number;
  lastIndex: number;
  count: number;
  createdAt: string;
  bytes: number;
}

/** The archives in DATA_DIR, oldest range first (read from their headers). */
export async function listArchives(dataDir: string): Promise<ArchiveInfo[]> {
  const dir = archiveDir(dataDir);
  let names: string[];
  try {
    names = (await fsp.readdir(dir)).filter((n) => /^audit-\d+-\d+-[0-9TZ]+\.jsonl\.gz$/.test(n));
  } catch {
    return [];
  }
  const infos: ArchiveInfo[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      const { header, rows } = await openArchive(file);
      await rows.return(undefined);
      infos.push({
        file: name,
        firstIndex: header.firstIndex,
        lastIndex: header.lastIndex,
        count: header.count,
        createdAt: header.createdAt,
        bytes: (await fsp.stat(file)).size,
      });
    } catch {
      // An unreadable file is not listed; `npm run audit:verify -- --archive` reports why.
    }
  }
  return infos.sort((a, b) => a.firstIndex - b.firstIndex);
}
