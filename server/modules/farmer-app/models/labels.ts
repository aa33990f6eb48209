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

/** Labels of a labels file: one a line, blank lines and surrounding spaces dropped. */
export function parseLabelsText(text: string): string[] {
  return text
    .replace(/^\ufeff/, '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
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
