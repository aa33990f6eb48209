/**
 * The few EXIF facts a stored photo keeps (camera make and model, when it was taken, which way
 * up it is), read from a photo's EXIF block and written back as a new, minimal block. Every
 * other tag (GPS position, serial numbers, owner and artist names, maker notes, thumbnails) is
 * left behind. Reading never throws: a malformed block gives what could be read safely.
 */

export interface CameraFacts {
  make: string | null;
  model: string | null;
  /** EXIF DateTimeOriginal as written by the camera ("2024:07:01 08:30:12"), local time. */
  takenAt: string | null;
  /** EXIF OffsetTimeOriginal ("+08:00") when the camera wrote one. */
  takenOffset: string | null;
  /** EXIF Orientation, 1..8. */
  orientation: number | null;
}

export const NO_CAMERA_FACTS: CameraFacts = { make: null, model: null, takenAt: null, takenOffset: null, orientation: null };

const TAG = {
  make: 0x010f,
  model: 0x0110,
  orientation: 0x0112,
  exifIfd: 0x8769,
  dateTimeOriginal: 0x9003,
  offsetTimeOriginal: 0x9011,
} as const;
const ASCII = 2;
const SHORT = 3;
const LONG = 4;
const MAX_ENTRIES = 1000;

/** Printable ASCII only, trimmed, at most `max` characters; null when nothing is left. */
function cleanText(value: string, max: number): string | null {
  const text = value
    .replace(/[^\x20-\x7e]/g, '')
    .trim()
    .slice(0, max);
  return text || null;
}

/** Reads the kept facts from a TIFF-structured EXIF block (without the "Exif\0\0" prefix). */
export function readCameraFacts(tiff: Buffer): CameraFacts {
  const facts: CameraFacts = { ...NO_CAMERA_FACTS };
  if (tiff.length < 8) return facts;
  const order = tiff.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') return facts;
  const le = order === 'II';
  const u16 = (at: number) => (le ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (le ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  if (u16(2) !== 42) return facts;

  function entries(ifd: number): Map<number, { type: number; count: number; at: number }> {
    const found = new Map<number, { type: number; count: number; at: number }>();
    if (ifd < 8 || ifd + 2 > tiff.length) return found;
    const n = Math.min(u16(ifd), MAX_ENTRIES);
    for (let i = 0; i < n; i += 1) {
      const at = ifd + 2 + i * 12;
      if (at + 12 > tiff.length) break;
      found.set(u16(at), { type: u16(at + 2), count: u32(at + 4), at: at + 8 });
    }
    return found;
  }
  function text(entry: { type: number; count: number; at: number } | undefined, max: number): string | null {
    if (!entry || entry.type !== ASCII || entry.count === 0 || entry.count > 4096) return null;
    const start = entry.count <= 4 ? entry.at : u32(entry.at);
    if (start + entry.count > tiff.length) return null;
    return cleanText(tiff.toString('latin1', start, start + entry.count).replace(/\0.*$/s, ''), max);
  }

  const ifd0 = entries(u32(4));
  facts.make = text(ifd0.get(TAG.make), 64);
  facts.model = text(ifd0.get(TAG.model), 64);
  const orientation = ifd0.get(TAG.orientation);
  if (orientation?.type === SHORT) {
    const value = u16(orientation.at);
    if (value >= 1 && value <= 8) facts.orientation = value;
  }
  const exifPointer = ifd0.get(TAG.exifIfd);
  if (exifPointer && (exifPointer.type === LONG || exifPointer.type === 13)) {
    const exif = entries(u32(exifPointer.at));
    const taken = text(exif.get(TAG.dateTimeOriginal), 19);
    facts.takenAt = taken && /^\d{4}:\d{2}:\d{2} \d{2}:\d{2}:\d{2}$/.test(taken) ? taken : null;
    const offset = text(exif.get(TAG.offsetTimeOriginal), 6);
    facts.takenOffset = offset && /^[+-]\d{2}:\d{2}$/.test(offset) ? offset : null;
  }
  return facts;
}

interface Field {
  tag: number;
  type: number;
  value: Buffer | number;
}

/** A little-endian TIFF block holding only the kept facts; null when there is nothing to keep. */
export function writeCameraFacts(facts: CameraFacts): Buffer | null {
  const ascii = (s: string) => Buffer.from(`${s}\0`, 'latin1');
  const ifd0: Field[] = [];
  if (facts.make) ifd0.push({ tag: TAG.make, type: ASCII, value: ascii(facts.make) });
  if (facts.model) ifd0.push({ tag: TAG.model, type: ASCII, value: ascii(facts.model) });
  if (facts.orientation) ifd0.push({ tag: TAG.orientation, type: SHORT, value: facts.orientation });
  const exif: Field[] = [];
  if (facts.takenAt) exif.push({ tag: TAG.dateTimeOriginal, type: ASCII, value: ascii(facts.takenAt) });
  if (facts.takenAt && facts.takenOffset) exif.push({ tag: TAG.offsetTimeOriginal, type: ASCII, value: ascii(facts.takenOffset) });
  if (exif.length > 0) ifd0.push({ tag: TAG.exifIfd, type: LONG, value: 0 });
  if (ifd0.length === 0) return null;

  const ifdSize = (fields: Field[]) => 2 + fields.length * 12 + 4;
  const dataSize = (fields: Field[]) =>
    fields.reduce((n, f) => n + (Buffer.isBuffer(f.value) && f.value.length > 4 ? f.value.length + (f.value.length % 2) : 0), 0);
  const ifd0At = 8;
  const ifd0DataAt = ifd0At + ifdSize(ifd0);
  const exifAt = ifd0DataAt + dataSize(ifd0);
  const total = exifAt + (exif.length > 0 ? ifdSize(exif) + dataSize(exif) : 0);
  const out = Buffer.alloc(total);
  out.write('II', 0, 'latin1');
  out.writeUInt16LE(42, 2);
  out.writeUInt32LE(ifd0At, 4);

  function writeIfd(at: number, dataAt: number, fields: Field[]): void {
    out.writeUInt16LE(fields.length, at);
    let data = dataAt;
    fields.forEach((f, i) => {
      const entry = at + 2 + i * 12;
      out.writeUInt16LE(f.tag, entry);
      out.writeUInt16LE(f.type, entry + 2);
      if (f.tag === TAG.exifIfd) {
        out.writeUInt32LE(1, entry + 4);
        out.writeUInt32LE(exifAt, entry + 8);
      } else if (typeof f.value === 'number') {
        out.writeUInt32LE(1, entry + 4);
        out.writeUInt16LE(f.value, entry + 8);
      } else {
        out.writeUInt32LE(f.value.length, entry + 4);
        if (f.value.length <= 4) f.value.copy(out, entry + 8);
        else {
          out.writeUInt32LE(data, entry + 8);
          f.value.copy(out, data);
          data += f.value.length + (f.value.length % 2);
        }
      }
    });
    out.writeUInt32LE(0, at + 2 + fields.length * 12);
  }
  writeIfd(ifd0At, ifd0DataAt, ifd0);
  if (exif.length > 0) writeIfd(exifAt, exifAt + ifdSize(exif), exif);
  return out;
}

/** The capture time as ISO 8601 ("2024-07-01T08:30:12+08:00"; without an offset when the camera gave none). */
export function takenAtIso(facts: CameraFacts): string | null {
  if (!facts.takenAt) return null;
  const [date, time] = facts.takenAt.split(' ');
  return `${date!.replaceAll(':', '-')}T${time}${facts.takenOffset ?? ''}`;
}
