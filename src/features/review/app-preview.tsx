import type { ReactNode } from 'react';
import { ChevronLeft } from 'lucide-react';
import { REVIEW_TEXTS, type ReviewCollection } from '../../../common/review';
import { APP_PREVIEW } from '../../../common/review-screen-texts';
import type { PendingChangeDetail } from '../../../common/schemas/review';
import { CATALOG_SECTIONS, CatalogScreen } from './phone-catalog';
import { VARIETY_SECTIONS, VarietyScreen } from './phone-variety';
import { changedSections, field, imagesOf, Part, type AppRecord } from './preview-parts';

/** The photo strip shows this many of the record's photos (the server sends the first 24). */
const STRIP_PHOTOS = 8;

const asRecord = (value: unknown): AppRecord | null => (typeof value === 'object' && value !== null ? (value as AppRecord) : null);

/**
 * The record's photos as tiles, like the app's "All Images" sheet (dialog_all_image_rice_disease.xml,
 * list_image_rice_disease.xml: square, cropped, on light grey). The details screen itself shows the
 * first (main) photo only.
 */
function PhotoStrip({ record, changed }: { record: AppRecord; changed: boolean }) {
  const images = imagesOf(record);
  const total = typeof record.imageCount === 'number' ? record.imageCount : images.length;
  if (total === 0) return null;
  const shown = images.slice(0, STRIP_PHOTOS);
  const name = field(record, 'name') ?? '';
  return (
    <Part changed={changed} className="w-full max-w-[360px]">
      <div className="rounded-2xl border border-slate-200 bg-white p-3">
        <h4 className="text-center text-sm font-bold text-[#008200]">{APP_PREVIEW.allImages}</h4>
        <p className="mb-2 text-center text-xs text-slate-600">{APP_PREVIEW.photoStrip(shown.length, total)}</p>
        <ul className="grid grid-cols-4 gap-1" aria-label={APP_PREVIEW.allImages}>
          {shown.map((image, i) => (
            <li key={image.id} className="aspect-square overflow-hidden bg-[#E5E5E5]">
              <img src={image.thumbnailUrl || image.displayUrl} alt={`${name} image ${i + 1}`} className="h-full w-full object-cover" />
            </li>
          ))}
        </ul>
      </div>
    </Part>
  );
}

/** A phone-sized frame (360 px wide, narrower on a narrower screen) with the app's green bar and Back. */
function Phone({ side, children, strip }: { side: string; children: ReactNode; strip?: ReactNode }) {
  return (
    <figure className="flex w-full flex-col items-center gap-3" aria-label={APP_PREVIEW.phone(side)}>
      <figcaption>
        <h3 className="text-sm font-semibold uppercase tracking-wide text-slate-700">{side}</h3>
      </figcaption>
      <div
        className="w-full max-w-[360px] overflow-hidden rounded-[2rem] border-[10px] border-slate-900 bg-[#F9FAFB] shadow-lg"
        data-testid="phone"
      >
        <div className="flex h-6 items-center justify-center bg-[#006b00]" aria-hidden>
          <span className="h-1.5 w-16 rounded-full bg-slate-900/60" />
        </div>
        <div className="flex min-h-[52px] items-center gap-1 bg-[#008200] px-2 text-white shadow">
          <ChevronLeft className="h-6 w-6" aria-hidden />
          <span className="text-lg font-medium">{APP_PREVIEW.back}</span>
        </div>
        {children}
      </div>
      {strip}
    </figure>
  );
}

function NotInApp() {
  return (
    <p className="flex min-h-[200px] items-center justify-center px-6 py-16 text-center text-sm text-slate-600">
      {REVIEW_TEXTS.previewNone}
    </p>
  );
}

/**
 * The farmer app's own screen for the record, as published and as the change proposes it, side
 * by side (stacked below 720 px); in the proposed phone the parts that change are outlined.
 */
export function AppPreview({
  collection,
  preview,
  published: publishedSide = REVIEW_TEXTS.published,
}: {
  collection: Exclude<ReviewCollection, 'maintenance'>;
  preview: NonNullable<PendingChangeDetail['preview']>;
  /** What the published side is called (a decided change's: as published then). */
  published?: string;
}) {
  const published = asRecord(preview.published);
  const proposed = asRecord(preview.proposed);
  const variety = collection === 'rice_seed_varieties';
  const changed = changedSections(published, proposed, variety ? VARIETY_SECTIONS : { ...CATALOG_SECTIONS, strip: ['images'] });
  const none = new Set<string>();
  const screen = (record: AppRecord, marks: Set<string>) =>
    variety ? (
      <VarietyScreen record={record} changed={marks} />
    ) : (
      <CatalogScreen kind={collection === 'rice_local_pests' ? 'pest' : 'disease'} record={record} changed={marks} />
    );
  const strip = (record: AppRecord | null, marks: Set<string>) =>
    record && !variety ? <PhotoStrip record={record} changed={marks.has('strip')} /> : undefined;
  return (
    <section aria-labelledby="app-preview-title" className="space-y-4" data-testid="app-preview">
      <h2 id="app-preview-title" className="text-lg font-semibold text-slate-900">
        {REVIEW_TEXTS.previewTitle}
      </h2>
      <div className="grid grid-cols-1 gap-8 min-[720px]:grid-cols-2">
        <Phone side={publishedSide} strip={strip(published, none)}>
          {published ? screen(published, none) : <NotInApp />}
        </Phone>
        <Phone side={REVIEW_TEXTS.proposed} strip={strip(proposed, changed)}>
          {proposed ? screen(proposed, changed) : <NotInApp />}
        </Phone>
      </div>
    </section>
  );
}
