/**
 * Evaluation sets: labelled photos a super admin uploads as a ZIP to evaluate scanner models on
 * (a model team's own field test set, a public set), kept apart from the farmer content. Their
 * limits and texts, shared by browser and server.
 */
import { CATALOG_KINDS, CATALOG_LIMITS } from './catalog.js';

export const EVALUATION_SETS_PATH = '/api/evaluation-sets';

export const EVALUATION_SET_LIMITS = {
  /** The ZIP as uploaded. */
  maxBytes: 1024 * 1024 * 1024,
  /** Photos in one set (a disease's photo set holds as many). */
  maxPhotos: CATALOG_KINDS.disease.maxImages,
  /** Entries the ZIP may list in all (folders, README, manifest and the like beside the photos). */
  maxEntries: CATALOG_KINDS.disease.maxImages + 200,
  /** One photo inflated. */
  maxPhotoBytes: CATALOG_LIMITS.maxUploadBytes,
  /** All entries inflated together. */
  maxInflatedBytes: 2 * 1024 * 1024 * 1024,
  /** label_map.json, when the ZIP has one. */
  maxManifestBytes: 1024 * 1024,
  maxLabels: 200,
  maxNameLength: 120,
  /** Leaking pairs kept and shown per set (all are counted). */
  shownLeaks: 200,
  /** Photos taken in at once while a set is stored. */
  intakeConcurrency: 2,
  /** The reader thread's time to check and unpack the ZIP. */
  readTimeMs: 180_000,
  /** How long the browser waits for the answer once the ZIP is sent (the photos are taken in meanwhile). */
  answerWithinMs: 15 * 60_000,
} as const;

/** The files of the console's own training ZIP that are not photos, read past in an evaluation set. */
export const EVALUATION_SET_SIDE_FILES = ['README.md', 'labels.txt', 'metadata.csv', 'label_map.json'] as const;

/** A file or folder name as a message quotes it: at most 120 characters. */
const shown = (name: string) => (name.length > 120 ? `${name.slice(0, 119)}…` : name);

export const EVALUATION_SET_TEXTS = {
  title: 'Evaluation sets',
  intro:
    'Labelled photos that are not farmer content, such as a model team’s own field test set or a public set: ' +
    'upload them as a ZIP with one folder per label (the layout of the training ZIP), then evaluate any model on them.',
  upload: 'Upload evaluation set',
  uploadTitle: 'Upload an evaluation set',
  uploadHelp:
    'A ZIP with one folder per label, named as in the training ZIP (labels.txt) or as the disease, for example ' +
    'bacterial-leaf-blight/photo1.jpg. A label_map.json like the training ZIP’s may map other folder names. ' +
    'Photos are cleaned of location like any upload.',
  name: 'Name',
  file: 'ZIP file',
  save: 'Upload',
  uploading: 'Uploading...',
  takingIn: 'Checking and storing the photos...',
  empty: 'No evaluation sets yet.',
  photos: (n: number) => `${n} photo${n === 1 ? '' : 's'}`,
  labels: (n: number) => `${n} label${n === 1 ? '' : 's'}`,
  uploadedBy: (by: string | null, at: string) => `Uploaded ${at}${by ? ` by ${by}` : ''}`,
  noLeaks: 'No photo is a near-copy of a training photo.',
  leaking: (n: number) =>
    `Leaking: ${n} photo${n === 1 ? ' is a near-copy' : 's are near-copies'} of training photos, so a model trained on them ` +
    'scores better here than in the field.',
  leakPairs: 'Show the pairs',
  leakPair: (file: string, record: string, distance: number) =>
    distance === 0 ? `${file}: the same photo as one of ${record}` : `${file}: ${distance} bits from a photo of ${record}`,
  delete: 'Delete',
  deleteTitle: (name: string) => `Delete the evaluation set “${name}”?`,
  deleteBody: 'Its photos are removed. Evaluations made on it keep their results and its name.',
  deleted: 'Evaluation set deleted.',
  uploaded: (name: string, n: number) => `Evaluation set “${name}” stored with ${n} photo${n === 1 ? '' : 's'}.`,
  evaluatedOn: (name: string) => `on the evaluation set “${name}”`,
  errors: {
    noFile: 'Choose a ZIP file.',
    nameRequired: 'Give the set a name.',
    nameTaken: 'An evaluation set of that name exists already.',
    tooLarge: `The ZIP is larger than ${EVALUATION_SET_LIMITS.maxBytes / 1024 / 1024 / 1024} GB.`,
    notZip: 'The file is not a ZIP archive that can be read.',
    tooManyPhotos: (n: number) => `The ZIP holds ${n} entries; a set takes at most ${EVALUATION_SET_LIMITS.maxPhotos} photos.`,
    unpackLimit: 'The ZIP unpacks to more than it declares or than a set may hold, or hides entries: it was not read.',
    outsideFolder: (name: string) => `“${shown(name)}” points outside the ZIP’s folders; such a ZIP is refused.`,
    notInFolder: (name: string) => `“${shown(name)}” is in no label folder: put each photo in the folder of its label.`,
    notImage: (name: string) => `“${shown(name)}” is not a JPEG, PNG, WebP or GIF photo.`,
    unreadable: (name: string) => `“${shown(name)}” cannot be read as a photo.`,
    photoTooLarge: (name: string) =>
      `“${shown(name)}” is larger than ${CATALOG_LIMITS.maxUploadBytes / 1024 / 1024} MB or has too many pixels.`,
    manifest: (reason: string) => `label_map.json cannot be read: ${reason}.`,
    unknownLabels: (labels: string[], known: string[]) =>
      `No disease or training class is labelled ${labels.map((l) => `“${shown(l)}”`).join(', ')}. ` +
      `Labels here: ${known.length > 0 ? known.join(', ') : 'none'}.`,
    controls: (codes: string) => `A file or folder name in the ZIP holds control or direction characters (${codes}): rename it.`,
    tooManyLabels: `A set has at most ${EVALUATION_SET_LIMITS.maxLabels} labels.`,
    noPhotos: 'The ZIP holds no photos.',
    inUse: 'An evaluation on this set is queued or running: cancel it or let it finish first.',
  },
  audit: {
    collection: 'scanner_models',
    created: (name: string, n: number) => `Uploaded the evaluation set “${name}” (${n} photos)`,
    deleted: (name: string) => `Deleted the evaluation set “${name}”`,
  },
} as const;
