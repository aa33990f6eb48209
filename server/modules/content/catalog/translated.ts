import type { CatalogKind } from '../../../../common/catalog.js';
import { TRANSLATED_FIELDS } from '../../../../common/languages.js';
import type { SourceRecord, TranslatedPart } from '../translations/index.js';
import { catalogRepository } from './repository.js';
import { catalogVersioned } from './versioned.js';

/** A pest's or disease's farmer-facing English (name, description, cause, symptoms, treatments) for translators. */
export function catalogTranslated(kind: CatalogKind): TranslatedPart {
  const { collection } = kind;
  const fields = Object.keys(TRANSLATED_FIELDS[collection]);
  const adapter = catalogVersioned(kind);
  return {
    collection,
    async sources(db, ids) {
      const rows = await catalogRepository.farmerFacing(db, collection, ids);
      return new Map(
        rows.map((row): [string, SourceRecord] => [
          row.id,
          {
            name: row.name,
            version: Number(row.version),
            fields: Object.fromEntries(
              fields.map((f) => [f, row[f as keyof typeof row]]).filter(([, v]) => typeof v === 'string' && v.trim() !== ''),
            ) as Record<string, string>,
          },
        ]),
      );
    },
    async touch(trx, id, version, now, cmd) {
      const changed = await catalogRepository.touch(trx, collection, id, version, now);
      if (changed) cmd.publish({ topic: collection, id, op: 'update' });
      return changed;
    },
    async touchAll(trx, now, cmd) {
      await catalogRepository.touchAll(trx, collection, now);
      cmd.publish({ topic: collection, op: 'update' });
    },
    async snapshots(db, ids) {
      return new Map([...(await adapter.current(db, ids))].map(([id, state]) => [id, state.snapshot]));
    },
  };
}
