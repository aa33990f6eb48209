import { COLLECTION_NAMES, type CollectionName } from './collections.js';
import { COLLECTION_LABELS } from './texts.js';

/**
 * History logs (docs/PRODUCT.md sections 2, 3, 6, 7 and 9): texts, filter values (actions,
 * collections, date ranges), limits and collection labels, shared by the browser, the server
 * and the tests. Dates are in history-dates.ts, the CSV in history-csv.ts, the search rule in
 * history-search.ts, the entry dialog's difference in history-diff.ts.
 */
export const HISTORY = {
  /** A custom range before any date is chosen: a step to take, not an error. */
  chooseDates: 'Choose a start or an end date to see the entries of a custom range.',
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
 * Actions used by the product (docs/PRODUCT.md section 3), in the order the filter offers them; RESTORE
 * (a record back from the trash), SIGN_OUT (a session ended from a sessions list) and
 * SECOND_FACTOR (turned on, off or reset) came with the trash, sessions and second factor; IMPORT
 * is a spreadsheet import's summary (each record it wrote has its own CREATE or UPDATE).
 */
export const HISTORY_ACTIONS = [
  'CREATE',
  'UPDATE',
  'DELETE',
  'RESTORE',
  'RESTRICT',
  'UNRESTRICT',
  'LOGIN',
  'SIGN_OUT',
  'SECOND_FACTOR',
  'IMPORT',
  'RESTORE_VERSION',
  'SUBMIT',
  'APPROVE',
  'REJECT',
  'PUBLISH',
  'SCHEDULE',
  'UNPUBLISH',
] as const;
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
  /** Last Week and Last Month (docs/PRODUCT.md section 9). */
  weekDays: 7,
  monthDays: 30,
} as const;

export function collectionLabel(collection: string | null | undefined): string {
  if (!collection) return '';
  return COLLECTION_LABELS[collection] ?? collection;
}
