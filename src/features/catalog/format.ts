import { manilaDateTime, manilaShortDate } from '../../../common/manila-time';

/** Dates as staff in Tarlac read them (Asia/Manila). */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '–';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? 'Invalid Date' : manilaShortDate(d);
}

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '–';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? 'Invalid Date' : manilaDateTime(d);
}
