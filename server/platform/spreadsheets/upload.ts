import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { IMPORT_TEXTS } from '../../../common/spreadsheets.js';
import type { AppContext } from '../http/context.js';
import { fail } from '../http/errors.js';
import { failMultipart, failTooLarge, type MultipartTexts } from '../http/multipart-errors.js';
import { readerOf } from '../parsing/file-readers.js';
import type { tableTasks } from './read-worker.js';
import { tableOf, type Table } from './table-reader.js';

/** An uploaded spreadsheet kept in a file of its own while it is read, then removed. */
export interface UploadedSheet {
  path: string;
  fileName: string;
  fields: Record<string, string>;
  remove(): Promise<void>;
}

const T = IMPORT_TEXTS.file;
const folderOf = (ctx: AppContext) => path.join(ctx.config.dataDir, 'tmp', 'imports');

/** Uploads left behind by a process that stopped while reading them (a finished request removes its own). */
export async function removeStaleUploads(ctx: AppContext, olderThanMs: number): Promise<number> {
  const folder = folderOf(ctx);
  const names = await fs.promises.readdir(folder).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    const file = path.join(folder, name);
    const stat = await fs.promises.stat(file).catch(() => null);
    if (stat && Date.now() - stat.mtimeMs > olderThanMs) {
      await fs.promises.rm(file, { force: true });
      removed += 1;
    }
  }
  return removed;
}

/**
 * Reads a multipart body (fields, then the part named "file") into DATA_DIR/tmp under a random
 * name: the bytes go to disk as they arrive, never whole into memory, and at most the import's
 * size limit of them. A broken body is a 400, a file over the limit a 413 in the route's words
 * (`texts`); both leave nothing.
 */
export async function receiveSheet(ctx: AppContext, request: FastifyRequest, texts: MultipartTexts = T): Promise<UploadedSheet> {
  if (!request.isMultipart()) fail('UNSUPPORTED_MEDIA_TYPE', T.missing, { file: T.missing });
  const folder = folderOf(ctx);
  await fs.promises.mkdir(folder, { recursive: true });
  const target = path.join(folder, `${crypto.randomBytes(16).toString('hex')}.upload`);
  const remove = () => fs.promises.rm(target, { force: true });
  const fields: Record<string, string> = {};
  let fileName: string | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      if (part.fieldname !== 'file' || fileName !== null) {
        part.file.resume();
        continue;
      }
      fileName = part.filename || 'upload';
      await pipeline(part.file, fs.createWriteStream(target, { flags: 'wx' }));
      if (part.file.truncated) failTooLarge(texts);
    }
  } catch (err) {
    await remove();
    failMultipart(err, texts);
  }
  if (fileName === null) fail('VALIDATION_FAILED', T.missing, { file: T.missing });
  return { path: target, fileName, fields, remove };
}

const tableReader = readerOf<typeof tableTasks>(new URL('./read-worker.js', import.meta.url));

/** An uploaded spreadsheet's table, read by a file reader's thread (platform/parsing). */
export async function readUploadedTable(ctx: AppContext, file: string): Promise<Table> {
  return tableOf(await tableReader.run(ctx.files, 'table', [file], { field: 'file' }));
}

/** Reads the uploaded sheet, runs `work` on its table, and removes the file whatever happens. */
export async function withUploadedTable<T>(
  ctx: AppContext,
  request: FastifyRequest,
  work: (upload: UploadedSheet, table: Table) => Promise<T>,
): Promise<T> {
  const upload = await receiveSheet(ctx, request);
  try {
    return await work(upload, await readUploadedTable(ctx, upload.path));
  } finally {
    await upload.remove();
  }
}
