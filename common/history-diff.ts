import { ACCOUNTS } from './accounts.js';
import { CATALOG_FIELDS } from './catalog-fields.js';
import { CATALOG_KIND_LIST } from './catalog.js';
import { fullDate } from './history-dates.js';
import { HISTORY } from './history.js';
import { VARIETY_LABELS } from './varieties.js';

/** Fields every collection's entries may carry: the deletion's and a restriction's bookkeeping. */
const COMMON_FIELDS: Record<string, string> = {
  isDeleted: 'Deleted',
  deletedAt: 'Deleted on',
  deletedBy: 'Deleted by',
  createdAt: 'Created on',
  updatedAt: 'Updated on',
  imageIds: 'Photos',
  version: 'Edit version',
  restoredVersion: 'Version restored',
};

const ACCOUNT_FIELDS: Record<string, string> = {
  ...ACCOUNTS.form,
  status: ACCOUNTS.columns.status,
  isRestricted: ACCOUNTS.status.restricted,
  restrictedAt: 'Restricted on',
  autoInactive: 'Made inactive for not signing in',
  autoInactiveAt: 'Made inactive on',
  lastLogin: ACCOUNTS.columns.lastLogin,
};

const CATALOG_LABELS: Record<string, string> = Object.fromEntries(Object.entries(CATALOG_FIELDS).map(([field, f]) => [field, f.label]));

/** Each collection's field labels, as its forms show them. */
const FIELD_LABELS: Record<string, Record<string, string>> = {
  rice_seed_varieties: VARIETY_LABELS,
  accounts: ACCOUNT_FIELDS,
  ...Object.fromEntries(CATALOG_KIND_LIST.map((kind) => [kind.collection, CATALOG_LABELS])),
};

/**
 * A field of an entry as people read it: the form's label where the collection has one, else
 * the name in words ('trainingClass' → 'Training class').
 */
export function fieldLabel(collection: string | null | undefined, field: string): string {
  const own = (collection && FIELD_LABELS[collection]?.[field]) || COMMON_FIELDS[field];
  if (own) return own;
  const words = field
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

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
    return [
      {
        field: 'value',
        before,
        after,
        kind: same(before, after) ? 'unchanged' : before === null ? 'added' : after === null ? 'removed' : 'changed',
      },
    ];
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

/** A value of a difference row as text: lists joined, objects as JSON, moments in Manila time, empty as a dash. */
export function formatValue(value: unknown): string {
  if (value === undefined || value === null || value === '') return HISTORY.emptyValue;
  if (Array.isArray(value))
    return value.length === 0 ? HISTORY.emptyValue : value.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join(', ');
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'object') return JSON.stringify(value);
  // A moment stored as UTC text reads in Manila time, as everywhere else.
  if (typeof value === 'string' && ISO_TIME.test(value)) return fullDate(value);
  return String(value);
}
