import yauzl from 'yauzl';
import yazl from 'yazl';
import { nextZipEntry } from '../support/zip-entries.js';

export class UnpackLimitError extends Error {}
export class NotAZipError extends Error {}
/** More entries than the limit, told before anything is read. */
export class TooManyEntriesError extends UnpackLimitError {
  constructor(readonly count: number) {
    super(`${count} entries`);
  }
}
/** An entry named with `..`, an absolute path or a backslash: it would land outside the folder it is unpacked into. */
export class OutsidePathError extends Error {
  constructor(readonly entryName: string) {
    super(`entry outside the archive's folders: ${entryName}`);
  }
}

export interface UnpackLimits {
  /** Inflated bytes of all entries together. */
  maxBytes: number;
  maxEntries: number;
}

/** What read-excel-file reads of an XLSX: its XML parts and their relationships. */
const wanted = (name: string) => name.endsWith('.xml') || name.endsWith('.xml.rels');

/** A data descriptor's possible lengths: with or without its signature, 32- or 64-bit sizes. */
const DESCRIPTOR_LENGTHS = new Set([0, 12, 16, 20, 24]);

function openZip(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    // Sizes are checked here, not by yauzl, so that an entry inflating past its declared size
    // reads as a bomb (UnpackLimitError) rather than as a broken file.
    yauzl.open(file, { lazyEntries: true, autoClose: false, validateEntrySizes: false, strictFileNames: false }, (err, zip) => {
      if (err || !zip) reject(new NotAZipError(err?.message ?? 'unreadable zip'));
      else resolve(zip);
    });
  });
}

/** yauzl's refusals of an entry's name. */
const OUTSIDE_PATH = /^(?:invalid relative path|absolute path|invalid characters in fileName): (.*)$/s;

function nextEntry(zip: yauzl.ZipFile): Promise<yauzl.Entry | null> {
  return nextZipEntry(zip).catch((err: Error) => {
    const outside = OUTSIDE_PATH.exec(err.message);
    throw outside ? new OutsidePathError(outside[1]!) : new NotAZipError(err.message);
  });
}

interface Span {
  start: number;
  dataEnd: number;
  descriptor: boolean;
}

/**
 * Every byte before the central directory must belong to an entry it lists: local header and
 * data, one after another from the first byte, each followed by nothing or by its data
 * descriptor. No local header (30 bytes at least) fits in a descriptor's place, so no entry
 * can hide from the count, and none can share its data with another.
 */
function checkCoverage(spans: Span[], centralDirectoryOffset: number): void {
  spans.sort((a, b) => a.start - b.start);
  let cursor = 0;
  for (const [i, span] of spans.entries()) {
    if (span.start !== cursor) throw new UnpackLimitError('bytes outside the listed entries');
    const next = spans[i + 1]?.start ?? centralDirectoryOffset;
    const gap = next - span.dataEnd;
    if (span.descriptor ? !DESCRIPTOR_LENGTHS.has(gap) : gap !== 0) throw new UnpackLimitError('bytes outside the listed entries');
    cursor = next;
  }
  if (cursor !== centralDirectoryOffset) throw new UnpackLimitError('bytes outside the listed entries');
}

/** The central directory's entries, checked before anything is inflated. */
async function listEntries(zip: yauzl.ZipFile, limits: UnpackLimits): Promise<yauzl.Entry[]> {
  if (zip.entryCount > limits.maxEntries) throw new TooManyEntriesError(zip.entryCount);
  // Before the first entry is read, yauzl's cursor is the central directory's offset.
  const centralDirectoryOffset: unknown = (zip as unknown as { readEntryCursor: unknown }).readEntryCursor;
  if (typeof centralDirectoryOffset !== 'number' || zip.entriesRead !== 0) throw new NotAZipError('central directory offset unknown');
  const entries: yauzl.Entry[] = [];
  const names = new Set<string>();
  const spans: Span[] = [];
  let declared = 0;
  for (let entry = await nextEntry(zip); entry; entry = await nextEntry(zip)) {
    if (names.has(entry.fileName)) throw new UnpackLimitError(`${entry.fileName} twice`);
    names.add(entry.fileName);
    declared += entry.uncompressedSize;
    if (declared > limits.maxBytes) throw new UnpackLimitError('declared size');
    let fileDataStart: number;
    try {
      ({ fileDataStart } = await zip.readLocalFileHeaderPromise(entry, { minimal: true }));
    } catch (err) {
      throw new NotAZipError((err as Error).message);
    }
    // Flag bit 3: the sizes and CRC follow the data.
    spans.push({
      start: entry.relativeOffsetOfLocalHeader,
      dataEnd: fileDataStart + entry.compressedSize,
      descriptor: (entry.generalPurposeBitFlag & 0x8) !== 0,
    });
    entries.push(entry);
  }
  if (entries.length !== zip.entryCount) throw new NotAZipError('entry count');
  checkCoverage(spans, centralDirectoryOffset);
  return entries;
}

