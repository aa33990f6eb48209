/**
 * Reading a JSON export of the existing Firebase project. Accepted layouts, as written by the
 * usual export tools:
 *   { "<collection>": { "<docId>": { ...fields } } }
 *   { "__collections__": { "<collection>": { "<docId>": { ...fields, "__collections__": {} } } } }
 * Timestamps may be {_seconds,_nanoseconds}, {seconds,nanoseconds}, {"__datatype__":"timestamp",
 * "value":{...}}, or ISO text.
 */
export type ExportDoc = Record<string, unknown>;
export type ExportCollections = Record<string, Record<string, ExportDoc>>;

export function readCollections(json: unknown): ExportCollections {
  if (!json || typeof json !== 'object' || Array.isArray(json)) throw new Error('The export must be a JSON object of collections.');
  const root = json as Record<string, unknown>;
  const source = (root.__collections__ && typeof root.__collections__ === 'object' ? root.__collections__ : root) as Record<
    string,
    unknown
  >;
  const out: ExportCollections = {};
  for (const [name, docs] of Object.entries(source)) {
    if (!docs || typeof docs !== 'object') continue;
    if (Array.isArray(docs)) {
      // Some tools write a list of documents with their id inside.
      out[name] = Object.fromEntries(
        docs.filter((d) => d && typeof d === 'object').map((d, i) => [String((d as ExportDoc).id ?? i), d as ExportDoc]),
      );
    } else {
      out[name] = Object.fromEntries(
        Object.entries(docs as Record<string, unknown>)
          .filter(([, d]) => d && typeof d === 'object')
          .map(([id, d]) => {
            const { __collections__: _sub, ...fields } = d as ExportDoc;
            return [id, fields];
          }),
      );
    }
  }
  return out;
}

/** Any Firestore timestamp form, a Date string or epoch millis → ISO text; null when absent or bad. */
export function toIso(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'string') {
    const t = Date.parse(value);
    return Number.isNaN(t) ? null : new Date(t).toISOString();
  }
  if (typeof value === 'number' && Number.isFinite(value)) return new Date(value).toISOString();
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if (v.__datatype__ === 'timestamp' && v.value) return toIso(v.value);
    const seconds = v._seconds ?? v.seconds;
    const nanos = v._nanoseconds ?? v.nanoseconds ?? 0;
    if (typeof seconds === 'number' || typeof seconds === 'string') {
      const ms = Number(seconds) * 1000 + Math.floor(Number(nanos) / 1e6);
      return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
    }
  }
  return null;
}

export function toText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value.trim() === '' ? null : value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return null;
}

export function toNumber(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return null;
}

export function toInt(value: unknown): number | null {
  const n = toNumber(value);
  return n === null ? null : Math.round(n);
}

export function toBool(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'string') return ['true', 'yes', '1', 'y'].includes(value.trim().toLowerCase());
  return false;
}

export function toList(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(toText).filter((v): v is string => v !== null);
  const text = toText(value);
  return text
    ? text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];
}

/** JSON-able value (for audit `changes` / `details`), with timestamps turned into ISO text. */
export function plain(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value === 'object') {
    const iso = toIso(value);
    const v = value as Record<string, unknown>;
    if (iso && ('_seconds' in v || 'seconds' in v || v.__datatype__ === 'timestamp')) return iso;
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  }
  return value;
}
