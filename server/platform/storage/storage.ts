import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { StorageUnavailable } from '../http/outages.js';

/**
 * File storage behind one interface. Keys are relative, slash-separated paths such as
 * `rice_pests/Rice bug/1700000000000_0_photo.jpg`; the default backend is a folder under
 * DATA_DIR. Keys are checked so that nothing can be read or written outside that folder.
 */
export interface Storage {
  put(key: string, body: Readable | Buffer): Promise<{ size: number }>;
  /** The file's bytes; with a range, only bytes start to end (inclusive). */
  get(key: string, range?: { start: number; end: number }): Promise<Readable>;
  stat(key: string): Promise<{ size: number; mtimeMs: number } | null>;
  delete(key: string): Promise<void>;
  /** Copies a stored file inside the store (no bytes through this server) when it can. */
  copy?(from: string, to: string): Promise<void>;
  /** Absolute path for tools that need one (sharp, backups); local backend only. */
  localPath(key: string): string;
  /** Throws when the store cannot be used now (the folder gone or read-only, the bucket not answering). */
  check(): Promise<void>;
  close?(): void;
}

/** The URL the browser uses for a stored key (served by GET /api/files/<key>). */
export function fileUrl(key: string): string {
  return `/api/files/${key.split('/').map(encodeURIComponent).join('/')}`;
}

/** Turns any user-given name into one safe path segment (no slashes, dots-only, controls). */
export function safeSegment(name: string, fallback = 'file'): string {
  const cleaned = name
    .normalize('NFKC')
    // eslint-disable-next-line no-control-regex -- control characters are what it removes
    .replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, '_')
    .replace(/^\.+/, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 120);
  return cleaned === '' || /^\.*$/.test(cleaned) ? fallback : cleaned;
}

export class InvalidStorageKey extends Error {}

export function assertSafeKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0 || key.length > 1024) throw new InvalidStorageKey('empty or too long');
  if (key.includes('\0') || key.includes('\\') || key.startsWith('/')) throw new InvalidStorageKey('bad characters');
  if (key.split('/').some((part) => part === '' || part === '.' || part === '..')) throw new InvalidStorageKey('bad segment');
}

/** Stored photos (originals included) are readable by the server's own user only. */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

export class LocalStorage implements Storage {
  readonly root: string;
  constructor(root: string) {
    this.root = path.resolve(root);
    fs.mkdirSync(this.root, { recursive: true, mode: PRIVATE_DIR_MODE });
  }

  localPath(key: string): string {
    assertSafeKey(key);
    const full = path.resolve(this.root, key);
    if (full !== this.root && !full.startsWith(this.root + path.sep)) throw new InvalidStorageKey('outside storage');
    return full;
  }

  async put(key: string, body: Readable | Buffer): Promise<{ size: number }> {
    const full = this.localPath(key);
    await fsp.mkdir(path.dirname(full), { recursive: true, mode: PRIVATE_DIR_MODE });
    const tmp = `${full}.${process.pid}.${Date.now()}.part`;
    try {
      if (Buffer.isBuffer(body)) await fsp.writeFile(tmp, body, { mode: PRIVATE_FILE_MODE });
      else await pipeline(body, fs.createWriteStream(tmp, { mode: PRIVATE_FILE_MODE }));
      await fsp.rename(tmp, full);
    } catch (err) {
      await fsp.rm(tmp, { force: true });
      throw err;
    }
    return { size: (await fsp.stat(full)).size };
  }

  async get(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const full = this.localPath(key);
    await fsp.access(full);
    return fs.createReadStream(full, range);
  }

  async stat(key: string): Promise<{ size: number; mtimeMs: number } | null> {
    try {
      const s = await fsp.stat(this.localPath(key));
      return s.isFile() ? { size: s.size, mtimeMs: s.mtimeMs } : null;
    } catch {
      return null;
    }
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.localPath(key), { force: true });
  }

  async check(): Promise<void> {
    if (!(await fsp.stat(this.root)).isDirectory()) throw new Error(`${this.root} is not a folder`);
    await fsp.access(this.root, fs.constants.R_OK | fs.constants.W_OK);
  }
}

/** The configured backend: an S3-compatible bucket when S3_BUCKET is set, else DATA_DIR/files. */
export async function createStorage(config: { dataDir: string; s3?: import('./s3-storage.js').S3Settings | undefined }): Promise<Storage> {
  if (config.s3) {
    // Loaded only when used: the AWS SDK is large and most installations keep photos on disk.
    const { S3Storage } = await import('./s3-storage.js');
    return guarded(new S3Storage(config.s3));
  }
  return guarded(new LocalStorage(path.join(config.dataDir, 'files')));
}

/** Failures callers handle themselves: a missing file, an unsafe key, a target that exists, a full disk. */
function passesThrough(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return (
    err instanceof InvalidStorageKey ||
    code === 'ENOENT' ||
    code === 'EEXIST' ||
    code === 'ENOSPC' ||
    code === 'EDQUOT' ||
    (err as Error | null)?.name === 'TargetExistsError'
  );
}

/**
 * The backend with every other failure of its calls made a StorageUnavailable (its cause kept),
 * so a request that meets a stopped bucket or a lost mount is answered "photo storage is not
 * answering", not with a generic error.
 */
function guarded<T extends Storage>(storage: T): T {
  return new Proxy(storage, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function' || prop === 'localPath' || prop === 'close' || prop === 'constructor') return value;
      return (...args: unknown[]) => {
        const result = (value as (...a: unknown[]) => unknown).apply(target, args);
        if (!(result instanceof Promise)) return result;
        return result.catch((err: unknown) => {
          throw passesThrough(err) ? err : new StorageUnavailable(err);
        });
      };
    },
  });
}
