/**
 * Pests and diseases are one catalog, parameterised by kind: collection name, dashboard
 * route, storage folder, image limits and texts (docs/PRODUCT.md sections 2, 5, 7, 8 and 9;
 * section 5 for the disease minimum: fewer than 800 blocks a save, at most 2000).
 */
export const CATALOG_KIND_NAMES = ['pest', 'disease'] as const;
export type CatalogKindName = (typeof CATALOG_KIND_NAMES)[number];

export interface CatalogTexts {
  /** Page title and subtitle ('Pest / Manage rice pests'). */
  title: string;
  subtitle: string;
  /** The kind in a sentence: 'pest', 'disease'. */
  noun: string;
  nounTitle: string;
  addButton: string;
  addTitle: string;
  editTitle: string;
  viewTitle: string;
  deleteTitle: string;
  searchPlaceholder: string;
  emptyText: string;
  loadingText: string;
  nameRequired: string;
  minImages: string;
  maxImages: string;
  deleteMismatch: string;
  deleteSuccess: string;
  createSuccess: string;
  updateSuccess: string;
  saveErrorPrefix: string;
  deleteErrorPrefix: string;
}

export interface CatalogKind {
  kind: CatalogKindName;
  /** Collection (table) name, live-event topic and audit collection. */
  collection: 'rice_local_pests' | 'rice_local_diseases';
  /** Path below /dashboard and below /api. */
  route: 'rice_pests' | 'rice_diseases';
  /** Storage folder of docs/PRODUCT.md section 7. */
  folder: 'rice_pests' | 'rice_disease';
  /** The farmer app's path of the kind's records (/api/public/v1/<path>) and its name in the API's document. */
  publicApi: { path: 'pests' | 'diseases'; label: string };
  /** Images a new entry needs at least, and any entry may hold at most. */
  minImagesOnCreate: number;
  maxImages: number;
  /** Typed-name delete: trimmed for pests, exact for diseases (docs/PRODUCT.md section 5). */
  trimDeleteConfirmation: boolean;
  /** Its photo sets are the disease scanner's training data, downloadable as a ZIP. */
  trainingSetExport: boolean;
  /** Entries name the parts of the plant they show on (the managed Affected Parts list). */
  affectedParts: boolean;
  /** An entry may be a training class: a scanner class that is no disease (super admins only). */
  trainingClasses: boolean;
  texts: CatalogTexts;
}

export const TRAINING_SET = {
  url: '/api/training-sets/diseases',
  downloadAll: 'Download training set',
  downloadOne: 'Download photos (ZIP)',
  withPending: 'With photos waiting for review',
  withPendingHint: 'Also the photos that disease edits still waiting for review add (they are not published yet).',
  hint:
    'Original photos in image-folder layout (train, validation and test folders, one folder per label), ' +
    'with labels.txt, label_map.json, metadata.csv and a README. Your browser shows the download ' +
    'progress.',
  /** The default split of photos (a hash of each photo id decides, so a photo never moves). */
  defaultRatios: { train: 0.8, validation: 0.1, test: 0.1 },
  defaultSeed: 'palayan',
  ratiosInvalid: 'train, validation and test must be fractions from 0 to 1 that add up to 1.',
} as const;

/**
 * The scanner label of a disease or training class: a slug of its name (lower-case ASCII
 * letters, digits and hyphens), so labels sort the same in every tool (code-point order).
 */
export function labelSlug(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/g, '');
}

