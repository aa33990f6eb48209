import crypto from 'node:crypto';
import { TRAINING_SET } from '../../../../common/catalog.js';
import { MODEL_TEXTS, type EvaluationSplit, type ModelStage } from '../../../../common/models.js';
import {
  inputQuantizationSchema,
  outputQuantizationSchema,
  pixelContractSchema,
  thresholdsSchema,
  type EvaluationSummary,
  type InputQuantization,
  type OutputQuantization,
  type PixelContract,
  type Thresholds,
} from '../../../../common/schemas/models.js';
import type { TfliteFacts } from '../../../libraries/tflite/read-model.js';
import type { ModelEvaluationsTable, ScannerModelsTable } from '../../../db/types/models.js';
import { invalid } from '../../../platform/http/errors.js';
import { keptValues } from '../../../platform/cache/kept.js';
import { PHOTOS_STAMP, readStamps, recordsStamp, stampOfAll } from '../../../platform/cache/stamps.js';
import type { AppContext } from '../../../platform/http/context.js';
import { evaluationSetReads } from '../evaluation-sets/index.js';
import { trainingClasses, trainingSelection } from '../training/index.js';
import type { RecordOption, StoredLabel } from './labels.js';
import type { TestVector } from './evaluation/test-vectors.js';

/** A stored model's JSON columns, read. */
export const parseJson = <T>(text: string): T => JSON.parse(text) as T;
export const contractOf = (row: ScannerModelsTable): PixelContract => pixelContractSchema.parse(parseJson(row.contract));
export const thresholdsOf = (row: ScannerModelsTable): Thresholds => thresholdsSchema.parse(parseJson(row.thresholds));
export const labelsOf = (row: ScannerModelsTable): StoredLabel[] => parseJson<StoredLabel[]>(row.labels);
/** The digest of a pixel contract as stored (its JSON text is written once, in one key order). */
export const contractSha256 = (row: ScannerModelsTable): string =>
  crypto
    .createHash('sha256')
    .update(JSON.stringify(contractOf(row)))
    .digest('hex');
export const testVectorsOf = (row: ScannerModelsTable): TestVector[] => (row.testVectors ? parseJson<TestVector[]>(row.testVectors) : []);
export const inputShapeOf = (row: ScannerModelsTable): number[] => parseJson<number[]>(row.inputShape);
export const outputQuantizationOf = (row: ScannerModelsTable): OutputQuantization =>
  row.outputQuantization === null ? null : outputQuantizationSchema.parse(parseJson(row.outputQuantization));
/** A model file's facts as the output's quantisation is kept and shown (null: float32 scores). */
export const outputQuantizationFrom = (facts: TfliteFacts): OutputQuantization =>
  facts.outputType === 'float32' || !facts.outputQuantization ? null : { type: facts.outputType, ...facts.outputQuantization };
/** The columns' text of a model file's quantisation: its scores' (outputQuantizationFrom) and its uint8 pixels'. */
export const quantizationColumns = (facts: TfliteFacts): Pick<ScannerModelsTable, 'outputQuantization' | 'inputQuantization'> => {
  const q = outputQuantizationFrom(facts);
  return {
    outputQuantization: q ? JSON.stringify(q) : null,
    inputQuantization: facts.inputType === 'uint8' && facts.inputQuantization ? JSON.stringify(facts.inputQuantization) : null,
  };
};
/** What a uint8 pixel means to the model, as the farmer app's payload says it. */
export const inputQuantizationOf = (row: ScannerModelsTable): InputQuantization =>
  row.inputQuantization === null ? null : inputQuantizationSchema.parse(parseJson(row.inputQuantization));

/** Every live disease and training class, with its training-set label: what a model's label may mean. */
export async function liveRecords(ctx: AppContext): Promise<RecordOption[]> {
  return (await trainingClasses(ctx)).map((c) => ({ ...c, localName: c.localName || null }));
}

/**
 * The current training set's held-out photos as an evaluation scores them: the split's
 * (photo id, record id) pairs in a fixed order, and their digest. Equal digests mean the same
 * photos in the same classes; for a plant check the classes are the verdicts, so a training
 * class marked (or no longer marked) "not a rice plant" changes the digest. A disease
 * classifier is not scored on those photos (in the app the plant check turns them away).
 * `notRice` holds the records whose photos are not of rice plants.
 */
export async function photoSet(ctx: AppContext, split: EvaluationSplit, seed: string, stage: ModelStage) {
  const { train, validation } = TRAINING_SET.defaultRatios;
  const selection = await trainingSelection(ctx, { seed, train, validation, conflicts: 'exclude' });
  const notRice = new Set(selection.classes.filter((c) => c.notRicePlant).map((c) => c.id));
  const pairs = selection.photos
    .filter((p) => split === 'all' || p.split === split)
    // A disease classifier only sees what the plant check passed as a rice plant.
    .filter((p) => stage === 'plant' || !notRice.has(p.entryId))
    .map((p) => [p.id, p.entryId] as [string, string])
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return { pairs, sha256: photoSetDigest(pairs, stage, notRice), notRice };
}

/** Equal digests mean the same photos in the same classes (for a plant check, the same verdicts). */
function photoSetDigest(pairs: ReadonlyArray<[string, string]>, stage: ModelStage, notRice: ReadonlySet<string>): string {
  const digest = crypto.createHash('sha256');
  for (const [id, record] of pairs)
    digest.update(stage === 'plant' ? `${id}:${record}:${notRice.has(record) ? 'not-rice' : 'rice'}\n` : `${id}:${record}\n`);
  return digest.digest('hex');
}

/**
 * An evaluation set's photos as an evaluation scores them, like photoSet's (a disease
 * classifier is not scored on the photos of "not a rice plant" classes); null when the set is gone.
 */
