import type { Transaction } from 'kysely';
import type { TranslatedCollection } from '../../../../common/languages.js';
import type { Database } from '../../../db/types.js';
import type { AppContext } from '../../../platform/http/context.js';
import type { Command } from '../../../platform/writes/command.js';
import type { Snapshot } from '../../publishing/versions/index.js';

/** A record's farmer-facing English, field by field, as translators see it. */
export interface SourceRecord {
  name: string;
  /** The record's edit version (a translation save names it: 409 when it moved). */
  version: number;
  fields: Record<string, string>;
}

/**
 * What a collection's module supplies in its `translated.ts`, named by the collection's
 * definition (server/modules/collections.ts) and handed over as ctx.collections.translated; the
 * translations module never imports those modules: it writes
 * the translations and their audit entry; the collection moves its record's edit version and
 * gives the snapshot its version records.
 */
export interface TranslatedPart {
  collection: TranslatedCollection;
  /** Live records' translatable English (all of them, or these ids). */
  sources(db: AppContext['db'] | Transaction<Database>, ids?: readonly string[]): Promise<Map<string, SourceRecord>>;
  /**
   * A live record that `sources` leaves out because it has no English to translate yet (a
   * variety without a location): its name and version. Absent where every record has some.
   */
  withoutText?(db: AppContext['db'], recordId: string): Promise<Omit<SourceRecord, 'fields'> | null>;
  /**
   * In a translation save's transaction, after its rows: the record's edit version moves from
   * `version` (0: someone saved since, a 409) and its updatedAt with it (the farmer app's next
   * sync brings it); its live event is queued on `cmd`.
   */
  touch(trx: Transaction<Database>, recordId: string, version: number, now: string, cmd: Command): Promise<number>;
  /**
   * Every live record's updatedAt moves (not its edit version): what the farmer app shows of
   * them changed elsewhere (an option value's translation, a language taken in or out of use),
   * so the next sync brings them again. Its live event is queued on `cmd`.
   */
  touchAll?(trx: Transaction<Database>, now: string, cmd: Command): Promise<void>;
  /** Records' snapshots as versions keep them, translations included (after the save, in its transaction). */
  snapshots(db: AppContext['db'] | Transaction<Database>, recordIds: readonly string[]): Promise<Map<string, Snapshot>>;
}

/** The translated collections' adapters by collection. */
export type TranslatedParts = ReadonlyMap<TranslatedCollection, TranslatedPart>;

declare module '../../../platform/http/context.js' {
  interface CollectionAdapters {
    translated: TranslatedParts;
  }
}

/** The registry app.ts hands to translations: each collection once. */
export function translatedRegistry(parts: readonly TranslatedPart[]): TranslatedParts {
  const found = new Map<TranslatedCollection, TranslatedPart>();
  for (const part of parts) {
    if (found.has(part.collection)) throw new Error(`Two modules translate ${part.collection}`);
    found.set(part.collection, part);
  }
  return found;
}

/** Every translated collection's adapter. */
export const translatedCollections = (ctx: Pick<AppContext, 'collections'>): TranslatedParts => ctx.collections.translated;

export function translatedCollection(ctx: Pick<AppContext, 'collections'>, collection: TranslatedCollection): TranslatedPart {
  const part = ctx.collections.translated.get(collection);
  if (!part) throw new Error(`No module translates ${collection}: app.ts lists none`);
  return part;
}
