import { labelSlug } from '../../../../common/catalog.js';
import { MODEL_TEXTS, type ModelStage, type PlantVerdict } from '../../../../common/models.js';
import { invalid } from '../../../platform/http/errors.js';
import { utf16ByMark } from '../../../platform/support/byte-order-mark.js';

/** A live disease or training class, with its label in the training ZIP ('rice-blast', 'rice-blast-2'). */
export interface RecordOption {
  id: string;
  name: string;
  localName: string | null;
  trainingClass: boolean;
  label: string;
}
export interface LabelTarget {
  recordId: string | null;
  verdict: PlantVerdict | null;
}
export interface StoredLabel extends LabelTarget {
  label: string;
}

type MatchedBy = 'name' | 'local name' | 'label' | 'verdict' | 'given' | 'none';

const squash = (s: string) => labelSlug(s).replace(/-/g, '');

/**
 * What a label probably means: for a disease classifier the record whose name, local name or
 * training-set label (its slug) reads the same once case, accents, spaces and punctuation are
 * set aside ('Bacterial Leaf Blight', 'bacterial_leaf_blight', 'bacterial-leaf-blight'; a second
 * record of one name by its label 'rice-blast-2'); for a
 * plant check the verdict its words say. Only a suggestion: the user confirms each one.
 */
export function suggestTarget(
  stage: ModelStage,
  label: string,
  records: readonly RecordOption[],
): { target: LabelTarget; matchedBy: MatchedBy } {
  const key = squash(label);
  if (stage === 'plant') {
    if (/^(non|not|no)/.test(key) || key.includes('notrice') || key.includes('nonrice'))
      return { target: { recordId: null, verdict: 'not-rice-plant' }, matchedBy: 'verdict' };
    if (key.includes('rice')) return { target: { recordId: null, verdict: 'rice-plant' }, matchedBy: 'verdict' };
    return { target: { recordId: null, verdict: null }, matchedBy: 'none' };
  }
  const byName = records.find((r) => squash(r.name) === key);
  if (byName) return { target: { recordId: byName.id, verdict: null }, matchedBy: 'name' };
  const byLocal = records.find((r) => r.localName && squash(r.localName) === key);
  if (byLocal) return { target: { recordId: byLocal.id, verdict: null }, matchedBy: 'local name' };
  const byLabel = records.find((r) => squash(r.label) === key);
  if (byLabel) return { target: { recordId: byLabel.id, verdict: null }, matchedBy: 'label' };
  return { target: { recordId: null, verdict: null }, matchedBy: 'none' };
}

/**
 * The labels with what each means: the given mapping where one is given, else the suggestion.
 * Refused (400, naming the labels) when a label means nothing, names a record that is not live,
 * or two labels name one record.
 */
export function confirmMapping(
  stage: ModelStage,
  labels: readonly string[],
  given: ReadonlyArray<LabelTarget | undefined>,
  records: readonly RecordOption[],
): StoredLabel[] {
  const live = new Map(records.map((r) => [r.id, r]));
  const out = labels.map((label, i) => {
    const g = given[i];
    const target = g && (g.recordId || g.verdict) ? g : suggestTarget(stage, label, records).target;
    return stage === 'plant' ? { label, recordId: null, verdict: target.verdict } : { label, recordId: target.recordId, verdict: null };
  });
  const unmapped = out.filter((l) => !l.recordId && !l.verdict).map((l) => l.label);
  if (unmapped.length > 0) invalid({ mapping: MODEL_TEXTS.unmapped(unmapped) });
  const gone = out.filter((l) => l.recordId && !live.has(l.recordId)).map((l) => l.label);
  if (gone.length > 0) invalid({ mapping: MODEL_TEXTS.unknownRecord(gone) });
  const seen = new Set<string>();
  for (const l of out) {
    if (!l.recordId) continue;
    if (seen.has(l.recordId)) invalid({ mapping: MODEL_TEXTS.recordTwice(live.get(l.recordId)!.name) });
    seen.add(l.recordId);
  }
  return out;
}

/** Labels of a labels file: one a line, blank lines and surrounding spaces dropped, in the file's format (labelsOfLines). */
export function parseLabelsText(text: string): string[] {
  return labelsOfLines(
    text
      .replace(/^\ufeff/, '')
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l !== ''),
  );
}

