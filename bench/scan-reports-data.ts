/** The scan reports benchmark's data: the diseases and a skewed two years of stored reports with their counts. */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../server/db/types.js';
import { TARLAC_MUNICIPALITIES } from '../common/scan-reports.js';

const DAY = 24 * 60 * 60_000;
export const DISEASES = [
  'Rice blast',
  'Bacterial leaf blight',
  'Rice tungro',
  'Sheath blight',
  'Brown spot',
  'False smut',
  'Bacterial leaf streak',
  'Rice grassy stunt',
  'Rice ragged stunt',
  'Sheath rot',
  'Narrow brown leaf spot',
  'Bakanae',
];
export const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
const PLACES: Array<string | null> = [...TARLAC_MUNICIPALITIES, null];

/** A deterministic pseudo-random sequence (the same data set on every run). */
function rng(seed: number) {
  let x = seed >>> 0;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 2 ** 32;
  };
}

/** The 12 diseases (d0…d11), then `total` stored reports with their daily and weekly counts as the server keeps them. */
export async function seedScanReports(db: Kysely<Database>, total: number, analyze: boolean): Promise<void> {
  const { manilaDate: manilaDay, mondayOf } = await import('../common/history-dates.js');
  const now = Date.now();
  await db
    .insertInto('rice_local_diseases')
    .values(
      DISEASES.map((name, i) => ({
        id: `d${i}`,
        name,
        scientificName: null,
        isDeleted: 0,
        createdAt: new Date(now - 1e6 + i).toISOString(),
      })),
    )
    .execute();
  const random = rng(42);
  const counts = new Map<string, number>();
  const weekly = new Map<string, number>();
  const t0 = performance.now();
  const batch = 500;
  for (let start = 0; start < total; start += batch) {
    const rows = [];
    for (let i = start; i < Math.min(total, start + batch); i += 1) {
      // Skewed like real detections: a few diseases and places dominate.
      const d = Math.floor(DISEASES.length * random() ** 2);
      const place = PLACES[Math.floor(PLACES.length * random() ** 1.5)]!;
      const scanned = now - Math.floor(random() * 729 * DAY);
      rows.push({
        id: `seed-${i}`,
        label: slug(DISEASES[d]!),
        diseaseId: `d${d}`,
        confidence: 0.5 + random() / 2,
        modelVersion: 'scanner-2025.1',
        scannedAt: new Date(scanned).toISOString(),
        receivedAt: new Date(scanned + 60_000).toISOString(),
        municipality: place,
        barangay: place ? 'Poblacion' : null,
        installId: `install-${i % 40_000}`,
      });
      const day = manilaDay(scanned);
      const key = `${day}|d${d}|${place ?? ''}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
      const weekKey = `${mondayOf(day)}|d${d}|${place ?? ''}`;
      weekly.set(weekKey, (weekly.get(weekKey) ?? 0) + 1);
    }
    await db.insertInto('scan_reports').values(rows).execute();
  }
  const list = [...counts].map(([key, reports]) => {
    const [day, diseaseId, municipality] = key.split('|');
    return { day: day!, diseaseId: diseaseId!, municipality: municipality!, reports };
  });
  for (let start = 0; start < list.length; start += batch)
    await db
      .insertInto('scan_report_counts')
      .values(list.slice(start, start + batch))
      .execute();
  const weeks = [...weekly].map(([key, reports]) => {
    const [week, diseaseId, municipality] = key.split('|');
    return { week: week!, diseaseId: diseaseId!, municipality: municipality!, reports };
  });
  for (let start = 0; start < weeks.length; start += batch)
    await db
      .insertInto('scan_report_weekly')
      .values(weeks.slice(start, start + batch))
      .execute();
  // As autovacuum would after a load this size: the planner's statistics of the new rows.
  if (analyze) await sql`analyze`.execute(db);
  console.log(
    `  seeded ${total.toLocaleString('en')} reports (${list.length.toLocaleString('en')} daily, ${weeks.length.toLocaleString('en')} weekly count rows) in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
  );
}
