/**
 * The EXIF block (APP1) of a JPEG, copied for the smaller JPEG made from it in the browser:
 * Orientation set to 1 (the pixels are drawn upright) and the GPS sub-IFD emptied, its values
 * zeroed, so no location leaves the browser. The server keeps only camera and capture time.
 */
const TYPE_SIZES: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8 };
const ORIENTATION = 0x0112;
const GPS_IFD = 0x8825;

function findExif(bytes: Uint8Array): Uint8Array | null {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let pos = 2;
  while (pos + 4 <= bytes.length) {
    if (bytes[pos] !== 0xff) return null;
    const marker = bytes[pos + 1]!;
    if (marker === 0xda || marker === 0xd9) return null;
    const length = (bytes[pos + 2]! << 8) | bytes[pos + 3]!;
    if (length < 2 || pos + 2 + length > bytes.length) return null;
    const isExif = marker === 0xe1 && length > 8 && String.fromCharCode(...bytes.subarray(pos + 4, pos + 10)) === 'Exif\0\0';
    if (isExif) return bytes.slice(pos, pos + 2 + length);
    pos += 2 + length;
  }
  return null;
}

/** The APP1 segment to put into the smaller JPEG, or null when the file has none (or it cannot be read). */
export function exifForResized(head: ArrayBuffer): Uint8Array | null {
  const found = findExif(new Uint8Array(head));
  if (!found) return null;
  const segment: Uint8Array = found;
  const tiffStart = 10;
  const view = new DataView(segment.buffer, segment.byteOffset, segment.byteLength);
  const le = view.getUint16(tiffStart) === 0x4949;
  const u16 = (at: number) => view.getUint16(tiffStart + at, le);
  const u32 = (at: number) => view.getUint32(tiffStart + at, le);
  const inside = (at: number, size: number) => tiffStart + at + size <= segment.length;
  try {
    const ifd0 = u32(4);
    if (!inside(ifd0, 2)) return null;
    const count = u16(ifd0);
    for (let i = 0; i < count; i += 1) {
      const entry = ifd0 + 2 + i * 12;
      if (!inside(entry, 12)) return null;
      const tag = u16(entry);
      if (tag === ORIENTATION) view.setUint16(tiffStart + entry + 8, 1, le);
      if (tag === GPS_IFD) emptyGps(u32(entry + 8));
    }
    return segment;
  } catch {
    return null;
  }

  function emptyGps(at: number): void {
    if (!inside(at, 2)) return;
    const n = u16(at);
    for (let i = 0; i < n; i += 1) {
      const entry = at + 2 + i * 12;
      if (!inside(entry, 12)) return;
      const size = (TYPE_SIZES[u16(entry + 2)] ?? 1) * u32(entry + 4);
      if (size > 4 && inside(u32(entry + 8), size)) segment.fill(0, tiffStart + u32(entry + 8), tiffStart + u32(entry + 8) + size);
      segment.fill(0, tiffStart + entry, tiffStart + entry + 12);
    }
    view.setUint16(tiffStart + at, 0, le);
  }
}
