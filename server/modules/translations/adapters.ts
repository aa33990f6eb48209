import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Transaction } from 'kysely';
import type { TranslatedCollection } from '../../../common/languages.js';
import type { Database } from '../../db/types.js';
import type { AppContext } from '../../platform/http/context.js';
import type { Command } from '../../platform/writes/command.js';
import type { Snapshot } from '../versions/snapshots.js';

/** A record's farmer-facing English, field by field, as translators see it. */
export interface SourceRecord {
  name: string;
  /** The record's edit version (a translation save names it: 409 when it moved). */
  version: number;
  fields: Record<string, string>;
}

/**
 * What a collection's module supplies in its `translated.ts` (default export: a list of these).
 * The translations module finds the files by folder and never imports those modules: it writes
 * the translations and their audit entry; the collection moves its record's edit version and
 * gives the snapshot its version records.
 */
export interface TranslatedPart {
  collection: TranslatedCollection;
  /** Live records' translatable English (all of them, or these ids). */
  sources(db: AppContext['db'] | Transaction<Database>, ids?: readonly string[]): Promise<Map<string, SourceRecord>>;
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

let loading: Promise<Map<TranslatedCollection, TranslatedPart>> | null = null;

async function load(): Promise<Map<TranslatedCollection, TranslatedPart>> {
  const modules = path.resolve(import.meta.dirname, '..');
  const found = new Map<TranslatedCollection, TranslatedPart>();
  for (const area of fs.readdirSync(modules, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort()) {
    const file = ['translated.ts', 'translated.js'].map((f) => path.join(modules, area, f)).find((f) => fs.existsSync(f));
    if (!file) continue;
    const mod = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as { default: TranslatedPart[] };
    for (const part of mod.default) {
      if (found.has(part.collection)) throw new Error(`Two modules translate ${part.collection}`);
      found.set(part.collection, part);
    }
  }
  return found;
}

/** Every translated collection's adapter, loaded once. */
export function translatedCollections(): Promise<Map<TranslatedCollection, TranslatedPart>> {
  loading ??= load().catch((err: unknown) => { loading = null; throw err; });
  return loading;
}

export async function translatedCollection(collection: TranslatedCollection): Promise<TranslatedPart> {
  const part = (await translatedCollections()).get(collection);
  if (!part) throw new Error(`No module translates ${collection}: it needs a translated.ts`);
  return part;
}
