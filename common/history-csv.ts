import { collectionLabel, HISTORY } from './history.js';
import { parseTimestamp } from './history-dates.js';
import { MANILA_OFFSET_MS } from './manila-time.js';

/** CSV header row (docs/PRODUCT.md section 7), in this order. */
export const HISTORY_CSV_COLUMNS = ['Timestamp', 'User', 'Action', 'Collection', 'Document', 'Description'] as const;

/** The History CSV's columns whose values repeat from row to row: User, Action, Collection. */
export const HISTORY_CSV_REPEATED_COLUMNS = [1, 2, 3] as const;

/** An audit entry as a History CSV row shows it; `user` is the name (or id) already chosen. */
export interface HistoryCsvEntry {
  timestamp: string | null | undefined;
  user: string;
  action: string | null | undefined;
  collection: string | null | undefined;
  document: string | null | undefined;
  description: string | null | undefined;
}

/**
 * The one History CSV row writer (the History export and an archive of the audit trail): the
 * cells in HISTORY_CSV_COLUMNS's order, as text a CSV file writer then guards and quotes.
 */
export function historyCsvRow(e: HistoryCsvEntry): string[] {
  return [csvTimestamp(e.timestamp), e.user, e.action ?? '', collectionLabel(e.collection), e.document ?? '', e.description ?? ''];
}

let lastHourKey = '';
let lastHourManila = '';

/** The CSV's Timestamp cell: 'YYYY-MM-DD HH:mm:ss' in Manila time, or 'Invalid Date'. */
export function csvTimestamp(value: string | null | undefined): string {
  // Fast path for the stored form 'YYYY-MM-DDTHH:mm:ss.sssZ': rows come in time order, so the
  // Manila date and hour of the previous row usually still apply.
  if (value && value.length === 24 && value[10] === 'T' && value[23] === 'Z' && value[13] === ':') {
    const hourKey = value.slice(0, 13);
    if (hourKey !== lastHourKey) {
      const t = Date.parse(`${hourKey}:00:00.000Z`);
      if (Number.isNaN(t)) return HISTORY.invalidDate;
      const iso = new Date(t + MANILA_OFFSET_MS).toISOString();
      lastHourKey = hourKey;
      lastHourManila = `${iso.slice(0, 10)} ${iso.slice(11, 13)}`;
    }
    const rest = value.slice(13, 19);
    if (/^:[0-5]\d:[0-5]\d$/.test(rest)) return lastHourManila + rest;
  }
  const t = parseTimestamp(value);
  if (t === null) return HISTORY.invalidDate;
  const iso = new Date(t + MANILA_OFFSET_MS).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}
