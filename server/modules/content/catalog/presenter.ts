import {
  CATALOG_FIELD_KEYS,
  CATALOG_FIELDS,
  type CatalogField,
  type CatalogFieldType,
  type CatalogTextField,
} from '../../../../common/catalog-fields.js';
import type { CatalogEntry, CatalogEntryDetail, CatalogImage } from '../../../../common/schemas/catalog.js';
import type { Snapshot } from '../../publishing/versions/index.js';
import { fileUrl } from '../../../platform/storage/storage.js';
import type { PhotoRow as CatalogImageRow } from '../photos/index.js';
import type { CatalogRow, ListRow } from './repository.js';

type Status = CatalogImage['status'];
const STATUSES: Status[] = ['pending', 'ready', 'failed', 'external'];

function status(value: string | null | undefined): Status | null {
  if (!value) return null;
  return (STATUSES as string[]).includes(value) ? (value as Status) : 'failed';
}

export function presentImage(row: CatalogImageRow): CatalogImage {
  const external = row.externalUrl ?? null;
  return {
    id: row.id,
    position: row.position,
    status: status(row.status) ?? 'pending',
    url: row.originalKey ? fileUrl(row.originalKey) : external,
    displayUrl: row.displayKey ? fileUrl(row.displayKey) : row.status === 'external' ? external : null,
    thumbUrl: row.thumbKey ? fileUrl(row.thumbKey) : row.status === 'external' ? external : null,
    width: row.width,
    height: row.height,
    sizeBytes: row.sizeBytes === null ? null : Number(row.sizeBytes),
    originalName: row.originalName,
  };
}

/** A stored JSON text list; anything else reads as empty. */
export function parseList(text: string | null | undefined): string[] {
  try {
    const value: unknown = JSON.parse(text ?? '[]');
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

type EntryFields = Pick<CatalogRow, CatalogField>;

/** Each type of field as stored (lists parsed, the flag a boolean); the API sends an empty text as ''. */
const STORED: Record<CatalogFieldType, (row: EntryFields, key: CatalogField) => unknown> = {
  name: (row) => row.name,
  shortText: (row, key) => row[key],
  longText: (row, key) => row[key],
  parts: (row) => parseList(row.affectedParts),
  trainingFlag: (row, key) => Number(row[key]) === 1,
};

const fieldsOf = (row: EntryFields, emptyText: '' | null) =>
  Object.fromEntries(
    CATALOG_FIELD_KEYS.map((key) => {
      const value = STORED[CATALOG_FIELDS[key].type](row, key);
      return [key, value ?? emptyText];
    }),
  );

function fields(row: CatalogRow) {
  return {
    id: row.id,
    ...(fieldsOf(row, '') as Pick<CatalogEntry, CatalogField>),
    mainImageUrl: row.mainImageUrl,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    version: Number(row.version),
  };
}

export function presentListRow(row: ListRow): CatalogEntry {
  const mainStatus = status(row.mainStatus);
  return {
    ...fields(row),
    mainThumbUrl: row.mainThumbKey ? fileUrl(row.mainThumbKey) : mainStatus === 'external' ? row.mainExternalUrl : null,
    mainImageStatus: mainStatus,
    imageCount: Number(row.imageCount),
    pendingImageCount: Number(row.pendingImageCount),
  };
}

export function presentDetail(row: CatalogRow, images: CatalogImageRow[]): CatalogEntryDetail {
  const presented = images.map(presentImage);
  const first = presented[0];
  return {
    ...fields(row),
    mainThumbUrl: first?.thumbUrl ?? null,
    mainImageStatus: first?.status ?? null,
    imageCount: presented.length,
    pendingImageCount: presented.filter((i) => i.status === 'pending').length,
    images: presented,
  };
}

/** An entry's own fields as stored values (lists parsed, the flag a boolean): audit entries and versions. */
export function entryFields(row: EntryFields) {
  return fieldsOf(row, null) as { name: string; affectedParts: string[]; isTrainingClass: boolean; notRicePlant: boolean } & Record<
    CatalogTextField,
    string | null
  >;
}

/** The audit 'changes' snapshot: the entry's fields and its image count (not 2000 URLs). */
export function auditSnapshot(row: EntryFields & Pick<CatalogRow, 'mainImageUrl'>, imageCount: number) {
  return { ...entryFields(row), mainImageUrl: row.mainImageUrl, imageCount };
}

/** A pest or disease as a version holds it: its fields and its photo ids in order. */
export function catalogSnapshot(row: Parameters<typeof entryFields>[0], photos: string[]): Snapshot {
  return { fields: entryFields(row), photos };
}
