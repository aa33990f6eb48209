import { toBool, toInt, toIso, toList, toNumber, toText, type ExportCollections } from './firestore.js';
import { migrationRepository as repo } from './repository.js';
import { type ImportRun } from './import-run.js';

/** Rice varieties. */
export async function importVarieties(run: ImportRun, docs: ExportCollections[string]): Promise<void> {
  for (const [id, doc] of Object.entries(docs)) {
    run.tick('rice_seed_varieties');
    const seen = await run.seenBefore('rice_seed_varieties', id, doc);
    if (seen.same) continue;
    const varietyName = toText(doc.varietyName);
    if (!varietyName) {
      run.report.problems.push(`rice_seed_varieties/${id}: no varietyName; skipped.`);
      run.count('rice_seed_varieties', 'skipped');
      continue;
    }
    const existing = await repo.findById(run.db, 'rice_seed_varieties', id);
    await run.upsert('rice_seed_varieties', 'rice_seed_varieties', id, {
      varietyName,
      releaseName: toText(doc.releaseName),
      yearRelease: toText(doc.yearRelease),
      breedingCode: toText(doc.breedingCode),
      breederOrigin: toText(doc.breederOrigin),
      maturityDays: toInt(doc.maturityDays),
      averageYield: toNumber(doc.averageYield),
      maxYield: toNumber(doc.maxYield),
      plantHeight: toInt(doc.plantHeight),
      tillers: toInt(doc.tillers),
      location: toText(doc.location),
      season: JSON.stringify(toList(doc.season)),
      plantingMethod: toText(doc.plantingMethod),
      environment: JSON.stringify(toList(doc.environment)),
      recommendedInTarlac: toBool(doc.recommendedInTarlac) ? 1 : 0,
      isDeleted: toBool(doc.isDeleted) ? 1 : 0,
      createdAt: toIso(doc.createdAt) ?? (existing?.createdAt as string | undefined) ?? run.importedAt,
      updatedAt: toIso(doc.updatedAt),
      deletedAt: toIso(doc.deletedAt),
      deletedBy: toText(doc.deletedBy),
    });
    await run.remember('rice_seed_varieties', id, seen.hash);
  }
}
