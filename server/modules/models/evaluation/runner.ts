import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { MODEL_LIMITS } from '../../../../common/models.js';
import { workerEntry } from '../../../db/read-workers.js';
import type { ModelPredictionsTable } from '../../../db/types/models.js';
import type { AppContext } from '../../../platform/http/context.js';
import { readStored } from '../../../platform/storage/stored-files.js';
import { isoIn, nowIso } from '../../../platform/support/clock.js';
import { photoReads } from '../../photos/repository/reads.js';
import { modelsRepository as repo } from '../repository.js';
import { contractOf, inputShapeOf, labelsOf, parseJson } from '../stored.js';
import { computeMetrics } from './metrics.js';
import type { ScoreReply, ScoreRequest } from './worker.js';

const TOPIC = 'scanner_models';

/** A LiteRT.js thread holding one model: score(photo bytes) gives its best outputs. */
class Scorer {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, { resolve(top: Array<[number, number]>): void; reject(err: Error): void }>();
  private next = 0;
  readonly ready: Promise<void>;

  constructor(setup: object) {
    const entry = workerEntry(new URL('./worker.js', import.meta.url));
    this.worker = new Worker(entry.code, { eval: entry.eval, workerData: setup, resourceLimits: { maxOldGenerationSizeMb: 256 } });
    this.ready = new Promise((resolve, reject) => {
      this.worker.on('message', (msg: ScoreReply) => {
        if ('ready' in msg) { resolve(); return; }
        if ('failed' in msg) { reject(new Error(msg.failed)); return; }
        const w = this.waiting.get(msg.id);
        if (!w) return;
        this.waiting.delete(msg.id);
        if ('error' in msg) w.reject(new Error(msg.error));
        else w.resolve(msg.top);
      });
      this.worker.on('error', (err: Error) => { reject(err); this.failAll(err); });
      this.worker.on('exit', (code) => { const err = new Error(`the evaluation thread stopped (${code})`); reject(err); this.failAll(err); });
    });
  }

  private failAll(err: Error) {
    for (const w of this.waiting.values()) w.reject(err);
    this.waiting.clear();
  }

  score(photo: Buffer): Promise<Array<[number, number]>> {
    const id = this.next++;
    const copy = new Uint8Array(photo.byteLength);
    copy.set(photo);
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, photo: copy } satisfies ScoreRequest, [copy.buffer]);
    });
  }

  async close() {
    await this.worker.terminate();
  }
}

/**
 * Runs queued evaluations, one at a time per instance, off the request path: an evaluation is
 * claimed in the database (so of several instances one runs it), its photos are read from
 * storage and scored on a LiteRT.js thread in the order fixed when it was queued, and each
 * batch of predictions is stored with the progress. An instance that stops is replaced: its
 * evaluation's heartbeat goes stale, another claims it and goes on from the stored
 * predictions. Cancelling is seen at the next batch.
 */
