import fs from 'node:fs';
import path from 'node:path';
import { EVALUATION_SET_LIMITS as L, EVALUATION_SET_SIDE_FILES, EVALUATION_SET_TEXTS } from '../../../../common/evaluation-sets.js';
import { hasControlCharacters, visibleControls } from '../../../../common/text-controls.js';
import { fail, invalid } from '../../../platform/http/errors.js';
import { serveFileReads } from '../../../platform/parsing/serve.js';
import { NotAZipError, OutsidePathError, TooManyEntriesError, UnpackLimitError, unpackZip } from '../../../platform/parsing/zip-guard.js';
import { sniffImageType, type SniffedType } from '../../content/photos/index.js';

const E = EVALUATION_SET_TEXTS.errors;

export interface UnpackedPhoto {
  /** Its path in the ZIP. */
  name: string;
  /** Its folder's name. */
  label: string;
  type: SniffedType;
  /** Where its bytes were written. */
  file: string;
}

export interface UnpackedSet {
  photos: UnpackedPhoto[];
  /** label_map.json's label → record id, when the ZIP has one. */
  manifest: Record<string, string> | null;
}

const base = (name: string) => name.slice(name.lastIndexOf('/') + 1);
/** Folders and files no photo is: macOS's resource forks and hidden files. */
const ignored = (name: string) => name.startsWith('__MACOSX/') || name.split('/').some((part) => part.startsWith('.'));
const isSideFile = (name: string) => (EVALUATION_SET_SIDE_FILES as readonly string[]).includes(base(name)) && name.split('/').length <= 2;

/** label_map.json as the training ZIP writes it: `classes: [{ label, disease_id }]`. */
function readManifest(data: Buffer): Record<string, string> {
  if (data.length > L.maxManifestBytes) invalid({ file: E.manifest('it is larger than 1 MB') });
  let parsed: unknown;
  try {
    parsed = JSON.parse(data.toString('utf8').replace(/^\uFEFF/, ''));
  } catch {
    return invalid({ file: E.manifest('it is not JSON') });
  }
  const classes = (parsed as { classes?: unknown } | null)?.classes;
  if (!Array.isArray(classes) || classes.length > L.maxLabels) return invalid({ file: E.manifest('it has no list of classes') });
  const out: Record<string, string> = {};
  for (const c of classes as Array<{ label?: unknown; disease_id?: unknown }>) {
    if (typeof c?.label !== 'string' || typeof c.disease_id !== 'string' || c.label.length > 200 || c.disease_id.length > 100)
      return invalid({ file: E.manifest('a class has no label or disease_id') });
    out[c.label] = c.disease_id;
  }
  return out;
}

/**
 * An evaluation set's ZIP, checked and unpacked on a file reader's thread: through the zip guard
 * (every byte accounted for, sizes counted as they inflate, no entry outside its folders), each
 * photo in a label folder and a photo by its first bytes, written into `outDir` one file each.
 * The training ZIP's README, labels.txt and metadata.csv are passed over, its label_map.json read.
 */
async function unpackEvaluationSet(zipFile: string, outDir: string): Promise<UnpackedSet> {
  const photos: UnpackedPhoto[] = [];
  let manifest: Record<string, string> | null = null;
  const labels = new Set<string>();
  try {
    await unpackZip(
      zipFile,
      { maxBytes: L.maxInflatedBytes, maxEntries: L.maxEntries },
      (entry) => {
        if (hasControlCharacters(entry.fileName)) invalid({ file: E.controls(visibleControls(entry.fileName)) });
        if (ignored(entry.fileName)) return false;
        if (isSideFile(entry.fileName)) return base(entry.fileName) === 'label_map.json';
        if (entry.uncompressedSize > L.maxPhotoBytes)
          fail('PAYLOAD_TOO_LARGE', E.photoTooLarge(entry.fileName), { file: E.photoTooLarge(entry.fileName) });
        return true;
      },
      async (name, data) => {
        if (base(name) === 'label_map.json') {
          manifest = readManifest(data);
          return;
        }
        const parts = name.split('/');
        if (parts.length < 2) invalid({ file: E.notInFolder(name) });
        const sniffed = sniffImageType(data.subarray(0, 512));
        if (!('type' in sniffed)) return invalid({ file: E.notImage(name) });
        if (photos.length >= L.maxPhotos)
          fail('PAYLOAD_TOO_LARGE', E.tooManyPhotos(photos.length + 1), { file: E.tooManyPhotos(photos.length + 1) });
        const label = parts[parts.length - 2]!;
        labels.add(label);
        if (labels.size > L.maxLabels) invalid({ file: E.tooManyLabels });
        const file = path.join(outDir, `${photos.length}`);
        await fs.promises.writeFile(file, data, { flag: 'wx' });
        photos.push({ name, label, type: sniffed.type, file });
      },
    );
  } catch (err) {
    if (err instanceof TooManyEntriesError) fail('PAYLOAD_TOO_LARGE', E.tooManyPhotos(err.count), { file: E.tooManyPhotos(err.count) });
    if (err instanceof UnpackLimitError) fail('PAYLOAD_TOO_LARGE', E.unpackLimit, { file: E.unpackLimit });
    if (err instanceof OutsidePathError) invalid({ file: E.outsideFolder(err.entryName) });
    if (err instanceof NotAZipError) invalid({ file: E.notZip });
    throw err;
  }
  if (photos.length === 0) invalid({ file: E.noPhotos });
  return { photos, manifest };
}

/** The evaluation sets' reader thread: a set's ZIP, off the server's thread. */
export const evaluationSetTasks = { unpack: unpackEvaluationSet };

serveFileReads(evaluationSetTasks);
