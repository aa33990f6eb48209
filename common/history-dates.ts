import { HISTORY, HISTORY_LIMITS, type HistoryDateRange } from './history.js';
import { MANILA_OFFSET_MS, manilaDateTimeSeconds } from './manila-time.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Today's date in Manila as YYYY-MM-DD (used in the CSV file name and the custom range). */
export function manilaDate(now: number = Date.now()): string {
  return new Date(now + MANILA_OFFSET_MS).toISOString().slice(0, 10);
}

/** The Monday that starts the week of a calendar day (YYYY-MM-DD). */
export function mondayOf(day: string): string {
  const d = Date.parse(`${day}T00:00:00Z`);
  return new Date(d - ((new Date(d).getUTCDay() + 6) % 7) * DAY_MS).toISOString().slice(0, 10);
}

/** A calendar day (YYYY-MM-DD) n days later (earlier when n < 0). */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/** The UTC instant at which a Manila calendar day (YYYY-MM-DD) begins. */
export function manilaDayStart(day: string): number {
  return Date.parse(`${day}T00:00:00.000Z`) - MANILA_OFFSET_MS;
}

export function isValidDay(day: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return false;
  const t = Date.parse(`${day}T00:00:00.000Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === day;
}

export interface TimeBounds {
  /** Inclusive lower bound, ISO UTC. */
  from?: string;
  /** Exclusive upper bound, ISO UTC. */
  before?: string;
}

/**
 * The instants a date filter covers. Today starts at midnight in Manila whatever the
 * browser's or server's zone; Last Week and Last Month are the last 7 and 30 days; a custom
 * range covers whole Manila days, both ends included.
 */
export function dateBounds(
  range: HistoryDateRange,
  from: string | undefined,
  to: string | undefined,
  now: number = Date.now(),
): TimeBounds {
  switch (range) {
    case 'all':
      return {};
    case 'today':
      return { from: new Date(manilaDayStart(manilaDate(now))).toISOString() };
    case 'week':
      return { from: new Date(now - HISTORY_LIMITS.weekDays * DAY_MS).toISOString() };
    case 'month':
      return { from: new Date(now - HISTORY_LIMITS.monthDays * DAY_MS).toISOString() };
    case 'custom': {
      const bounds: TimeBounds = {};
      if (from) bounds.from = new Date(manilaDayStart(from)).toISOString();
      if (to) bounds.before = new Date(manilaDayStart(to) + DAY_MS).toISOString();
      return bounds;
    }
  }
}

export function parseTimestamp(value: string | null | undefined): number | null {
  if (!value) return null;
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : t;
}

/** The full date shown on hover and in the entry dialog, in Manila time; 'Invalid Date' otherwise. */
export function fullDate(value: string | null | undefined): string {
  const t = parseTimestamp(value);
  return t === null ? HISTORY.invalidDate : `${manilaDateTimeSeconds(t)} (PHT)`;
}
