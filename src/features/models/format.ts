import { manilaDateTime } from '../../../common/manila-time';
import type { ScannerModel } from '../../../common/schemas/models';

/** A moment as staff in Tarlac read it (Asia/Manila). */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '–';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '–' : manilaDateTime(d);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** A share as a percentage with one decimal ('–' when there is none). */
export function formatPercent(value: number | null | undefined): string {
  return value === null || value === undefined ? '–' : `${(value * 100).toFixed(1)} %`;
}

export function formatScore(value: number | null | undefined): string {
  return value === null || value === undefined ? '–' : value.toFixed(3);
}

/** The first 12 hex digits of a SHA-256: enough to tell files apart on screen. */
export const shortSha = (sha: string) => sha.slice(0, 12);

/** Labels the app could not name: no record or verdict, or a record that is no longer live. */
export function unmappedLabels(model: ScannerModel): string[] {
  return model.labels.filter((l) => (l.recordId === null && l.verdict === null) || (l.recordId !== null && !l.live)).map((l) => l.label);
}

const newestFirst = (model: ScannerModel) =>
  [...model.evaluations].sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));

/** The model's newest evaluation, whatever its state. */
export const latestEvaluation = (model: ScannerModel) => newestFirst(model)[0] ?? null;

/** The newest finished evaluation: the one "Report" opens. */
export const latestReport = (model: ScannerModel) => newestFirst(model).find((e) => e.state === 'done') ?? null;
