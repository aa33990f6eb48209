import type { Kysely, Transaction } from 'kysely';
import {
  FEW_PHOTOS_BELOW,
  MODEL_LIMITS,
  MODEL_TEXTS,
  THRESHOLD_MARGINS,
  PLANT_VERDICTS,
  type EvaluationSplit,
  type ModelStage,
} from '../../../../../common/models.js';
import type { Database } from '../../../../db/types.js';
import type { ScannerModelsTable } from '../../../../db/types/models.js';
import type { EvaluationReport, PredictionPhoto } from '../../../../../common/schemas/models.js';
import type { AppContext } from '../../../../platform/http/context.js';
import { fail } from '../../../../platform/http/errors.js';
import { csvFileText } from '../../../../platform/spreadsheets/csv-file.js';
import { photoFilesOf } from './photo-files.js';
import { modelsRepository as repo } from '../repository.js';
import { evaluationIsCurrent, setOf, labelsOf, parseJson, thresholdsOf } from '../stored.js';
import {
  asVerdicts,
  atThreshold,
  calibration,
  isVerdictClass,
  verdictClass,
  computeMetrics,
  coverageCurve,
  recommendThresholds,
  thresholdGrid,
  isRight,
  predictedKey,
  recordKey,
  weakestClass,
  weakestFirst,
  type LabelMeaning,
  type ScoredPhoto,
} from './metrics.js';

const PREDICTION_COLUMNS = [
  'image_id',
  'disease_id',
  'disease_name',
  'predicted_label',
  'predicted_record_id',
  'confidence',
  'correct',
  'top_2_label',
  'top_2_confidence',
  'top_3_label',
  'top_3_confidence',
];

/** A model's labels with what they mean, and an evaluation's stored predictions (a plant check's as verdicts). */
async function scored(db: Kysely<Database> | Transaction<Database>, model: ScannerModelsTable, evaluationId: string) {
  const stored = labelsOf(model);
  const photos: ScoredPhoto[] = (await repo.predictions(db, evaluationId)).map((r) => ({ ...r, top: parseJson(r.top) }));
  if (model.stage === 'plant') return asVerdicts(stored, photos, await repo.notRicePlantIds(db));
  const labels: LabelMeaning[] = stored.map((l, index) => ({ index, label: l.label, recordId: l.recordId }));
  return { labels, photos };
}

/** A class's record for the report: none for a plant check's verdicts. */
const recordOf = (id: string | null) => (isVerdictClass(id) ? null : id);

/** An evaluation's accuracy and macro-F1 under the model's current label mapping. */
export async function metricsOf(db: Kysely<Database> | Transaction<Database>, model: ScannerModelsTable, evaluationId: string) {
  const { labels, photos } = await scored(db, model, evaluationId);
  return computeMetrics(labels, photos, new Map());
}

