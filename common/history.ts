import { COLLECTION_NAMES, type CollectionName } from './collections.js';
import { COLLECTION_LABELS } from './texts.js';

/**
 * History logs (SPEC.md sections 2, 3, 6, 7 and 9): texts, filter values, limits and the
 * display rules shared by the browser, the server's list/CSV presenters and the tests.
 */
export const HISTORY = {
  title: 'History Logs',
  subtitle: 'Activity of the console, newest first',
  searchPlaceholder: 'Search logs...',
  empty: 'No history logs found',
  loading: 'Loading history logs...',
  loadMore: 'Load more',
  loadingMore: 'Loading more...',
  end: 'End of history',
  invalidDate: 'Invalid Date',
  invalidRelative: 'Invalid',
  export: 'Export CSV',
  exporting: 'Exporting...',
  exportDone: 'Export finished.',
  exportFailed: 'Export failed. Please try again.',
  cancelExport: 'Cancel export',
  exportCancelled: 'Export cancelled.',
  clearFilters: 'Clear filters',
  newEntries: 'New entries',
  details: 'Entry details',
  close: 'Close',
  noChanges: 'This entry records no field changes.',
  changesHeading: 'Changes',
  detailsHeading: 'Details',
  field: 'Field',
  before: 'Before',
  after: 'After',
  added: 'added',
  removed: 'removed',
  changed: 'changed',
  unchanged: 'Unchanged fields',
  emptyValue: '—',
  loadFailed: 'Could not load the history logs.',
  filters: {
    date: 'Date',
    action: 'Action',
    collection: 'Collection',
    user: 'User',
    from: 'From',
    to: 'To',
    allActions: 'All actions',
    allCollections: 'All collections',
    allUsers: 'All users',
  },
  dateRanges: {
    all: 'All Time',
    today: 'Today',
    week: 'Last Week',
    month: 'Last Month',
    custom: 'Custom range',
  },
  columns: {
    time: 'Time',
    user: 'User',
    action: 'Action',
    collection: 'Collection',
    document: 'Document',
    description: 'Description',
  },
  count: (n: number, exact: boolean) => `${exact ? '' : 'About '}${n.toLocaleString('en-US')} ${n === 1 ? 'entry' : 'entries'}`,
  /** CSV header row (SPEC.md section 7), in this order. */
  csvColumns: ['Timestamp', 'User', 'Action', 'Collection', 'Document', 'Description'] as const,
  errors: {
    badRange: 'Choose a date range: All Time, Today, Last Week, Last Month or Custom range.',
    badDate: 'Enter a date as YYYY-MM-DD.',
    fromAfterTo: 'The start date must be on or before the end date.',
    datesNeedCustom: 'From and To apply only to a custom range.',
    customNeedsDate: 'A custom range needs a start or an end date.',
    badAction: 'Unknown action.',
    badCollection: 'Unknown collection.',
    badCursor: 'This page link is no longer valid. Reload the list.',
    badLimit: 'Page size must be between 1 and 100.',
    tooLong: 'This value is too long.',
  },
} as const;

export const HISTORY_DATE_RANGES = ['all', 'today', 'week', 'month', 'custom'] as const;
export type HistoryDateRange = (typeof HISTORY_DATE_RANGES)[number];

/**
 * Actions used by the product (SPEC.md section 3), in the order the filter offers them; RESTORE
 * (a record back from the trash), SIGN_OUT (a session ended from a sessions list) and
 * SECOND_FACTOR (turned on, off or reset) came with the trash, sessions and second factor.
 */
export const HISTORY_ACTIONS = ['CREATE', 'UPDATE', 'DELETE', 'RESTORE', 'RESTRICT', 'UNRESTRICT', 'LOGIN', 'SIGN_OUT', 'SECOND_FACTOR'] as const;
export type HistoryAction = (typeof HISTORY_ACTIONS)[number];

/** History's collection filter: every collection of common/collections.ts, by table name. */
export const HISTORY_COLLECTIONS = [...COLLECTION_NAMES].sort() as [CollectionName, ...CollectionName[]];

export const HISTORY_LIMITS = {
  pageSize: 50,
  maxPageSize: 100,
  /** Up to this many matches the count is exact; beyond it the server estimates. */
  exactCountCap: 10_000,
  /** Longest free-text search accepted. */
  maxSearchLength: 200,
  /**
   * Rows fetched per database round trip while streaming the CSV. Small enough that a batch
   * is garbage before a young-generation GC can promote it (2,000 left ~20 MB in the old
   * generation per export), large enough that the round trips cost nothing measurable.
   */
  exportBatch: 500,
  /** Last Week and Last Month (SPEC.md section 9). */
  weekDays: 7,
  monthDays: 30,
} as const;

/** The department's time zone: Asia/Manila is UTC+08:00 all year (no daylight saving). */
export const MANILA_TIME_ZONE = 'Asia/Manila';
const MANILA_OFFSET_MS = 8 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