export const CATALOG_KINDS: Record<CatalogKindName, CatalogKind> = {
  pest: {
    kind: 'pest',
    collection: 'rice_local_pests',
    route: 'rice_pests',
    folder: 'rice_pests',
    publicApi: { path: 'pests', label: 'Rice pests' },
    minImagesOnCreate: 1,
    maxImages: 10,
    trimDeleteConfirmation: true,
    trainingSetExport: false,
    affectedParts: false,
    trainingClasses: false,
    texts: {
      title: 'Pest',
      subtitle: 'Manage rice pests',
      noun: 'pest',
      nounTitle: 'Pest',
      addButton: 'Add New Pest',
      addTitle: 'Add New Pest',
      editTitle: 'Edit Pest',
      viewTitle: 'Pest Details',
      deleteTitle: 'Delete Pest',
      searchPlaceholder: 'Search e.g pest name, scientific name...',
      emptyText: 'No pests found. Click "Add New Pest" to get started.',
      loadingText: 'Loading rice pests...',
      nameRequired: 'Pest name is required.',
      minImages: 'Please upload at least 1 image for new pests.',
      maxImages: 'You can upload a maximum of 10 images.',
      deleteMismatch: 'The text does not match.',
      deleteSuccess: 'Pest deleted successfully.',
      createSuccess: 'Pest saved successfully.',
      updateSuccess: 'Pest updated successfully.',
      saveErrorPrefix: 'Error saving pest: ',
      deleteErrorPrefix: 'Error deleting rice pest: ',
    },
  },
  disease: {
    kind: 'disease',
    collection: 'rice_local_diseases',
    route: 'rice_diseases',
    folder: 'rice_disease',
    publicApi: { path: 'diseases', label: 'Rice diseases' },
    minImagesOnCreate: 800,
    maxImages: 2000,
    trimDeleteConfirmation: false,
    trainingSetExport: true,
    affectedParts: true,
    trainingClasses: true,
    texts: {
      title: 'Diseases',
      subtitle: 'Manage rice diseases',
      noun: 'disease',
      nounTitle: 'Disease',
      addButton: 'Add New Disease',
      addTitle: 'Add New Disease',
      editTitle: 'Edit Disease',
      viewTitle: 'Disease Details',
      deleteTitle: 'Delete Disease',
      searchPlaceholder: 'Search e.g disease name, scientific name...',
      emptyText: 'No diseases found. Click "Add New Disease" to get started.',
      loadingText: 'Loading rice diseases...',
      nameRequired: 'Disease name is required.',
      minImages: 'Please upload at least 800 image for new diseases.',
      maxImages: 'You can upload a maximum of 2000 images.',
      deleteMismatch: 'The text does not match the disease name.',
      deleteSuccess: 'Disease deleted successfully.',
      createSuccess: 'Disease saved successfully.',
      updateSuccess: 'Disease updated successfully.',
      saveErrorPrefix: 'Error saving disease: ',
      deleteErrorPrefix: 'Failed to delete disease: ',
    },
  },
};

export const CATALOG_KIND_LIST: CatalogKind[] = CATALOG_KIND_NAMES.map((name) => CATALOG_KINDS[name]);

export type CatalogCollection = CatalogKind['collection'];
/** The catalog's collections (tables), in the kinds' order: the lists of versioned and translated collections take them from here. */
export const CATALOG_COLLECTIONS: readonly CatalogCollection[] = CATALOG_KIND_LIST.map((kind) => kind.collection);

/** A value for each catalog collection, made from its kind. */
export function byCatalogCollection<T>(make: (kind: CatalogKind) => T): Record<CatalogCollection, T> {
  return Object.fromEntries(CATALOG_KIND_LIST.map((kind) => [kind.collection, make(kind)])) as Record<CatalogCollection, T>;
}

export const CATALOG_LIMITS = {
  pageSize: 50,
  /** Per-file size cap of the upload route. */
  maxUploadBytes: 25 * 1024 * 1024,
  /** Pixel cap (width x height) checked on upload and when decoding. */
  maxImagePixels: 50_000_000,
  /** Parallel uploads from one browser. */
  browserUploadConcurrency: 4,
  /**
   * PHOTO_MAX_EDGE's default: a photo's longest side once stored (ample for scanner models that
   * train on 224–512 px inputs); larger photos are made this size, in the browser and again by the server.
   */
  photoMaxEdge: 1600,
  /** DRAFT_RETENTION_DAYS' default: an unsaved add form and its photos are kept this long. */
  draftRetentionDays: 7,
  /** The JPEG quality of a photo made smaller (browser and server). */
  photoResizeQuality: 0.9,
  /** Staged photos never saved are removed after this long. */
  stagedMaxAgeMs: 24 * 60 * 60 * 1000,
  /**
   * Longest side of the display variant (the view dialog shows photos at most ~980 px wide;
   * the original is one click away) and of the thumbnail.
   */
  displaySize: 1024,
  thumbSize: 480,
  /** Current images shown in the edit dialog before '+N more' (LIMITS.editDialogImagePreview). */
  editPreview: 6,
} as const;

/**
 * The ids in their order with one of them moved to `position` (0 is the main photo's place),
 * the others keeping theirs relative to each other; null when `id` is not among them or the
 * position is outside the list.
 */
export function movedInOrder(ids: readonly string[], id: string, position: number): string[] | null {
  const from = ids.indexOf(id);
  if (from < 0 || !Number.isInteger(position) || position < 0 || position >= ids.length) return null;
  const next = ids.filter((other) => other !== id);
  next.splice(position, 0, id);
  return next;
}
