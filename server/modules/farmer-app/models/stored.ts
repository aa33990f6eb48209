import crypto from 'node:crypto';
import { TRAINING_SET } from '../../../../common/catalog.js';
import type { EvaluationSplit, ModelStage } from '../../../../common/models.js';
import {
  outputQuantizationSchema,
  pixelContractSchema,
  thresholdsSchema,
  type OutputQuantization,
  type PixelContract,
  type Thresholds,
} from '../../../../common/schemas/models.js';
import type { TfliteFacts } from '../../../libraries/tflite/read-model.js';
import type { ScannerModelsTable } from '../../../db/types/models.js';
import { keptValues } from '../../../platform/cache/kept.js';
import { PHOTOS_STAMP, readStamps, recordsStamp, stampOfAll } from '../../../platform/cache/stamps.js';
import type { AppContext } from '../../../platform/http/context.js';
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
/** The column's text of outputQuantizationFrom. */
export const outputQuantizationColumn = (facts: TfliteFacts): string | null => {
  const q = outputQuantizationFrom(facts);
  return q ? JSON.stringify(q) : null;
};

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
  const digest = crypto.createHash('sha256');
  for (const [id, record] of pairs)
    digest.update(stage === 'plant' ? `${id}:${record}:${notRice.has(record) ? 'not-rice' : 'rice'}\n` : `${id}:${record}\n`);
  return { pairs, sha256: digest.digest('hex'), notRice };
}

/** Whether a plant check's photo set has photos of both verdicts to tell apart. */
export function bothVerdicts(set: { pairs: ReadonlyArray<[string, string]>; notRice: ReadonlySet<string> }): boolean {
  const notRice = set.pairs.filter(([, record]) => set.notRice.has(record)).length;
  return notRice > 0 && notRice < set.pairs.length;
}

/**
 * Whether an evaluation's result is (or, queued or running, will be) on the training set as it
 * is now: the photos it was given when queued are still the split's. A failed or cancelled one
 * has no result to be current.
 */
export async function evaluationIsCurrent(
  ctx: AppContext,
  stage: ModelStage,
  evaluation: { state: string; split: string; seed: string; photoSetSha256: string },
): Promise<boolean> {
  if (!['queued', 'running', 'done'].includes(evaluation.state)) return false;
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