export function collectionLabel(collection: string | null | undefined): string {
  if (!collection) return '';
  return COLLECTION_LABELS[collection] ?? collection;
}

/** Today's date in Manila as YYYY-MM-DD (used in the CSV file name and the custom range). */
export function manilaDate(now: number = Date.now()): string {
  return new Date(now + MANILA_OFFSET_MS).toISOString().slice(0, 10);
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
export function dateBounds(range: HistoryDateRange, from: string | undefined, to: string | undefined, now: number = Date.now()): TimeBounds {
  switch (range) {
    case 'all': return {};
    case 'today': return { from: new Date(manilaDayStart(manilaDate(now))).toISOString() };
    case 'week': return { from: new Date(now - HISTORY_LIMITS.weekDays * DAY_MS).toISOString() };
    case 'month': return { from: new Date(now - HISTORY_LIMITS.monthDays * DAY_MS).toISOString() };
    case 'custom': {
      const bounds: TimeBounds = {};
      if (from) bounds.from = new Date(manilaDayStart(from)).toISOString();
      if (to) bounds.before = new Date(manilaDayStart(to) + DAY_MS).toISOString();
      return bounds;
    }
  }
}

function parseTimestamp(value: string | null | undefined): number | null {
  if (!value) return null;
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : t;
}

const FULL_DATE = new Intl.DateTimeFormat('en-US', {
  timeZone: MANILA_TIME_ZONE,
  year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', second: '2-digit', hour12: true,
});

/** The full date shown on hover and in the entry dialog, in Manila time; 'Invalid Date' otherwise. */
export function fullDate(value: string | null | undefined): string {
  const t = parseTimestamp(value);
  return t === null ? HISTORY.invalidDate : `${FULL_DATE.format(t)} (PHT)`;
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

/**
 * Spreadsheets run a cell that begins with =, +, -, @ (or a tab / carriage return) as a
 * formula; such cells get a leading apostrophe so they stay text.
 */
export function guardCell(value: string): string {
  const first = value.charCodeAt(0);
  // = + - @ tab CR
  return first === 61 || first === 43 || first === 45 || first === 64 || first === 9 || first === 13 ? `'${value}` : value;
}

const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One CSV cell (RFC 4180): the formula guard of guardCell, then quoted, with quotes doubled,
 * when it holds a comma, a quote or a line break.
 */
export function csvCell(value: string): string {
  const guarded = guardCell(value);
  return NEEDS_QUOTES.test(guarded) ? `"${guarded.replaceAll('"', '""')}"` : guarded;
}

export interface DiffRow {
  field: string;
  before: unknown;
  after: unknown;
  kind: 'added' | 'removed' | 'changed' | 'unchanged';
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The readable field-by-field difference of an entry's changes {before, after}. Nested
 * objects are compared as whole values; a side that is not an object counts as one field.
 */
export function diffChanges(changes: { before?: unknown; after?: unknown } | null | undefined): DiffRow[] {
  if (!changes) return [];
  const before = changes.before ?? null;
  const after = changes.after ?? null;
  if (!isPlainObject(before) && !isPlainObject(after)) {
    if (before === null && after === null) return [];
    return [{ field: 'value', before, after, kind: same(before, after) ? 'unchanged' : before === null ? 'added' : after === null ? 'removed' : 'changed' }];
  }
  const b = isPlainObject(before) ? before : {};
  const a = isPlainObject(after) ? after : {};
  const fields = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  const rows = fields.map<DiffRow>((field) => {
    const inB = field in b && b[field] !== undefined;
    const inA = field in a && a[field] !== undefined;
    const kind = !inB ? 'added' : !inA ? 'removed' : same(b[field], a[field]) ? 'unchanged' : 'changed';
    return { field, before: inB ? b[field] : undefined, after: inA ? a[field] : undefined, kind };
  });
  const order = { changed: 0, added: 1, removed: 2, unchanged: 3 } as const;
  return rows.sort((x, y) => order[x.kind] - order[y.kind] || x.field.localeCompare(y.field));
}

/** A value of a difference row as text: lists joined, objects as JSON, empty as a dash. */
export function formatValue(value: unknown): string {
  if (value === undefined || value === null || value === '') return HISTORY.emptyValue;
  if (Array.isArray(value)) return value.length === 0 ? HISTORY.emptyValue : value.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join(', ');
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Lower case without accents, as the full-text index folds them (ñ matches n). */
export function foldText(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
}

/** Splits free text into the words the full-text index knows (letters and digits, folded). */
export function searchTerms(text: string): string[] {
  return (foldText(text).match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 12);
}

/**
 * The search rule: every word of the query begins a word of the entry's user, document
 * name or description. The server's full-text index and this check agree on it.
 */
export function matchesTerms(terms: readonly string[], fields: ReadonlyArray<string | null | undefined>): boolean {
  if (terms.length === 0) return true;
  const words = foldText(fields.filter(Boolean).join(' ')).match(/[\p{L}\p{N}]+/gu) ?? [];
  return terms.every((t) => words.some((w) => w.startsWith(t)));
}
