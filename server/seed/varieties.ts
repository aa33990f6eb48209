import fs from 'node:fs';
import path from 'node:path';
import { varietyStoredSchema } from '../../common/schemas/varieties.js';
import type { AppContext } from '../platform/http/context.js';
import { createVarietiesService } from '../modules/content/varieties/index.js';
import { createMaintenanceService } from '../modules/content/maintenance/index.js';

export const DEMO_VARIETIES_FILE = path.resolve(import.meta.dirname, '..', '..', 'demo-data', 'rice_varieties.json');

/**
 * npm run seed: the demo varieties of demo-data/rice_varieties.json, through the service
 * (one audit entry each, live event after commit). Fields the sources did not give stay
 * empty; names that already exist (trimmed, any case) are skipped, so a second run adds nothing.
 * The years the stored varieties hold join the year list (one audited change).
 */
export async function seed(
  ctx: AppContext,
  log: (line: string) => void,
  file = DEMO_VARIETIES_FILE,
): Promise<{ added: number; skipped: number }> {
  const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as { varieties?: unknown };
  if (!Array.isArray(raw.varieties)) throw new Error(`${file} has no "varieties" list`);
  const service = createVarietiesService(ctx);
  const existing = await service.liveNames();
  let added = 0;
  let skipped = 0;
  for (const [index, entry] of raw.varieties.entries()) {
    const parsed = varietyStoredSchema.safeParse(entry);
    if (!parsed.success) {
      log(`record ${index + 1} skipped: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
      skipped += 1;
      continue;
    }
    const key = parsed.data.varietyName.trim().toLowerCase();
    if (existing.has(key)) {
      skipped += 1;
      continue;
    }
    await service.createStored(parsed.data, null);
    existing.add(key);
    added += 1;
  }
  log(`rice varieties: ${added} added, ${skipped} already present or skipped`);
  // Older releases keep their own year in the form, and another of that year can be added.
  const years = await createMaintenanceService(ctx).keepYearsInUse(null, await service.yearsInUse());
  if (years.changed) log('year releases: the years of the stored varieties added to the list');
  return { added, skipped };
}
