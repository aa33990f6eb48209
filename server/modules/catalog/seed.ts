import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { CATALOG_KINDS, type CatalogKind } from '../../../common/catalog.js';
import { SYSTEM_ACTOR } from '../../platform/writes/audit.js';
import type { AppContext } from '../../platform/http/context.js';
import { catalogRepository } from './repository.js';
import { photoRuntime } from '../photos/variants.js';
import { createCatalogService } from './service.js';

/**
 * Demo pests and diseases of demo-data/, each with a few generated images that say plainly
 * that they are placeholders. A demo disease gets 4 placeholders: the seed bypasses the
 * 800-image minimum of a new disease (it is a user rule for real photo sets; 12 x 800 generated
 * files would only fill the disk). An entry whose name exists already is skipped, so running
 * the seed twice adds nothing.
 */
interface DemoRecord {
  name: string;
  scientificName?: string;
  localName?: string;
  affectedParts?: string[];
  description?: string;
  cause?: string;
  symptoms?: string;
  treatments?: string;
}

const IMAGES_PER_ENTRY = { pest: 3, disease: 4 } as const;
const PALETTE = ['#166534', '#15803d', '#3f6212', '#854d0e', '#0f766e', '#365314'];

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);
}

/** An 800 x 600 JPEG reading "Placeholder", the entry's name and which image it is. */
export async function placeholderImage(kind: CatalogKind, name: string, index: number, count: number): Promise<Buffer> {
  const colour = PALETTE[(name.length + index) % PALETTE.length]!;
  const title = escapeXml(name.length > 34 ? `${name.slice(0, 33)}…` : name);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600" viewBox="0 0 800 600">
  <rect width="800" height="600" fill="${colour}"/>
  <rect x="24" y="24" width="752" height="552" rx="24" fill="none" stroke="#ffffff" stroke-opacity="0.5" stroke-width="4" stroke-dasharray="16 12"/>
  <text x="400" y="250" text-anchor="middle" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-size="64" font-weight="bold" fill="#ffffff">Placeholder</text>
  <text x="400" y="330" text-anchor="middle" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-size="38" fill="#ffffff">${title}</text>
  <text x="400" y="400" text-anchor="middle" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-size="26" fill="#dcfce7">Demo ${kind.texts.noun} image ${index + 1} of ${count} (not a real photo)</text>
</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 82 }).toBuffer();
}

function readDemo(file: string, key: 'pests' | 'diseases'): DemoRecord[] {
  const full = path.join(import.meta.dirname, '..', '..', '..', 'demo-data', file);
  const parsed = JSON.parse(fs.readFileSync(full, 'utf8')) as Record<string, unknown>;
  const list = parsed[key];
  return Array.isArray(list) ? (list as DemoRecord[]).filter((r) => typeof r?.name === 'string' && r.name.trim() !== '') : [];
}

async function seedKind(ctx: AppContext, kind: CatalogKind, records: DemoRecord[], log: (line: string) => void): Promise<void> {
  const service = createCatalogService(ctx, kind);
  let added = 0;
  for (const record of records) {
    const name = record.name.trim();
    if (await catalogRepository.findLiveByName(ctx.db, kind.collection, name)) continue;
    const count = IMAGES_PER_ENTRY[kind.kind];
    const imageIds: string[] = [];
    for (let i = 0; i < count; i += 1) {
      const jpeg = await placeholderImage(kind, name, i, count);
      const staged = await service.stage((async function* () { yield jpeg; })(), { filename: `placeholder_${i + 1}.jpg`, uploadedBy: SYSTEM_ACTOR.id });
      imageIds.push(staged.id);
    }
    await service.create({
      name,
      scientificName: record.scientificName?.trim() ?? '',
      localName: record.localName?.trim() ?? '',
      affectedParts: kind.affectedParts ? (record.affectedParts ?? []) : [],
      isTrainingClass: false,
      description: record.description?.trim() ?? '',
      cause: record.cause?.trim() ?? '',
      symptoms: record.symptoms?.trim() ?? '',
      treatments: record.treatments?.trim() ?? '',
      imageIds,
    }, SYSTEM_ACTOR, { skipImageMinimum: true });
    added += 1;
  }
  log(`${kind.texts.title}: ${added} added, ${records.length - added} already present`);
}

export async function seed(ctx: AppContext, log: (line: string) => void): Promise<void> {
  await seedKind(ctx, CATALOG_KINDS.pest, readDemo('rice_pests.json', 'pests'), log);
  await seedKind(ctx, CATALOG_KINDS.disease, readDemo('rice_diseases.json', 'diseases'), log);
  await photoRuntime(ctx).queue.idle();
  log('placeholder thumbnails ready');
}
