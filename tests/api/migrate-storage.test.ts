import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3Storage } from '../../server/platform/storage/s3-storage.js';
import { migrateLocalToS3 } from '../../server/platform/storage/storage-migration.js';
import { startS3, type TestS3 } from '../fixtures/s3.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

/** npm run migrate-storage -- --to s3: a local photo folder into a real S3 protocol server. */
let s3: TestS3;
let bucket: S3Storage;
let files: string;
beforeAll(async () => {
  s3 = await startS3();
  bucket = new S3Storage(s3.settings);
  files = fs.mkdtempSync(path.join(os.tmpdir(), 'palayan-migrate-'));
  const write = (key: string, body: Buffer | string) => {
    fs.mkdirSync(path.dirname(path.join(files, key)), { recursive: true });
    fs.writeFileSync(path.join(files, key), body);
  };
  for (let i = 0; i < 30; i += 1) write(`rice_disease/Rice blast/17000000000${i}_${i}_dahon ñ ${i}.jpg`, Buffer.alloc(1000 + i * 37, i));
  write('avatars/a1/avatar_1.jpg', 'face');
  write('rice_pests/_variants/ab/x_thumb.jpg', 'thumb');
  write('rice_pests/Rice bug/half-written.jpg.123.456.part', 'unfinished');
});
afterAll(async () => {
  bucket.close();
  await s3.close();
  fs.rmSync(files, { recursive: true, force: true });
});

async function bytesOf(key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of await bucket.get(key)) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

describe('storage migration to S3', () => {
  it('copies every file under the same key, verified, and a second run copies nothing', async () => {
    const progress: number[] = [];
    const first = await migrateLocalToS3(files, bucket, { onProgress: (p) => progress.push(p.done) });
    expect(first).toMatchObject({ files: 32, copied: 32, skipped: 0, mismatched: [], unusable: [] });
    expect(progress.at(-1)).toBe(32);
    expect(await bytesOf('rice_disease/Rice blast/170000000007_7_dahon ñ 7.jpg')).toEqual(Buffer.alloc(1000 + 7 * 37, 7));
    expect(await bucket.stat('rice_pests/Rice bug/half-written.jpg.123.456.part')).toBeNull();

    const again = await migrateLocalToS3(files, bucket);
    expect(again).toMatchObject({ files: 32, copied: 0, skipped: 32, mismatched: [] });
  });

  it('resumes: an object missing or different in the bucket is copied again, the rest skipped', async () => {
    await bucket.delete('avatars/a1/avatar_1.jpg');
    await bucket.put('rice_pests/_variants/ab/x_thumb.jpg', Buffer.from('tampered'));
    const resumed = await migrateLocalToS3(files, bucket);
    expect(resumed).toMatchObject({ copied: 2, skipped: 30, mismatched: [] });
    expect((await bytesOf('rice_pests/_variants/ab/x_thumb.jpg')).toString()).toBe('thumb');
  });

  it('runs as a command with a progress bar and says when everything matches', async () => {
    const env = {
      ...process.env,
      NODE_NO_WARNINGS: '1',
      DATA_DIR: path.dirname(files),
      S3_BUCKET: s3.settings.bucket,
      S3_ENDPOINT: s3.settings.endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    };
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', 'tsx', 'server/cli/migrate-storage.ts', '--to', 's3', '--from', files],
      { cwd: root, env },
    );
    expect(stderr).toContain('Copying photos [');
    expect(stdout).toContain('32 files');
    expect(stdout).toContain('0 copied, 32 already there');
    expect(stdout).toContain('Every object matches its local file');
    await expect(run(process.execPath, ['--import', 'tsx', 'server/cli/migrate-storage.ts'], { cwd: root, env })).rejects.toMatchObject({
      code: 2,
    });
  });
});