export async function evaluationSetPhotoSet(ctx: AppContext, setId: string, stage: ModelStage) {
  const set = await evaluationSetReads.find(ctx.db, setId);
  if (!set) return null;
  const classes = await trainingClasses(ctx);
  const notRice = new Set(classes.filter((c) => c.notRicePlant).map((c) => c.id));
  const pairs = (await evaluationSetReads.photos(ctx.db, setId))
    .filter((p) => stage === 'plant' || !notRice.has(p.recordId))
    .map((p) => [p.id, p.recordId] as [string, string]);
  return { set, pairs, sha256: photoSetDigest(pairs, stage, notRice), notRice };
}

/**
 * The photos a new evaluation scores: exactly an earlier evaluation's (`earlier`), an evaluation
 * set's, or a split of the training set; refused when there are none, or when a plant check's
 * photos are all of one verdict.
 */
export async function photosToScore(
  ctx: AppContext,
  stage: ModelStage,
  choice: { split: EvaluationSplit; seed: string; evaluationSetId?: string | undefined },
  earlier: ModelEvaluationsTable | null,
) {
  let { split, seed } = earlier ? { split: earlier.split as EvaluationSplit, seed: earlier.seed } : choice;
  const onSet = !earlier && choice.evaluationSetId ? await evaluationSetPhotoSet(ctx, choice.evaluationSetId, stage) : null;
  if (!earlier && choice.evaluationSetId && !onSet) invalid({ evaluationSetId: MODEL_TEXTS.evaluationSetGone });
  if (earlier?.evaluationSetId && !(await evaluationSetReads.find(ctx.db, earlier.evaluationSetId)))
    invalid({ evaluationSetId: MODEL_TEXTS.evaluationSetGone });
  if (onSet) ({ split, seed } = { split: 'all', seed: '' });
  const evaluationSet = onSet ? { id: onSet.set.id, name: onSet.set.name } : earlier ? setOf(earlier) : null;
  const set = onSet
    ? onSet
    : earlier
      ? { pairs: parseJson<Array<[string, string]>>(earlier.photoIds), sha256: earlier.photoSetSha256 }
      : await photoSet(ctx, split, seed, stage);
  if (set.pairs.length === 0) invalid({ split: MODEL_TEXTS.noPhotos });
  if ('notRice' in set && stage === 'plant' && !bothVerdicts(set)) invalid({ split: MODEL_TEXTS.plantNeedsBoth });
  return { split, seed, set, evaluationSet };
}

/** An evaluation as the lists show it. */
export async function evaluationSummary(
  ctx: AppContext,
  stage: ModelStage,
  e: Omit<ModelEvaluationsTable, 'photoIds' | 'contractSha256' | 'cancelRequested' | 'claimedBy' | 'heartbeatAt' | 'createdBy' | 'modelId'>,
): Promise<EvaluationSummary> {
  return {
    id: e.id,
    state: e.state as EvaluationSummary['state'],
    split: e.split as EvaluationSplit,
    seed: e.seed,
    total: e.total,
    done: e.done,
    accuracy: e.accuracy,
    macroF1: e.macroF1,
    current: await evaluationIsCurrent(ctx, stage, e),
    evaluationSet: setOf(e),
    error: e.error,
    createdAt: e.createdAt,
    finishedAt: e.finishedAt,
  };
}

/** The evaluation set an evaluation scored, as its summary names it. */
export const setOf = (e: { evaluationSetId: string | null; evaluationSetName: string | null }) =>
  e.evaluationSetId ? { id: e.evaluationSetId, name: e.evaluationSetName ?? '' } : null;

/** Whether a plant check's photo set has photos of both verdicts to tell apart. */
export function bothVerdicts(set: { pairs: ReadonlyArray<[string, string]>; notRice: ReadonlySet<string> }): boolean {
  const notRice = set.pairs.filter(([, record]) => set.notRice.has(record)).length;
  return notRice > 0 && notRice < set.pairs.length;
}

/**
 * Whether an evaluation's result is (or, queued or running, will be) on the training set as it
 * is now: the photos it was given when queued are still the split's (or the evaluation set's). A failed or cancelled one
 * has no result to be current.
 */
export async function evaluationIsCurrent(
  ctx: AppContext,
  stage: ModelStage,
  evaluation: { state: string; split: string; seed: string; photoSetSha256: string; evaluationSetId: string | null },
): Promise<boolean> {
  if (!['queued', 'running', 'done'].includes(evaluation.state)) return false;
  if (evaluation.evaluationSetId)
    return (await evaluationSetPhotoSet(ctx, evaluation.evaluationSetId, stage))?.sha256 === evaluation.photoSetSha256;
  return (await recentPhotoSetSha(ctx, evaluation.split as EvaluationSplit, evaluation.seed, stage)) === evaluation.photoSetSha256;
}

/**
 * The digest of a split's photos as the lists show it ("on the current training set"): kept
 * while no photo and no disease is written, since clustering every photo on each refresh of the
 * Models screen (which refreshes with every step of a running evaluation) would hold up other
 * requests. Publishing checks the photo set afresh.
 */
export async function recentPhotoSetSha(ctx: AppContext, split: EvaluationSplit, seed: string, stage: ModelStage): Promise<string> {
  const stamp = stampOfAll(await readStamps(ctx.db), [PHOTOS_STAMP, recordsStamp('rice_local_diseases')]);
  return keptValues<string>(ctx.db, 'models/photo-set', 20).get(
    `${stage}:${split}:${seed}`,
    stamp,
    async () => (await photoSet(ctx, split, seed, stage)).sha256,
  );
}
