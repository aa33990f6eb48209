import { MODEL_LIMITS, MODEL_TEXTS } from '../../../../common/models.js';
import { hasControlCharacters, visibleControls } from '../../../../common/text-controls.js';
import { modelInspectMetaSchema, modelUploadMetaSchema, type ModelUploadMeta } from '../../../../common/schemas/models.js';
import { invalid } from '../../../platform/http/errors.js';
import { loadProblem } from './evaluation/scorer.js';
import { readerOf, type FileReaders } from '../../../platform/parsing/file-readers.js';
import type { modelFileTasks } from './read-worker.js';
import { labelsOfLines } from './labels.js';
import type { TfliteFacts } from '../../../libraries/tflite/read-model.js';

const modelReader = readerOf<typeof modelFileTasks>(new URL('./read-worker.js', import.meta.url));

/** What an upload request carried: the "meta" field's text, a labels file's bytes, the model file. */
export interface ModelParts {
  meta: string | null;
  labelsFile: Buffer | null;
  model: Buffer | null;
}

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

/** The labels of an upload: given in meta, else the labels file, else the model's metadata; refused unless one per output. */
function labelsFor(
  given: string[] | undefined,
  fromFile: string[] | null,
  fromModel: string[] | null,
  outputs: number,
): { labels: string[]; from: 'given' | 'labels file' | 'metadata' } {
  const pick =
    given && given.length > 0
      ? { labels: given, from: 'given' as const }
      : fromFile !== null
        ? { labels: fromFile, from: 'labels file' as const }
        : fromModel && fromModel.length > 0
          ? { labels: labelsOfLines(fromModel), from: 'metadata' as const }
          : null;
  if (!pick) invalid({ labels: MODEL_TEXTS.noLabels });
  // Labels reach the farmer app: no control or direction-changing characters, wherever they came from.
  const marked = pick.labels.find((l) => hasControlCharacters(l));
  if (marked !== undefined) invalid({ labels: MODEL_TEXTS.labelControls(visibleControls(marked)) });
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
export async function checkUpload<K extends 'upload' | 'inspect'>(
  files: FileReaders,
  parts: ModelParts,
  kind: K,
): Promise<{ meta: Meta<K>; model: Buffer; facts: TfliteFacts; labels: string[]; from: 'given' | 'labels file' | 'metadata' }> {
  const meta = parseMeta(parts.meta, kind);
  const model = parts.model;
  if (!model) invalid({ file: MODEL_TEXTS.noFile });
  // Read in place: an upload's bytes are shared memory (upload-parts.ts), which crosses to the thread uncopied.
  const facts = await modelReader.run(files, 'tflite', [new Uint8Array(model.buffer, model.byteOffset, model.byteLength)], {
    field: 'file',
  });
  const fromFile =
    parts.labelsFile === null ? null : await modelReader.run(files, 'labels', [new Uint8Array(parts.labelsFile)], { field: 'labels' });
  const { labels, from } = labelsFor(meta.labels, fromFile, facts.metadataLabels, facts.outputSize);
  const bytes = new Uint8Array(model.buffer, model.byteOffset, model.byteLength);
  const problem = await loadProblem(files, bytes, { height: facts.inputShape[1], width: facts.inputShape[2], type: facts.inputType });
  if (problem) invalid({ file: MODEL_TEXTS.notLoadable(problem) });
  return { meta, model, facts, labels, from };
}
