import { VARIETY_TOPIC } from '../../../../common/varieties.js';
import type { TranslatedPart } from '../translations/index.js';
import { varietiesRepository } from './repository.js';
import { varietiesVersioned } from './versioned.js';

const COLLECTION = 'rice_seed_varieties';

/** A variety's farmer-facing English that is translated: its location (names and codes stay as they are). */
export const varietiesTranslated: TranslatedPart = {
  collection: COLLECTION,
  async sources(db, ids) {
    const rows = await varietiesRepository.withLocation(db, ids);
    return new Map(rows.map((r) => [r.id, { name: r.varietyName, version: Number(r.version), fields: { location: r.location ?? '' } }]));
  },
  async withoutText(db, id) {
    const row = await varietiesRepository.findLive(db, id);
    return row ? { name: row.varietyName, version: Number(row.version) } : null;
  },
  async touch(trx, id, version, now, cmd) {
    const changed = await varietiesRepository.touch(trx, id, version, now);
    if (changed) cmd.publish({ topic: VARIETY_TOPIC, id, op: 'update' });
    return changed;
  },
  async touchAll(trx, now, cmd) {
    await varietiesRepository.touchAll(trx, now);
    // As an import's: every tab refreshes.
    cmd.publish({ topic: VARIETY_TOPIC, op: 'import' });
  },
  async snapshots(db, ids) {
    return new Map([...(await varietiesVersioned.current(db, ids))].map(([id, state]) => [id, state.snapshot]));
  },
};
