import fsp from 'node:fs/promises';
import path from 'node:path';
import { LocalStorage, PRIVATE_DIR_MODE, type Storage } from './storage.js';

/** Reads a stored file whole (photos are capped in size, and only a few are read at once). */
export async function readStored(storage: Storage, key: string): Promise<Buffer> {
  if (storage instanceof LocalStorage) return fsp.readFile(storage.localPath(key));
  return readAll(await storage.get(key));
}

/** A stream's bytes in one buffer (for photos, which are capped in size). */
export async function readAll(stream: AsyncIterable<Buffer | Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

export class TargetExistsError extends Error {}

/**
 * Moves a stored file without ever replacing another one (TargetExistsError when the target
 * exists): a hard link plus unlink on the local folder, copy-then-delete on other backends.
 */
export async function moveStored(storage: Storage, from: string, to: string): Promise<void> {
  if (from === to) return;
  if (storage instanceof LocalStorage) {
    const target = storage.localPath(to);
    await fsp.mkdir(path.dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
    try {
      await fsp.link(storage.localPath(from), target);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new TargetExistsError(to);
      throw err;
    }
    await fsp.unlink(storage.localPath(from));
    return;
  }
  if (await storage.stat(to)) throw new TargetExistsError(to);
  if (storage.copy) await storage.copy(from, to);
  else await storage.put(to, await storage.get(from));
  await storage.delete(from);
}