/** An evaluation's report, its cells' photos and its CSV: all read from the stored predictions. */
export function createEvaluationReports(ctx: AppContext) {
  async function load(modelId: string, evaluationId: string) {
    const evaluation = await repo.findEvaluation(ctx.db, evaluationId);
    if (!evaluation || evaluation.modelId !== modelId) fail('NOT_FOUND');
    const model = (await repo.find(ctx.db, modelId))!;
    const { labels, photos } = await scored(ctx.db, model, evaluationId);
    const ids = new Set<string>([
      ...photos.map((p) => p.sourceId ?? p.diseaseId),
      ...labels.map((l) => l.recordId).filter((x): x is string => !!x && !isVerdictClass(x)),
    ]);
    const names = new Map((await repo.recordNames(ctx.db, [...ids])).map((r) => [r.id, r.name]));
    for (const v of PLANT_VERDICTS) names.set(verdictClass(v), MODEL_TEXTS.verdict[v]);
    return { evaluation, model, labels, photos, names };
  }

  /** The live model's finished evaluation on the same photos, when another model is live. */
  async function liveComparison(stage: string, modelId: string, photoSetSha256: string) {
    const [live] = await repo.channelHistory(ctx.db, stage, 'live', 1);
    if (!live?.modelId || live.modelId === modelId) return null;
    const evaluation = await repo.doneOnPhotoSet(ctx.db, live.modelId, photoSetSha256);
    if (!evaluation) return null;
    const model = (await repo.find(ctx.db, live.modelId))!;
    return { model, evaluation, ...(await scored(ctx.db, model, evaluation.id)) };
  }

  const verdictName = (labels: readonly LabelMeaning[], names: ReadonlyMap<string, string>, index: number) => {
    const l = labels[index];
    return l?.recordId ? (names.get(l.recordId) ?? l.label) : (l?.label ?? `#${index}`);
  };

  return {
    async report(modelId: string, evaluationId: string): Promise<EvaluationReport> {
      const { evaluation, model, labels, photos, names } = await load(modelId, evaluationId);
      const m = computeMetrics(labels, photos, names);
      const thresholds = thresholdsOf(model);
      const live = evaluation.state === 'done' ? await liveComparison(model.stage, model.id, evaluation.photoSetSha256) : null;
      const liveMetrics = live ? computeMetrics(live.labels, live.photos, names) : null;
      const liveByKey = new Map(liveMetrics?.perClass.map((c) => [c.key, c]) ?? []);
      let fixed = 0;
      let broken = 0;
      if (live) {
        const there = new Map(live.photos.map((p) => [p.imageId, isRight(live.labels, p)]));
        for (const p of photos) {
          const before = there.get(p.imageId);
          if (before === undefined) continue;
          const now = isRight(labels, p);
          if (now && !before) fixed += 1;
          if (!now && before) broken += 1;
        }
      }
      const labelOfKey = new Map<string, LabelMeaning>();
      for (const l of labels) labelOfKey.set(l.recordId ? recordKey(l.recordId) : `label:${l.index}`, l);
      const perClass = weakestFirst(
        m.perClass.map((c, i) => {
          const theirs = liveByKey.get(c.key);
          const delta = (a: number | null, b: number | null | undefined) =>
            live && a !== null && b !== null && b !== undefined ? a - b : null;
          return {
            key: c.key,
            index: labelOfKey.get(c.key)?.index ?? -1,
            label: labelOfKey.get(c.key)?.label ?? '',
            recordId: recordOf(m.classes[i]!.recordId),
            name: m.classes[i]!.name,
            precision: c.precision,
            recall: c.recall,
            f1: c.f1,
            support: c.support,
            fewPhotos: c.support < FEW_PHOTOS_BELOW,
            f1Delta: delta(c.f1, theirs?.f1),
            recallDelta: delta(c.recall, theirs?.recall),
          };
        }),
      );
      return {
        evaluation: {
          id: evaluation.id,
          state: evaluation.state as EvaluationReport['evaluation']['state'],
          split: evaluation.split as EvaluationSplit,
          seed: evaluation.seed,
          total: evaluation.total,
          done: evaluation.done,
          accuracy: m.accuracy,
          macroF1: m.macroF1,
          current: await evaluationIsCurrent(ctx, model.stage as ModelStage, evaluation),
          evaluationSet: setOf(evaluation),
          error: evaluation.error,
          createdAt: evaluation.createdAt,
          finishedAt: evaluation.finishedAt,
          modelId: model.id,
          version: model.version,
          sha256: model.sha256,
          photoSetSha256: evaluation.photoSetSha256,
          ratios: parseJson(evaluation.ratios),
        },
        classes: m.classes.map((c) => ({ ...c, recordId: recordOf(c.recordId) })),
        matrix: m.matrix,
        perClass,
        weakest: weakestClass(perClass)?.key ?? null,
        accuracy: m.accuracy,
        macroF1: m.macroF1,
        coverage: coverageCurve(labels, photos, thresholds.margin),
        threshold: thresholds.confidence,
        atThreshold: atThreshold(labels, photos, thresholds.confidence, thresholds.margin),
        calibration: calibration(labels, photos),
        recommended: {
          target: ctx.config.modelTargetAccuracy,
          thresholds: recommendThresholds(labels, photos, ctx.config.modelTargetAccuracy),
        },
        thresholdGrid: thresholdGrid(labels, photos, [...THRESHOLD_MARGINS, thresholds.margin]).map((g) => ({
          margin: g.margin,
          points: g.points.map((p) => ({ coverage: p.coverage, accuracy: p.accuracy })),
        })),
        comparison:
          live && liveMetrics
            ? {
                version: live.model.version,
                evaluationId: live.evaluation.id,
                accuracy: liveMetrics.accuracy,
                macroF1: liveMetrics.macroF1,
                fixed,
                broken,
              }
            : null,
      };
    },

    /** The photos of one confusion-matrix cell, or those whose verdict differs from the live model's. */
    async photos(
      modelId: string,
      evaluationId: string,
      q: { actual?: string | undefined; predicted?: string | undefined; changed?: 'fixed' | 'broken' | 'changed' | undefined },
    ) {
      const { evaluation, model, labels, photos, names } = await load(modelId, evaluationId);
      const live = q.changed ? await liveComparison(model.stage, model.id, evaluation.photoSetSha256) : null;
      const theirs = new Map(live?.photos.map((p) => [p.imageId, p]) ?? []);
      const chosen = photos.filter((p) => {
        if (q.actual && recordKey(p.diseaseId) !== q.actual) return false;
        if (q.predicted && predictedKey(labels, p.predicted) !== q.predicted) return false;
        if (q.changed) {
          const other = theirs.get(p.imageId);
          if (!other || !live) return false;
          const now = isRight(labels, p);
          const before = isRight(live.labels, other);
          if (q.changed === 'fixed' && !(now && !before)) return false;
          if (q.changed === 'broken' && !(!now && before)) return false;
          if (q.changed === 'changed' && predictedKey(labels, p.predicted) === predictedKey(live.labels, other.predicted)) return false;
        }
        return true;
      });
      const shown = chosen.slice(0, MODEL_LIMITS.cellPhotos);
      const files = await photoFilesOf(
        ctx,
        evaluation,
        shown.map((p) => p.imageId),
      );
      const out: PredictionPhoto[] = shown.map((p) => {
        const other = theirs.get(p.imageId);
        return {
          imageId: p.imageId,
          diseaseId: p.sourceId ?? p.diseaseId,
          diseaseName: names.get(p.sourceId ?? p.diseaseId) ?? p.diseaseId,
          thumbUrl: files.get(p.imageId)?.thumbUrl ?? null,
          predicted: verdictName(labels, names, p.predicted),
          confidence: p.confidence,
          top: p.top.map(([index, confidence]) => ({ label: verdictName(labels, names, index), confidence })),
          liveVerdict: other && live ? verdictName(live.labels, names, other.predicted) : null,
        };
      });
      return { photos: out, total: chosen.length };
    },

    async csv(modelId: string, evaluationId: string): Promise<{ text: string; fileName: string }> {
      const { model, labels, photos, names } = await load(modelId, evaluationId);
      const label = (i: number | undefined) => (i === undefined ? null : (labels[i]?.label ?? null));
      const rows = photos.map((p) => [
        p.imageId,
        p.sourceId ?? p.diseaseId,
        names.get(p.sourceId ?? p.diseaseId) ?? null,
        label(p.predicted),
        recordOf(labels[p.predicted]?.recordId ?? null),
        p.confidence,
        isRight(labels, p) ? 'yes' : 'no',
        label(p.top[1]?.[0]),
        p.top[1]?.[1] ?? null,
        label(p.top[2]?.[0]),
        p.top[2]?.[1] ?? null,
      ]);
      return {
        text: await csvFileText(PREDICTION_COLUMNS, rows),
        fileName: `predictions-${model.version}-${evaluationId.slice(0, 8)}.csv`,
      };
    },
  };
}
