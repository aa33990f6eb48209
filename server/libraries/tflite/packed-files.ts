import yauzl from 'yauzl';
import yazl from 'yazl';
import { nextZipEntry } from '../../platform/support/zip-entries.js';

/**
 * TFLite Metadata's associated files (labels.txt and the like) travel inside the model file:
 * the official metadata writer appends a ZIP archive to the flatbuffer, its offsets counted
 * from the start of the model file, so the whole file is also a valid ZIP.
 */
export interface PackedFile {
  name: string;
  data: Uint8Array;
}

/** The archive cannot be read, or does not hold the file asked for within its limits. */
export class PackedFileError extends Error {}

// yazl writes the DOS date from the Date's local-time fields, so a date made from local fields
// gives the same bytes in every time zone.
const FIXED_MTIME = new Date(1980, 0, 1, 0, 0, 0);

const readUInt32 = (b: Buffer, at: number): number => b.readUInt32LE(at);

/** Adds `base` to every offset of a ZIP archive, for it to sit `base` bytes into a file. */
function shiftOffsets(zip: Buffer, base: number): void {
  const eocd = zip.length - 22;
  if (eocd < 0 || readUInt32(zip, eocd) !== 0x06054b50) throw new Error('Unexpected ZIP layout (end record)');
  const entries = zip.readUInt16LE(eocd + 10);
  let at = readUInt32(zip, eocd + 16);
  for (let i = 0; i < entries; i += 1) {
    if (readUInt32(zip, at) !== 0x02014b50) throw new Error('Unexpected ZIP layout (central directory)');
    const local = readUInt32(zip, at + 42);
    if (local === 0xffffffff || local + base > 0xfffffffe) throw new Error('ZIP64 archives are not supported');
    zip.writeUInt32LE(local + base, at + 42);
    at += 46 + zip.readUInt16LE(at + 28) + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  zip.writeUInt32LE(readUInt32(zip, eocd + 16) + base, eocd + 16);
}

/** The model followed by a stored (uncompressed) ZIP of the files, as the official writer does. */
export async function appendPackedFiles(model: Uint8Array, files: PackedFile[]): Promise<Uint8Array> {
  const zip = new yazl.ZipFile();
  for (const f of files) {
    zip.addBuffer(Buffer.from(f.data), f.name, { mtime: FIXED_MTIME, mode: 0o100644, compress: false, forceDosTimestamp: true });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  const archive = Buffer.concat(chunks);
  shiftOffsets(archive, model.length);
  const out = new Uint8Array(model.length + archive.length);
  out.set(model);
  out.set(archive, model.length);
  return out;
}

function nextEntry(zip: yauzl.ZipFile): Promise<yauzl.Entry | null> {
  return nextZipEntry(zip).catch((err: Error) => {
    throw new PackedFileError(err.message);
  });
}

/** One file packed in the model, read at most `maxBytes` long; throws PackedFileError otherwise. */
export async function readPackedFile(model: Uint8Array, name: string, maxBytes: number, maxEntries = 1000): Promise<Uint8Array> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(Buffer.from(model.buffer, model.byteOffset, model.byteLength), { lazyEntries: true });
  } catch (err) {
    throw new PackedFileError(`no readable ZIP archive (${(err as Error).message})`);
  }
  try {
    if (zip.entryCount > maxEntries) throw new PackedFileError(`${zip.entryCount} packed files`);
    for (let entry = await nextEntry(zip); entry; entry = await nextEntry(zip)) {
      if (entry.fileName !== name) continue;
      if (entry.uncompressedSize > maxBytes) throw new PackedFileError(`${name} is larger than ${maxBytes} bytes`);
      const chunks: Buffer[] = [];
      let size = 0;
      try {
        for await (const chunk of (await zip.openReadStreamPromise(entry)) as AsyncIterable<Buffer>) {
          size += chunk.length;
          if (size > maxBytes) throw new PackedFileError(`${name} is larger than ${maxBytes} bytes`);
          chunks.push(chunk);
        }
      } catch (err) {
        throw err instanceof PackedFileError ? err : new PackedFileError(`${name}: ${(err as Error).message}`);
      }
      return new Uint8Array(Buffer.concat(chunks, size));
    }
    throw new PackedFileError(`${name} is not packed in the file`);
  } finally {
    zip.close();
  }
}
