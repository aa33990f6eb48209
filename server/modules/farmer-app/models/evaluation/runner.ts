import { setTimeout as sleep } from 'node:timers/promises';
import { MODEL_LIMITS, MODEL_TEXTS } from '../../../../../common/models.js';
import { outageOf } from '../../../../platform/http/outages.js';
import type { ModelEvaluationsTable, ModelPredictionsTable, ScannerModelsTable } from '../../../../db/types/models.js';
import { every } from '../../../../platform/background/jobs.js';
import { createRunner } from '../../../../platform/background/runner.js';
import { appContext, type AppContext } from '../../../../platform/http/context.js';
import { readStored } from '../../../../platform/storage/stored-files.js';
import { nowIso } from '../../../../platform/support/clock.js';
import { modelsRepository as repo } from '../repository.js';
import { contractOf, contractSha256, inputShapeOf, outputQuantizationOf, parseJson } from '../stored.js';
import { photoFilesOf } from './photo-files.js';
import { makeTestVectors, testVectorCandidates } from './test-vectors.js';
import { metricsOf } from './report.js';
import { Scorer, ThreadLost } from './scorer.js';

const TOPIC = 'scanner_models';

/**
 * Runs queued evaluations, one at a time per instance, off the request path: an evaluation is
 * claimed in the database (so of several instances one runs it), its photos are read from
 * storage and scored on a LiteRT.js thread in the order fixed when it was queued, and each
 * batch of predictions is stored with the progress. An instance that stops is replaced: its
 * evaluation's heartbeat goes stale, another claims it and goes on from the stored
 * predictions. Cancelling is seen at the next batch.
 */