/** Teachable Machine's "0 Rice Blast" (or "0: Rice Blast"): an index, then the label. */
const INDEXED_LINE = /^(\d{1,6})(?:\s*:\s*|\s+)(\S.*)$/;
const WHOLE_NUMBER = /^\d{1,6}$/;
/** A CSV heading's names for its label column. */
const LABEL_HEADINGS = new Set(['label', 'labels', 'name', 'class', 'classname', 'class_name', 'disease', 'category']);

/** One CSV line's fields: commas outside double quotes split it, "" inside them is a quote. */
function csvFields(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i]!;
    if (quoted && c === '"' && line[i + 1] === '"') {
      field += '"';
      i += 1;
    } else if (quoted && c === '"') {
      quoted = false;
    } else if (!quoted && c === '"' && field.trim() === '') {
      quoted = true;
      field = '';
    } else if (!quoted && c === ',') {
      fields.push(field.trim());
      field = '';
    } else {
      field += c;
    }
  }
  fields.push(field.trim());
  return fields;
}

/**
 * The labels of a labels file's lines (or of the labels a model carries), as teams write them:
 * - one label a line;
 * - Teachable Machine's "index name" lines ("0 NonRice", "1 Rice Plant");
 * - CSV with an index column ("0,Rice Blast", "index,label" first if it likes).
 * An index never reaches a label: each must be the line's position (counted from 0, or from 1
 * when the first line is 1), or the file is refused naming the line.
 */
export function labelsOfLines(lines: readonly string[]): string[] {
  if (lines.length === 0) return [];
  const indexed =
    csvIndexed(lines) ?? (lines.every((l) => INDEXED_LINE.test(l)) ? lines.map((l) => l.match(INDEXED_LINE)!.slice(1, 3)) : null);
  if (!indexed) return [...lines];
  const start = Number(indexed[0]![0]);
  indexed.forEach(([index, label], i) => {
    if (Number(index) !== start + i || start > 1)
      invalid({ labels: MODEL_TEXTS.labelIndex(i + 1, `${index} ${label}`, start > 1 ? 0 : start + i) });
  });
  return indexed.map(([, label]) => label!);
}

/** A CSV of an index column and a label column, as [index, label] pairs; null when the lines are not one. */
function csvIndexed(lines: readonly string[]): Array<[string, string]> | null {
  if (!lines.every((l) => l.includes(','))) return null;
  const rows = lines.map(csvFields);
  const width = rows[0]!.length;
  if (rows.some((r) => r.length !== width)) return null;
  const header = rows[0]!.every((f) => !WHOLE_NUMBER.test(f)) ? rows[0]! : null;
  const body = header ? rows.slice(1) : rows;
  if (body.length === 0) return null;
  const indexColumn = Array.from({ length: width }, (_, c) => c).find((c) => body.every((r) => WHOLE_NUMBER.test(r[c]!)));
  if (indexColumn === undefined) return null;
  const named = header?.findIndex((f, c) => c !== indexColumn && LABEL_HEADINGS.has(f.toLowerCase().replace(/\s+/g, '_'))) ?? -1;
  const labelColumn = named >= 0 ? named : Array.from({ length: width }, (_, c) => c).find((c) => c !== indexColumn);
  if (labelColumn === undefined) return null;
  return body.map((r) => [r[indexColumn]!, r[labelColumn]!]);
}

/**
 * A labels file as text: UTF-8 (with or without its byte-order mark) or UTF-16 with one, in whole
 * two-byte units; anything else binary is refused (400 on the labels field). Runs in a file
 * reader's thread (read-worker.ts).
 */
function labelsText(bytes: Uint8Array): string {
  const utf16 = utf16ByMark(bytes);
  if (utf16 && bytes.length % 2 !== 0) invalid({ labels: MODEL_TEXTS.labelsEncoding });
  const text = utf16 ? new TextDecoder(utf16).decode(bytes.subarray(2)) : new TextDecoder('utf-8').decode(bytes);
  if (text.includes('\u0000') || text.includes('\ufffd')) invalid({ labels: MODEL_TEXTS.labelsEncoding });
  return text;
}

/** The labels of an uploaded labels file. */
export async function readLabelsFile(bytes: Uint8Array): Promise<string[]> {
  return parseLabelsText(labelsText(bytes));
}
