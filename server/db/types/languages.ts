/** The farmers' languages (migration 198). */
export interface LanguagesTable {
  code: string;
  name: string;
  enabled: number;
  createdAt: string;
  updatedAt: string;
  updatedBy: string | null;
}

export interface TranslationsTable {
  collection: string;
  recordId: string;
  field: string;
  lang: string;
  text: string;
  /** The English the translation was made from, and its sha256 (hex). */
  sourceText: string;
  sourceHash: string;
  updatedAt: string;
  updatedBy: string | null;
}

/** A name's stamp (migration 199): server/platform/cache/stamps.ts. */
export interface CacheStampsTable {
  name: string;
  stamp: string;
}