function createEvaluationRunner(ctx: AppContext) {
  let scorer: Scorer | null = null;

  /** Gives an evaluation back to the queue (storage is down): it goes on from its stored predictions later. */
  async function release(evaluationId: string, reason: unknown) {
    ctx.log.warn({ err: reason, evaluationId }, 'model evaluation paused: storage did not answer; it goes on later');
    await repo.release(ctx.db, evaluationId, ctx.config.instanceId);
  }

  /** The farmer app's test vectors from a finished evaluation's photos; a photo that cannot be read is passed over. */
  async function keepTestVectors(model: ScannerModelsTable, evaluation: ModelEvaluationsTable, with_: Scorer): Promise<void> {
    const evaluationId = evaluation.id;
    try {
      const predictions = (await repo.predictions(ctx.db, evaluationId)).map((p) => ({
        ...p,
        top: parseJson<Array<[number, number]>>(p.top),
      }));
      const shape = inputShapeOf(model);
      const candidates = testVectorCandidates(predictions);
      const files = await photoFilesOf(
        ctx,
        evaluation,
        candidates.map((p) => p.imageId),
      );
      const vectors = await makeTestVectors(
        candidates,
        async (imageId) => {
          const key = files.get(imageId)?.originalKey;
          return key ? readStored(ctx.storage, key).catch(() => null) : null;
        },
        contractOf(model),
        { height: shape[1]!, width: shape[2]! },
        (jpeg) => with_.score(jpeg),
      );
      await repo.setTestVectors(ctx.db, model.id, model.contract, JSON.stringify(vectors));
    } catch (err) {
      if (err instanceof ThreadLost) throw err;
      ctx.log.warn({ err, evaluationId }, 'model evaluation: the test vectors could not be made');
    }
  }

  async function runOne(evaluationId: string, closed: () => boolean): Promise<'next' | 'later'> {
    const instance = ctx.config.instanceId;
    const evaluation = (await repo.findEvaluation(ctx.db, evaluationId))!;
    const model = await repo.find(ctx.db, evaluation.modelId);
    const finish = async (state: 'done' | 'failed' | 'cancelled', error: string | null, done: number) => {
      let accuracy = null;
      let macroF1 = null;
      if (state === 'done' && model) {
        const m = await metricsOf(ctx.db, model, evaluationId);
        accuracy = m.accuracy;
        macroF1 = m.macroF1;
      }
      await repo.finish(ctx.db, evaluationId, { state, error, done, accuracy, macroF1, finishedAt: nowIso() });
      ctx.events.publish({ topic: TOPIC, id: evaluation.modelId, op: 'update' });
    };
    if (!model) {
      await finish('failed', MODEL_TEXTS.evaluationFailed.modelGone, 0);
      return 'next';
    }
    if (evaluation.cancelRequested) {
      await finish('cancelled', null, evaluation.done);
      return 'next';
    }

    const pairs = parseJson<Array<[string, string]>>(evaluation.photoIds);
    const scored = await repo.predictedIds(ctx.db, evaluationId);
    const todo = pairs.filter(([id]) => !scored.has(id));
    const files = await photoFilesOf(
      ctx,
      evaluation,
      todo.map(([id]) => id),
    );
    const shape = inputShapeOf(model);
    let bytes: Buffer;
    try {
      bytes = await readStored(ctx.storage, model.fileKey);
    } catch (err) {
      await release(evaluationId, err);
      return 'later';
    }
    try {
      scorer = new Scorer({
        model: new Uint8Array(bytes),
        contract: contractOf(model),
        input: { height: shape[1], width: shape[2], type: model.inputType === 'uint8' ? 'uint8' : 'float32' },
        output: outputQuantizationOf(model),
        topK: MODEL_LIMITS.topK,
      });
      await scorer.ready;
    } catch (err) {
      ctx.log.error({ err, evaluationId }, 'model evaluation: the model could not be loaded');
      await finish('failed', MODEL_TEXTS.evaluationFailed.load((err as Error).message), scored.size);
      await scorer?.close();
      scorer = null;
      return 'next';
    }
    let done = scored.size;
    let batch: ModelPredictionsTable[] = [];
    let skipped = 0;
    // The heartbeat goes on its own timer, so a slow model never looks abandoned between batches.
    let lost = false;
    const stopBeating = every(MODEL_LIMITS.heartbeatMs, () => {
      void repo.beat(ctx.db, evaluationId, instance, done, nowIso()).then(
        (mine) => {
          if (!mine) lost = true;
        },
        () => undefined,
      );
    });
    const flush = async (): Promise<boolean> => {
      await repo.insertPredictions(ctx.db, batch);
      done += batch.length;
      batch = [];
      const mine = await repo.beat(ctx.db, evaluationId, instance, done, nowIso());
      ctx.events.publish({ topic: TOPIC, id: evaluation.modelId, op: 'update' });
      return mine && !lost;
    };
    const stopped = async () => {
      const now = await repo.findEvaluation(ctx.db, evaluationId);
      if (now?.cancelRequested) await finish('cancelled', null, done);
    };
    try {
      for (const [imageId, diseaseId] of todo) {
        if (closed()) return 'later';
        const key = files.get(imageId)?.originalKey;
        let top: Array<[number, number]> | null = null;
        const started = performance.now();
        if (key) {
          let photo: Buffer | null = null;
          try {
            photo = await readStored(ctx.storage, key);
          } catch (err) {
            if (outageOf(err)) {
              await flush();
              await release(evaluationId, err);
              return 'later';
            }
            ctx.log.warn({ err, imageId, evaluationId }, 'model evaluation: a stored photo could not be read');
          }
          if (photo) {
            try {
              top = await scorer.score(photo);
            } catch (err) {
              if (err instanceof ThreadLost) throw err;
              ctx.log.warn({ err, imageId, evaluationId }, 'model evaluation: a photo could not be scored');
            }
          }
        }
        await sleep((performance.now() - started) * MODEL_LIMITS.restRatio);
        if (!top || top.length === 0) {
          skipped += 1;
          continue;
        }
        batch.push({ evaluationId, imageId, diseaseId, predicted: top[0]![0], confidence: top[0]![1], top: JSON.stringify(top) });
        if (batch.length >= MODEL_LIMITS.batch && !(await flush())) {
          await stopped();
          return 'next';
        }
      }
      if (!(await flush())) {
        await stopped();
        return 'next';
      }
      // Scores of only some of the photos are not the model's scores on the set.
      const allowed = Math.floor(pairs.length * MODEL_LIMITS.maxSkippedShare);
      if (done === 0 || skipped > allowed) await finish('failed', MODEL_TEXTS.evaluationFailed.skipped(skipped, pairs.length), done);
      else {
        if (evaluation.contractSha256 === contractSha256(model)) await keepTestVectors(model, evaluation, scorer);
        await finish('done', skipped > 0 ? MODEL_TEXTS.evaluationFailed.someSkipped(skipped) : null, done);
      }
      return 'next';
    } catch (err) {
      ctx.log.error({ err, evaluationId }, 'model evaluation failed');
      if (outageOf(err)) {
        await release(evaluationId, err).catch(() => undefined);
        return 'later';
      }
      await finish('failed', (err as Error).message, done).catch(() => undefined);
      return 'next';
    } finally {
      stopBeating();
      await scorer?.close();
      scorer = null;
    }
  }

  /** A round: evaluations claimed and run one after another until none is queued (or storage is down). */
  async function round(closed: () => boolean): Promise<void> {
    while (!closed()) {
      const id = await repo.claim(ctx.db, ctx.config.instanceId);
      if (!id || (await runOne(id, closed)) === 'later') return;
    }
  }

  const runner = createRunner({
    round,
    // A failed look (the database down) is logged; the job's timer looks again.
    onError: (err) => ctx.log.error({ err }, 'model evaluations: the queue could not be read'),
  });
  return {
    /** Looks for queued work now (after a request queued some) and on the job's timer. */
    kick: runner.kick,
    idle: runner.idle,
    async close(): Promise<void> {
      const closing = runner.close();
      await scorer?.close();
      await closing;
    },
  };
}

const runners = new WeakMap<AppContext, ReturnType<typeof createEvaluationRunner>>();

/** The evaluation runner of an app (one per app, so tests can wait for it). */
export function evaluationRunner(ctx: AppContext): ReturnType<typeof createEvaluationRunner> {
  const app = appContext(ctx);
  let runner = runners.get(app);
  if (!runner) {
    runner = createEvaluationRunner(app);
    runners.set(app, runner);
  }
  return runner;
}
