import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { S3Storage } from './s3-storage.js';
import { assertSafeKey } from './storage.js';

export interface MigrationProgress {
  done: number;
  total: number;
  bytes: number;
  totalBytes: number;
}

export interface MigrationReport {
  files: number;
  copied: number;
  skipped: number;
  bytes: number;
  /** Keys whose stored size or MD5 differs from the local file after the copy. */
  mismatched: string[];
  /** Local files whose names cannot be keys (left where they are, listed). */
  unusable: string[];
}

/** Every stored file below `root` as a key (slash-separated), unfinished `.part` writes left out. */
function localKeys(root: string): string[] {
  const keys: string[] = [];
  const walk = (dir: string, prefix: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const key = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(path.join(dir, entry.name), key);
      else if (entry.isFile() && !entry.name.endsWith('.part')) keys.push(key);
    }
  };
  if (fs.existsSync(root)) walk(root, '');
  return keys.sort();
}

/**
 * Copies the local photo folder into a bucket under the same keys. Resumable: an object that
 * is already there with the same size and MD5 is skipped, so a run that stopped half-way (or
 * is repeated) only copies what is missing or different. Each upload carries its MD5, which
 * the store checks; afterwards every object's size and MD5 are compared with the local file.
 */
export async function migrateLocalToS3(
  root: string,
  target: S3Storage,
  options: { concurrency?: number; onProgress?: (p: MigrationProgress) => void } = {},
): Promise<MigrationReport> {
  const unusable: string[] = [];
  const keys = localKeys(root).filter((key) => {
    try {
      assertSafeKey(key);
      return true;
    } catch {
      unusable.push(key);
      return false;
    }
  });
  const sizes = new Map(keys.map((k) => [k, fs.statSync(path.join(root, k)).size]));
  const totalBytes = [...sizes.values()].reduce((a, b) => a + b, 0);
  const md5s = new Map<string, string>();
  const report: MigrationReport = { files: keys.length, copied: 0, skipped: 0, bytes: 0, mismatched: [], unusable };
  let done = 0;
  let next = 0;
  const tick = () => options.onProgress?.({ done, total: keys.length, bytes: report.bytes, totalBytes });

  async function worker(): Promise<void> {
    for (;;) {
      const key = keys[next++];
      if (key === undefined) return;
      const body = await fsp.readFile(path.join(root, key));
      const md5 = createHash('md5').update(body).digest('hex');
      md5s.set(key, md5);
      const existing = await target.head(key);
      if (existing && existing.size === body.length && existing.etag === md5) {
        report.skipped += 1;
      } else {
        await target.putChecked(key, body);
        report.copied += 1;
      }
      report.bytes += body.length;
      done += 1;
      tick();
    }
  }
  tick();
  await Promise.all(Array.from({ length: options.concurrency ?? 4 }, worker));

  for (const key of keys) {
    const stored = await target.head(key);
    if (!stored || stored.size !== sizes.get(key) || stored.etag !== md5s.get(key)) report.mismatched.push(key);
  }
  return report;
}
