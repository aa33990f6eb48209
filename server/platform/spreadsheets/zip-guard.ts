import yauzl from 'yauzl';

export class UnpackLimitError extends Error {}
export class NotAZipError extends Error {}

function openZip(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, autoClose: true, validateEntrySizes: true, strictFileNames: false }, (err, zip) => {
      if (err || !zip) reject(new NotAZipError(err?.message ?? 'unreadable zip'));
      else resolve(zip);
    });
  });
}

/**
 * Unpacks every entry of a zip (an XLSX) to nowhere, counting the bytes that come out, before a
 * spreadsheet library unpacks it for real. The count is of inflated bytes, not of the sizes the
 * zip declares (a bomb lies about those): past `maxBytes` in all, or past `maxEntries` entries,
 * it stops with UnpackLimitError. A file that is not a zip gives NotAZipError.
 */
export async function checkUnpackedSize(file: string, maxBytes: number, maxEntries: number): Promise<void> {
  const zip = await openZip(file);
  if (zip.entryCount > maxEntries) {
    zip.close();
    throw new UnpackLimitError(`${zip.entryCount} entries`);
  }
  let total = 0;
  await new Promise<void>((resolve, reject) => {
    const stop = (err: Error) => { zip.close(); reject(err); };
    zip.on('error', (err: Error) => stop(err instanceof UnpackLimitError ? err : new NotAZipError(err.message)));
    zip.on('end', () => resolve());
    zip.on('entry', (entry: yauzl.Entry) => {
      if (entry.fileName.endsWith('/')) { zip.readEntry(); return; }
      if (total + entry.uncompressedSize > maxBytes) { stop(new UnpackLimitError('declared size')); return; }
      zip.openReadStream(entry, (err, stream) => {
        if (err || !stream) { stop(new NotAZipError(err?.message ?? 'unreadable entry')); return; }
        stream.on('data', (chunk: Buffer) => {
          total += chunk.length;
          if (total > maxBytes) { stream.destroy(); stop(new UnpackLimitError('inflated size')); }
        });
        stream.on('error', (e: Error) => stop(new NotAZipError(e.message)));
        stream.on('end', () => zip.readEntry());
      });
    });
    zip.readEntry();
  });
}
