import { CATALOG_LABELS as L } from './catalog-texts.js';

/**
 * What a pest's or disease's field holds: its name (required), a short or long text (optional,
 * stored trimmed, null when empty), the managed Affected Parts values, or a training-class flag
 * (a training class; a training class of photos that are not of rice plants).
 */
export type CatalogFieldType = 'name' | 'shortText' | 'longText' | 'parts' | 'trainingFlag';

export interface CatalogFieldFacts {
  /** The form's, the view's, the versions panel's and the spreadsheet's label. */
  label: string;
  type: CatalogFieldType;
  /** Only kinds with this flag have the field (diseases: their affected parts, their training classes). */
  only?: 'affectedParts' | 'trainingClasses';
  /** Translated into the farmer app's languages. */
  translated?: true;
  /** Matched by the list's search box. */
  searched?: true;
  /** Its column's width in the spreadsheet export. */
  width: number;
}

/**
 * A pest's or disease's own fields, each declared once, in the form's order. Every field is
 * farmer-facing (the public API sends it), versioned, exported and part of a reviewed change;
 * the schemas, the service's stored row, versions, translations, the review's rebase, the
 * search and the export read this list.
 */
export const CATALOG_FIELDS = {
  name: { label: L.name, type: 'name', translated: true, searched: true, width: 28 },
  scientificName: { label: L.scientificName, type: 'shortText', searched: true, width: 28 },
  localName: { label: L.localName, type: 'shortText', searched: true, width: 20 },
  affectedParts: { label: L.affectedParts, type: 'parts', only: 'affectedParts', width: 20 },
  isTrainingClass: { label: L.trainingClassBadge, type: 'trainingFlag', only: 'trainingClasses', width: 14 },
  notRicePlant: { label: L.notRicePlantBadge, type: 'trainingFlag', only: 'trainingClasses', width: 14 },
  description: { label: L.description, type: 'longText', translated: true, searched: true, width: 40 },
  cause: { label: L.cause, type: 'longText', translated: true, width: 40 },
  symptoms: { label: L.symptoms, type: 'longText', translated: true, width: 40 },
  treatments: { label: L.treatments, type: 'longText', translated: true, width: 40 },
} as const satisfies Record<string, CatalogFieldFacts>;

export type CatalogField = keyof typeof CATALOG_FIELDS;
type FieldsOfType<T extends CatalogFieldType> = {
  [K in CatalogField]: (typeof CATALOG_FIELDS)[K]['type'] extends T ? K : never;
}[CatalogField];
/** The optional texts: stored trimmed, null when empty. */
export type CatalogTextField = FieldsOfType<'shortText' | 'longText'>;

export const CATALOG_FIELD_KEYS = Object.keys(CATALOG_FIELDS) as CatalogField[];

const facts = (key: CatalogField): CatalogFieldFacts => CATALOG_FIELDS[key];

export const CATALOG_TEXT_FIELDS = CATALOG_FIELD_KEYS.filter(
  (k): k is CatalogTextField => facts(k).type === 'shortText' || facts(k).type === 'longText',
);
export const CATALOG_TRANSLATED_FIELDS = CATALOG_FIELD_KEYS.filter((k) => facts(k).translated);
export const CATALOG_SEARCHED_FIELDS = CATALOG_FIELD_KEYS.filter((k) => facts(k).searched);

/** The fields a kind has, in the form's order. */
export function catalogFieldsOf(kind: { affectedParts: boolean; trainingClasses: boolean }): CatalogField[] {
  return CATALOG_FIELD_KEYS.filter((k) => {
    const only = facts(k).only;
    return only === undefined || kind[only];
  });
}

/** Field key → label, for the given fields. */
export const catalogLabels = (keys: readonly CatalogField[]): Record<string, string> =>
  Object.fromEntries(keys.map((k) => [k, facts(k).label]));
