import type { ColumnType, Generated } from 'kysely';
import type { Bool } from './portable.js';

/* The farmer app's content: varieties, pests and diseases with their photos, option lists, import memory. */

/** What every content record keeps: soft delete (the trash), times and the edit version. */
interface ContentRecord {
  isDeleted: Generated<Bool>;
  createdAt: string;
  updatedAt: string | null;
  deletedAt: string | null;
  deletedBy: string | null;
  version: Generated<number>;
}

export interface VarietiesTable extends ContentRecord {
  id: string;
  varietyName: string;
  releaseName: string | null;
  yearRelease: string | null;
  breedingCode: string | null;
  breederOrigin: string | null;
  maturityDays: number | null;
  averageYield: number | null;
  maxYield: number | null;
  plantHeight: number | null;
  tillers: number | null;
  location: string | null;
  season: string;
  plantingMethod: string | null;
  environment: string;
  recommendedInTarlac: Generated<Bool>;
  /** Lower-cased searched fields (migration 010), kept by the varieties repository. */
  searchText: Generated<string>;
  /** How many required fields the row lacks, computed by the database (migration 203): read only. */
  missingFields: ColumnType<number, never, never>;
}

/**
 * How many live varieties contain each text of up to two characters ('' is every live row),
 * kept by database triggers (migration 184). The trigram index beside it has no typed columns.
 */
export interface VarietySearchGramsTable {
  gram: string;
  n: number;
}

export type { CatalogCollection } from '../../../common/catalog.js';

/** Shared shape of rice_local_pests and rice_local_diseases. */
export interface CatalogTable extends ContentRecord {
  id: string;
  name: string;
  scientificName: string | null;
  description: string | null;
  cause: string | null;
  symptoms: string | null;
  treatments: string | null;
  mainImageUrl: string | null;
  /** Migration 150: the Filipino name; parts of the plant (JSON text list, diseases); scanner class that is no disease. */
  localName: string | null;
  affectedParts: Generated<string>;
  isTrainingClass: Generated<Bool>;
  /** Migration 206: a training class whose photos are not of rice plants (the plant check's negatives). */
  notRicePlant: Generated<Bool>;
}

export interface CatalogImagesTable {
  id: string;
  collection: string;
  entryId: string | null;
  position: number;
  originalKey: string | null;
  displayKey: string | null;
  thumbKey: string | null;
  externalUrl: string | null;
  status: string;
  mimeType: string | null;
  sizeBytes: number | null;
  width: number | null;
  height: number | null;
  originalName: string | null;
  sha256: string | null;
  uploadedBy: string | null;
  createdAt: string;
  linkedAt: string | null;
  /** The instance making this photo's variants, until when (server/modules/content/photos/variants.ts). */
  claimedBy?: string | null;
  claimedUntil?: string | null;
  /** From the photo's EXIF (migration 183): capture time ("2024:07:01 08:30:12", "+08:00" added when known), camera. */
  takenAt?: string | null;
  cameraMake?: string | null;
  cameraModel?: string | null;
  /** 1 once the stored original holds no location or identifying metadata. */
  locationCleaned?: number;
  /** Migration 185: the perceptual hash (16 hex digits) and quality measures (server/modules/content/photos/pixels/fingerprint.ts). */
  phash?: string | null;
  sharpness?: number | null;
  brightness?: number | null;
  /** Migration 188: the 5th and 95th percentiles of the grey levels. */
  brightnessLow?: number | null;
  brightnessHigh?: number | null;
  entropy?: number | null;
  /** Migration 187: taken out of its disease from Dataset health (unlinked, kept, can be put back). */
  removedFrom?: string | null;
  removedPosition?: number | null;
  removedAt?: string | null;
  removedBy?: string | null;
  /** Migration 189: the entry an edit took this photo out of (unlinked, kept while a version holds it). */
  retiredFrom?: string | null;
}

export interface MaintenanceTable {
  id: string;
  data: string;
  createdAt: string;
  updatedAt: string | null;
  version: Generated<number>;
}

/** Migration 189: one saved state of a record (server/modules/publishing/versions). */
export interface RecordVersionsTable {
  id: string;
  collection: string;
  documentId: string;
  /** 1, 2, 3… per record. */
  number: number;
  /** The record's edit version this state was saved as. */
  recordVersion: number;
  auditId: string | null;
  actorId: string | null;
  actorName: string | null;
  createdAt: string;
  /** JSON: { fields, photos? } (photos: image ids in order). */
  snapshot: string;
  /** JSON: what changed from the version before (common/versions.ts VersionSummary). */
  summary: string;
}

/** Migration 190: an account's unsaved pest or disease (the add form), and its chosen photos in order. */
export interface CatalogDraftsTable {
  accountId: string;
  collection: string;
  /** JSON: the form's fields as typed. */
  fields: string;
  updatedAt: string;
}

export interface CatalogDraftPhotosTable {
  accountId: string;
  collection: string;
  position: number;
  /** The staged photo once uploaded. */
  imageId: string | null;
  name: string;
  size: number;
  lastModified: number;
}

export interface ImportRecordsTable {
  collection: string;
  docId: string;
  hash: string;
  importedAt: string;
}
