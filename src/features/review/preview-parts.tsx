import type { ReactNode } from 'react';
import { APP_PREVIEW } from '../../../common/review-screen-texts';
import { cn } from '../../components/ui/cn';

/** A record as the farmer app's content API gives it (the preview's JSON; read defensively). */
export type AppRecord = Record<string, unknown>;

/** A text field as the app sets it: a number shown as written, an empty one as nothing. */
export function field(record: AppRecord, key: string): string | null {
  const value = record[key];
  if (typeof value === 'number') return String(value);
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

export function listField(record: AppRecord, key: string): string[] {
  const value = record[key];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '') : [];
}

export interface AppImage {
  id: string;
  displayUrl: string;
  thumbnailUrl: string;
}

export function imagesOf(record: AppRecord): AppImage[] {
  const images = record.images;
  return Array.isArray(images)
    ? images.filter((i): i is AppImage => typeof i === 'object' && i !== null && typeof (i as AppImage).displayUrl === 'string')
    : [];
}

/**
 * The app's formatAsBulletList (DiseaseDetails.java, PestDetails.java): a text split at every
 * full stop, each part a "• " line; nothing written is "• No data available.".
 */
export function bulletLines(raw: string | null): string[] {
  const items = (raw ?? '')
    .split('.')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  return (items.length > 0 ? items : [APP_PREVIEW.noDataBullet]).map((s) => `• ${s}`);
}

/** The preview's sections whose value differs between the published and proposed records. */
export function changedSections(
  published: AppRecord | null,
  proposed: AppRecord | null,
  sections: Record<string, readonly string[]>,
): Set<string> {
  const changed = new Set<string>();
  if (!published || !proposed) return changed;
  const valueOf = (record: AppRecord, key: string) =>
    JSON.stringify(
      key === 'images'
        ? imagesOf(record).map((i) => i.id)
        : key === 'mainImage'
          ? (imagesOf(record)[0]?.id ?? null)
          : (record[key] ?? null),
    );
  for (const [section, keys] of Object.entries(sections)) {
    if (keys.some((key) => valueOf(published, key) !== valueOf(proposed, key))) changed.add(section);
  }
  return changed;
}

/** A part of the app's screen; in the proposed phone a changed one is outlined and labelled. */
export function Part({ changed, children, className }: { changed: boolean; children: ReactNode; className?: string }) {
  return (
    <div
      data-changed={changed || undefined}
      className={cn('relative', changed && 'my-2.5 rounded-md outline-2 outline-offset-2 outline-amber-500 outline-dashed', className)}
    >
      {changed && (
        <span className="absolute -top-2.5 right-1 z-10 rounded bg-amber-300 px-1.5 text-[10px] font-semibold uppercase tracking-wide text-slate-900">
          {APP_PREVIEW.changed}
        </span>
      )}
      {children}
    </div>
  );
}

/** The app's green label-and-value line ("Disease Name: Blast"). */
export function LabelLine({ label, value, size = 'small' }: { label: string; value: ReactNode; size?: 'large' | 'small' }) {
  return (
    <p className={cn('flex flex-wrap gap-x-2.5', size === 'large' ? 'pt-[15px] text-[17px] font-semibold' : 'text-sm font-medium')}>
      <span className="text-[#515151]">{label}</span>
      <span className="min-w-0 whitespace-pre-line break-words text-[#008200]">{value}</span>
    </p>
  );
}
