import type { Variety, VarietyInput, VarietyStoredInput } from '../../../../common/schemas/varieties.js';
import type { Snapshot } from '../../publishing/versions/index.js';
import { presentVariety } from './presenter.js';
import type { VarietyRow } from './repository.js';

/** The variety's own fields (what the audit entry's before/after record). */
export type Fields = Omit<Variety, 'id' | 'createdAt' | 'updatedAt' | 'version'>;

export function fieldsOf(v: Variety): Fields {
  const { id: _id, createdAt: _c, updatedAt: _u, version: _v, ...fields } = v;
  return fields;
}

export function normalize(input: VarietyInput | VarietyStoredInput): Fields {
  const text = (v: string | null | undefined) => (v === undefined || v === null || v.trim() === '' ? null : v.trim());
  const num = (v: number | null | undefined) => (v === undefined ? null : v);
  return {
    varietyName: input.varietyName.trim(),
    releaseName: text(input.releaseName),
    yearRelease: text(input.yearRelease),
    breedingCode: text(input.breedingCode),
    breederOrigin: text(input.breederOrigin),
    maturityDays: num(input.maturityDays),
    averageYield: num(input.averageYield),
    maxYield: num(input.maxYield),
    plantHeight: num(input.plantHeight),
    tillers: num(input.tillers),
    location: text(input.location),
    season: [...new Set(input.season ?? [])],
    plantingMethod: text(input.plantingMethod),
    environment: [...new Set(input.environment ?? [])],
    recommendedInTarlac: input.recommendedInTarlac ?? false,
  };
}

export function columns(f: Fields) {
  return {
    ...f,
    season: JSON.stringify(f.season),
    environment: JSON.stringify(f.environment),
    recommendedInTarlac: f.recommendedInTarlac ? 1 : 0,
  };
}

/** Only the fields that changed, as {before, after} (an update's audit entry). */
export function diff(before: Fields, after: Fields): { before: Partial<Fields>; after: Partial<Fields> } {
  const b: Record<string, unknown> = {};
  const a: Record<string, unknown> = {};
  for (const key of Object.keys(after) as Array<keyof Fields>) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) {
      b[key] = before[key];
      a[key] = after[key];
    }
  }
  return { before: b as Partial<Fields>, after: a as Partial<Fields> };
}

/** A variety as a version holds it: its fields as the API shows them. */
export function varietySnapshot(row: VarietyRow): Snapshot {
  return { fields: fieldsOf(presentVariety(row)) };
}