function createEvaluationRunner(ctx: AppContext) {
  let running: Promise<void> | null = null;
  let closed = false;
  let again = false;
  let scorer: Scorer | null = null;

  async function runOne(evaluationId: string): Promise<void> {
    const instance = ctx.config.instanceId;
    const evaluation = (await repo.findEvaluation(ctx.db, evaluationId))!;
    const model = await repo.find(ctx.db, evaluation.modelId);
    const finish = async (state: 'done' | 'failed' | 'cancelled', error: string | null, done: number) => {
      let accuracy = null;
      let macroF1 = null;
      if (state === 'done' && model) {
        const rows = await repo.predictions(ctx.db, evaluationId);
        const labels = labelsOf(model).map((l, index) => ({ index, label: l.label, recordId: l.recordId }));
        const m = computeMetrics(labels, rows.map((r) => ({ ...r, top: parseJson(r.top) })), new Map());
        accuracy = m.accuracy;
        macroF1 = m.macroF1;
      }
      await repo.finish(ctx.db, evaluationId, { state, error, done, accuracy, macroF1, finishedAt: nowIso() });
      ctx.events.publish({ topic: TOPIC, id: evaluation.modelId, op: 'update' });
    };
    if (!model) { await finish('failed', 'The model is gone.', 0); return; }

    const pairs = parseJson<Array<[string, string]>>(evaluation.photoIds);
    const scored = await repo.predictedIds(ctx.db, evaluationId);
    const todo = pairs.filter(([id]) => !scored.has(id));
    const keys = new Map((await photoReads.byIds(ctx.db, todo.map(([id]) => id))).map((p) => [p.id, p.originalKey]));
    const shape = inputShapeOf(model);
    try {
      scorer = new Scorer({
        model: new Uint8Array(await readStored(ctx.storage, model.fileKey)),
        contract: contractOf(model),
        input: { height: shape[1], width: shape[2], type: model.inputType === 'uint8' ? 'uint8' : 'float32' },
        outputType: 'float32',
        topK: MODEL_LIMITS.topK,
      });
      await scorer.ready;
    } catch (err) {
      ctx.log.error({ err, evaluationId }, 'model evaluation: the model could not be loaded');
      await finish('failed', `The model could not be loaded: ${(err as Error).message}`, scored.size);
      return;
    }
    let done = scored.size;
    let batch: ModelPredictionsTable[] = [];
    let skipped = 0;
    const flush = async (): Promise<boolean> => {
      await repo.insertPredictions(ctx.db, batch);
      done += batch.length;
      batch = [];
      const mine = await repo.beat(ctx.db, evaluationId, instance, done, nowIso());
      ctx.events.publish({ topic: TOPIC, id: evaluation.modelId, op: 'update' });
      return mine;
    };
    try {
      for (const [imageId, diseaseId] of todo) {
        if (closed) return;
        const key = keys.get(imageId);
        let top: Array<[number, number]> | null = null;
        const started = performance.now();
        if (key) {
          try {
            top = await scorer.score(await readStored(ctx.storage, key));
          } catch (err) {
            ctx.log.warn({ err, imageId, evaluationId }, 'model evaluation: a photo could not be scored');
          }
        }
        await sleep((performance.now() - started) * MODEL_LIMITS.restRatio);
        if (!top || top.length === 0) { skipped += 1; continue; }
        batch.push({ evaluationId, imageId, diseaseId, predicted: top[0]![0], confidence: top[0]![1], top: JSON.stringify(top) });
        if (batch.length >= MODEL_LIMITS.batch && !(await flush())) {
          const now = await repo.findEvaluation(ctx.db, evaluationId);
          if (now?.cancelRequested) await finish('cancelled', null, done);
          return;
        }
      }
      if (!(await flush())) {
        const now = await repo.findEvaluation(ctx.db, evaluationId);
        if (now?.cancelRequested) await finish('cancelled', null, done);
        return;
      }
      await finish('done', skipped > 0 ? `${skipped} photo(s) could not be read and were left out.` : null, done);
    } catch (err) {
      ctx.log.error({ err, evaluationId }, 'model evaluation failed');
      await finish('failed', (err as Error).message, done).catch(() => undefined);
    } finally {
      await scorer?.close();
      scorer = null;
    }
  }

  async function drain(): Promise<void> {
    do {
      again = false;
      for (;;) {
        if (closed) return;
        const id = await repo.claim(ctx.db, ctx.config.instanceId, nowIso(), isoIn(-MODEL_LIMITS.staleAfterMs));
        if (!id) break;
        await runOne(id);
      }
    } while (again && !closed);
  }

  return {
    /** Looks for queued work now (after a request queued some) and on the job's timer. */
    kick(): Promise<void> {
      if (running) { again = true; return running; }
      running = drain().finally(() => { running = null; });
      return running;
    },
    /** Resolves when nothing is running (tests and shutdown). */
    async idle(): Promise<void> {
      while (running) await running;
    },
    async close(): Promise<void> {
      closed = true;
      await scorer?.close();
      await running?.catch(() => undefined);
    },
  };
}

const runners = new WeakMap<AppContext, ReturnType<typeof createEvaluationRunner>>();

/** The evaluation runner of an app (one per app, so tests can wait for it). */
export function evaluationRunner(ctx: AppContext): ReturnType<typeof createEvaluationRunner> {
  let runner = runners.get(ctx);
  if (!runner) {
    runner = createEvaluationRunner(ctx);
    runners.set(ctx, runner);
  }
  return runner;
}
