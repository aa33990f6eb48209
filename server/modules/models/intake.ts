import { MODEL_LIMITS, MODEL_TEXTS } from '../../../common/models.js';
import { modelInspectMetaSchema, modelUploadMetaSchema, type ModelUploadMeta } from '../../../common/schemas/models.js';
import { invalid } from '../../platform/http/errors.js';
import { loadProblem } from './evaluation/scorer.js';
import { parseLabelsText } from './labels.js';
import { readTfliteModel, TfliteFileError, type TfliteFacts } from './tflite/read-model.js';

/** What an upload request carried: the "meta" field's text, a labels file's bytes, the model file. */
export interface ModelParts { meta: string | null; labelsFile: Buffer | null; model: Buffer | null }

type Meta<K> = K extends 'upload' ? ModelUploadMeta : Pick<ModelUploadMeta, 'stage' | 'labels'>;

function parseMeta<K extends 'upload' | 'inspect'>(text: string | null, kind: K): Meta<K> {
  let raw: unknown;
  try {
    raw = text === null ? null : JSON.parse(text);
  } catch {
    invalid({ meta: MODEL_TEXTS.metaInvalid });
  }
  if (raw === null || typeof raw !== 'object') invalid({ meta: MODEL_TEXTS.metaInvalid });
  const parsed = (kind === 'upload' ? modelUploadMetaSchema : modelInspectMetaSchema).safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    invalid({ [String(issue.path[0] ?? 'meta')]: issue.message });
  }
  return parsed.data as Meta<K>;
}

/** A labels file as text: UTF-8 (with or without its byte-order mark) or UTF-16 with one; anything else binary is refused. */
function labelsText(bytes: Buffer): string {
  let text: string;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) text = bytes.subarray(2).toString('utf16le');
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) text = Buffer.from(bytes.subarray(2)).swap16().toString('utf16le');
  else text = bytes.toString('utf8');
  if (text.includes('\u0000') || text.includes('\ufffd')) invalid({ labels: MODEL_TEXTS.labelsEncoding });
  return text;
}

/** The labels of an upload: given in meta, else the labels file, else the model's metadata; refused unless one per output. */
function labelsFor(given: string[] | undefined, labelsFile: Buffer | null, fromModel: string[] | null, outputs: number): { labels: string[]; from: 'given' | 'labels file' | 'metadata' } {
  const pick = given && given.length > 0 ? { labels: given, from: 'given' as const }
    : labelsFile !== null ? { labels: parseLabelsText(labelsText(labelsFile)), from: 'labels file' as const }
      : fromModel && fromModel.length > 0 ? { labels: fromModel, from: 'metadata' as const } : null;
  if (!pick) invalid({ labels: MODEL_TEXTS.noLabels });
  if (pick.labels.some((l) => l.length > MODEL_LIMITS.maxLabelLength)) invalid({ labels: MODEL_TEXTS.labelTooLong });
  if (pick.labels.length !== outputs) invalid({ labels: MODEL_TEXTS.labelCount(pick.labels.length, outputs) });
  const seen = new Set<string>();
  for (const l of pick.labels) {
    if (seen.has(l)) invalid({ labels: MODEL_TEXTS.duplicateLabel(l) });
    seen.add(l);
  }
  return pick;
}

/**
 * Checks an upload before anything is stored: its settings, the file (a TFLite model with one
 * image input and one score vector, float32 scores), that the runtime loads it, and its labels.
 * Each failure is a 400 naming what to fix.
 */
export async function checkUpload<K extends 'upload' | 'inspect'>(parts: ModelParts, kind: K): Promise<{ meta: Meta<K>; model: Buffer; facts: TfliteFacts; labels: string[]; from: 'given' | 'labels file' | 'metadata' }> {
  const meta = parseMeta(parts.meta, kind);
  const model = parts.model;
  if (!model) invalid({ file: MODEL_TEXTS.noFile });
  let facts: TfliteFacts;
  try {
    facts = await readTfliteModel(new Uint8Array(model.buffer, model.byteOffset, model.byteLength));
  } catch (err: unknown) {
    if (err instanceof TfliteFileError) invalid({ file: err.message });
    throw err;
  }
  if (facts.outputType !== 'float32') invalid({ file: MODEL_TEXTS.quantisedOutput });
  const { labels, from } = labelsFor(meta.labels, parts.labelsFile, facts.metadataLabels, facts.outputSize);
  const problem = await loadProblem(new Uint8Array(model), { height: facts.inputShape[1], width: facts.inputShape[2], type: facts.inputType });
  if (problem) invalid({ file: MODEL_TEXTS.notLoadable(problem) });
  return { meta, model, facts, labels, from };
}
