import { Worker } from 'node:worker_threads';
import { workerEntry } from '../../../../db/read-workers.js';
import type { FileReaders } from '../../../../platform/parsing/file-readers.js';
import type { ScoreReply, ScoreRequest } from './worker.js';

/** The evaluation thread is gone (a crash, out of memory, a photo that never finished): the evaluation cannot go on here. */
export class ThreadLost extends Error {}

/**
 * What a model may cost its thread: loading it, scoring one photo, and the WebAssembly memory
 * LiteRT may grow to (outside the thread's JavaScript heap, so capped in the thread itself).
 */
export interface ScorerLimits {
  loadMs: number;
  scoreMs: number;
  wasmMemoryMb: number;
}
export const SCORER_LIMITS: ScorerLimits = { loadMs: 60_000, scoreMs: 30_000, wasmMemoryMb: 1024 };

const duration = (ms: number) => (ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} seconds`);

/** A LiteRT.js thread holding one model: score(photo bytes) gives its best outputs. */
export class Scorer {
  private readonly worker: Worker;
  private readonly waiting = new Map<
    number,
    { resolve(top: Array<[number, number]>): void; reject(err: Error): void; timer: NodeJS.Timeout }
  >();
  private next = 0;
  private dead: Error | null = null;
  readonly ready: Promise<void>;

  constructor(
    setup: object,
    private readonly limits: ScorerLimits = SCORER_LIMITS,
  ) {
    const entry = workerEntry(new URL('./worker.js', import.meta.url));
    this.worker = new Worker(entry.code, {
      eval: entry.eval,
      workerData: { ...setup, wasmMemoryMb: limits.wasmMemoryMb },
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    });
    this.ready = new Promise((resolve, reject) => {
      const loading = setTimeout(() => this.lose(new Error(`the model did not load within ${duration(limits.loadMs)}`)), limits.loadMs);
      // The thread itself keeps the process alive while it loads; its timer need not.
      loading.unref();
      const settle = (err: Error | null) => {
        clearTimeout(loading);
        if (err) reject(err);
        else resolve();
      };
      this.worker.on('message', (msg: ScoreReply) => {
        if ('ready' in msg) {
          settle(null);
          return;
        }
        if ('failed' in msg) {
          settle(new Error(msg.failed));
          return;
        }
        const w = this.waiting.get(msg.id);
        if (!w) return;
        this.waiting.delete(msg.id);
        clearTimeout(w.timer);
        if ('error' in msg) w.reject(new Error(msg.error));
        else w.resolve(msg.top);
      });
      this.worker.on('error', (err: Error) => {
        this.dead ??= err;
        settle(err);
        this.failAll(err);
      });
      this.worker.on('exit', (code) => {
        const err = this.dead ?? new Error(`the evaluation thread stopped (${code})`);
        this.dead ??= err;
        settle(err);
        this.failAll(err);
      });
    });
  }

  /** Ends the thread for `err`: whatever waits on it is told why. */
  private lose(err: Error) {
    this.dead ??= err;
    void this.worker.terminate();
  }

  private failAll(err: Error) {
    for (const w of this.waiting.values()) {
      clearTimeout(w.timer);
      w.reject(new ThreadLost(err.message));
    }
    this.waiting.clear();
  }

  score(photo: Buffer): Promise<Array<[number, number]>> {
    if (this.dead) return Promise.reject(new ThreadLost(this.dead.message));
    const id = this.next++;
    const copy = new Uint8Array(photo.byteLength);
    copy.set(photo);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => this.lose(new Error(`the model did not score a photo within ${duration(this.limits.scoreMs)}`)),
        this.limits.scoreMs,
      );
      this.waiting.set(id, { resolve, reject, timer });
      this.worker.postMessage({ id, photo: copy } satisfies ScoreRequest, [copy.buffer]);
    });
  }

  async close() {
    await this.worker.terminate();
  }
}

/**
 * Whether LiteRT.js loads and compiles a model file, on a thread of its own counted among the
 * file readers (Check file and an upload both ask): the file passed the reader's checks, but
 * only the runtime knows every operator. The reason when it does not (or takes too long).
 */
export async function loadProblem(
  files: FileReaders,
  bytes: Uint8Array,
  input: { height: number; width: number; type: 'float32' | 'uint8' },
  limits: ScorerLimits = SCORER_LIMITS,
): Promise<string | null> {
  return files.slot('file', async () => {
    const scorer = new Scorer(
      { model: bytes, contract: { scaling: '0-1', mean: null, std: null, resize: 'stretch' }, input, topK: 1 },
      limits,
    );
    try {
      await scorer.ready;
      return null;
    } catch (err) {
      return (err as Error).message;
    } finally {
      await scorer.close();
    }
  });
}
