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

/** A name's stamp (migrations 199, 201): server/platform/cache/stamps.ts. */
export interface CacheStampsTable {
  name: string;
  stamp: string;
  /** How many times the stamp moved: one more with each move, in commit order. */
  seq: number;
  /** The stamp it moved from ('' before the first move). */
  prev: string;
}

/** What a move of a table's stamp changed (migration 201): a row's search texts as JSON, or 'null' (anything). */
export interface CacheStampNotesTable {
  name: string;
  seq: number;
  /** A move's notes are numbered from 1. */
  part: number;
  prev: string;
  note: string;
}
