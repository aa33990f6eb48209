import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moveStored, readStored, TargetExistsError } from '../../server/platform/storage/stored-files.js';
import { S3Storage } from '../../server/platform/storage/s3-storage.js';
import { LocalStorage, type Storage } from '../../server/platform/storage/storage.js';
import { startS3, type TestS3 } from '../fixtures/s3.js';

/** The one storage contract, run against the local folder and a real S3 protocol server. */
let s3: TestS3;
let localRoot: string;
const backends: Record<string, () => Storage> = {};
beforeAll(async () => {
  s3 = await startS3();
  localRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'palayan-storage-'));
  backends.local = () => new LocalStorage(localRoot);
  backends.s3 = () => new S3Storage(s3.settings);
});
afterAll(async () => {
  await s3.close();
  fs.rmSync(localRoot, { recursive: true, force: true });
});

async function text(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

describe.each(['local', 's3'])('storage contract: %s', (name) => {
  let storage: Storage;
  beforeAll(() => {
    storage = backends[name]!();
  });
  afterAll(() => {
    storage.close?.();
  });

  it('puts a buffer and reads it back, with its size, under keys with spaces and accents', async () => {
    const key = 'rice_pests/Rice bug ñ/1700000000000_0_dahon ng palay.jpg';
    expect(await storage.put(key, Buffer.from('first photo'))).toEqual({ size: 11 });
    expect(await text(await storage.get(key))).toBe('first photo');
    expect((await storage.stat(key))?.size).toBe(11);
    expect((await readStored(storage, key)).toString()).toBe('first photo');
  });

  it('streams a 13 MB photo in without holding it whole, and reads every byte back', async () => {
    const part = Buffer.alloc(1024 * 1024);
    for (let i = 0; i < part.length; i += 1) part[i] = (i * 31) % 251;
    async function* thirteen() {
      for (let i = 0; i < 13; i += 1) yield Buffer.from(part.map((b) => (b + i) % 256));
    }
    const key = 'rice_disease/Blast/big.jpg';
    expect(await storage.put(key, Readable.from(thirteen()))).toEqual({ size: 13 * part.length });
    const back = await readStored(storage, key);
    expect(back.length).toBe(13 * part.length);
    expect(back.subarray(12 * part.length, 12 * part.length + 10)).toEqual(Buffer.from(part.subarray(0, 10).map((b) => (b + 12) % 256)));
  });

  it('answers a missing key with null from stat and ENOENT from get', async () => {
    expect(await storage.stat('nothing/here.jpg')).toBeNull();
    await expect(storage.get('nothing/here.jpg')).rejects.toMatchObject({ code: 'ENOENT' });
    await storage.delete('nothing/here.jpg');
  });

  it('moves a file without ever replacing another, and deletes', async () => {
    await storage.put('a/from.jpg', Buffer.from('A'));
    await storage.put('a/taken.jpg', Buffer.from('B'));
    await expect(moveStored(storage, 'a/from.jpg', 'a/taken.jpg')).rejects.toBeInstanceOf(TargetExistsError);
    expect(await text(await storage.get('a/taken.jpg'))).toBe('B');
    await moveStored(storage, 'a/from.jpg', 'b/to.jpg');
    expect(await storage.stat('a/from.jpg')).toBeNull();
    expect(await text(await storage.get('b/to.jpg'))).toBe('A');
    await storage.delete('b/to.jpg');
    expect(await storage.stat('b/to.jpg')).toBeNull();
  });

  it('refuses keys that could leave the folder or the prefix', async () => {
    for (const key of ['../x.jpg', 'a/../../x.jpg', '/etc/passwd', 'a//b.jpg', 'a\\b.jpg', 'a/\0.jpg', '']) {
      await expect(storage.put(key, Buffer.from('x')), key).rejects.toThrow();
      await expect(storage.get(key), key).rejects.toThrow();
    }
  });
});
