import { HISTORY } from './history.js';

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

/** A value of a difference row as text: lists joined, objects as JSON, empty as a dash. */
export function formatValue(value: unknown): string {
  if (value === undefined || value === null || value === '') return HISTORY.emptyValue;
  if (Array.isArray(value))
    return value.length === 0 ? HISTORY.emptyValue : value.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join(', ');
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
