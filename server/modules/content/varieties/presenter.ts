import type { Variety } from '../../../../common/schemas/varieties.js';
import type { ListedVarietyRow } from './repository.js';

function parseList(text: string | null | undefined): string[] {
  if (!text) return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

/** The API's view of a stored row: lists parsed, the 0/1 flag as a boolean, no bookkeeping. */
export function presentVariety(row: ListedVarietyRow): Variety {
  return {
    id: row.id,
    varietyName: row.varietyName,
    releaseName: row.releaseName,
    yearRelease: row.yearRelease,
    breedingCode: row.breedingCode,
    breederOrigin: row.breederOrigin,
    maturityDays: row.maturityDays === null ? null : Number(row.maturityDays),
    averageYield: row.averageYield === null ? null : Number(row.averageYield),
    maxYield: row.maxYield === null ? null : Number(row.maxYield),
    plantHeight: row.plantHeight === null ? null : Number(row.plantHeight),
    tillers: row.tillers === null ? null : Number(row.tillers),
    location: row.location,
    season: parseList(row.season),
    plantingMethod: row.plantingMethod,
    environment: parseList(row.environment),
    recommendedInTarlac: Boolean(row.recommendedInTarlac),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    version: Number(row.version),
  };
}