/**
 * Inflates one entry, counting what comes out: past its declared size or past what is left of
 * the whole archive's allowance, the stream is destroyed there and then. The bytes are kept only
 * when `keep`.
 */
async function inflate(zip: yauzl.ZipFile, entry: yauzl.Entry, budget: { left: number }, keep: boolean): Promise<Buffer | null> {
  let stream: NodeJS.ReadableStream;
  try {
    stream = await zip.openReadStreamPromise(entry);
  } catch (err) {
    throw new NotAZipError((err as Error).message);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      budget.left -= chunk.length;
      if (size > entry.uncompressedSize || budget.left < 0) throw new UnpackLimitError('inflated size');
      if (keep) chunks.push(chunk);
    }
  } catch (err) {
    if (err instanceof UnpackLimitError) throw err;
    throw new NotAZipError((err as Error).message);
  }
  if (size !== entry.uncompressedSize) throw new NotAZipError(`${entry.fileName}: ${size} bytes, ${entry.uncompressedSize} declared`);
  return keep ? Buffer.concat(chunks, size) : null;
}

/** A fresh archive of the given files, their sizes in their own local headers. */
async function zipOf(files: ReadonlyArray<readonly [string, Buffer]>): Promise<Buffer> {
  const out = new yazl.ZipFile();
  try {
    for (const [name, data] of files) out.addBuffer(data, name, { compressionLevel: 1 });
  } catch (err) {
    throw new NotAZipError((err as Error).message);
  }
  out.end();
  const chunks: Buffer[] = [];
  for await (const chunk of out.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/**
 * Reads an archive's entries through the guard: the entries its central directory lists, each
 * inflated once with a hard count of the bytes that come out (a bomb lies about its sizes; past
 * `maxBytes` in all it stops with UnpackLimitError), and an archive that holds anything else
 * (entries left out of the central directory, names twice, entries sharing data, more than
 * `maxEntries`) is refused the same way, before anything is inflated. `each` is given the
 * bytes of the files `wanted` names, in the archive's order; the others are inflated and counted
 * only. A file that is not a zip gives NotAZipError, an entry named outside its folders
 * OutsidePathError.
 */
export async function unpackZip(
  file: string,
  limits: UnpackLimits,
  wanted: (entry: yauzl.Entry) => boolean,
  each: (name: string, data: Buffer) => Promise<void> | void,
): Promise<void> {
  const zip = await openZip(file);
  // yauzl may report a read error after the caller's own listener is gone.
  zip.on('error', () => {});
  try {
    const entries = await listEntries(zip, limits);
    const budget = { left: limits.maxBytes };
    for (const entry of entries) {
      if (entry.fileName.endsWith('/')) continue;
      const data = await inflate(zip, entry, budget, wanted(entry));
      if (data) await each(entry.fileName, data);
    }
  } finally {
    zip.close();
  }
}

/**
 * Unpacks an XLSX for a spreadsheet reader through the guard (unpackZip): the reader is given a
 * new zip of the XML parts alone, so what it unpacks is exactly what was counted here.
 */
export async function unpackXlsx(file: string, limits: UnpackLimits): Promise<Buffer> {
  const files: Array<readonly [string, Buffer]> = [];
  await unpackZip(
    file,
    limits,
    (entry) => wanted(entry.fileName),
    (name, data) => {
      files.push([name, data]);
    },
  );
  return zipOf(files);
}
