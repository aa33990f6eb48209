import { Worker } from 'node:worker_threads';
import { workerEntry } from '../../../db/read-workers.js';
import type { ScoreReply, ScoreRequest } from './worker.js';

/** The evaluation thread is gone (a crash, out of memory): the evaluation cannot go on here. */
export class ThreadLost extends Error {}

/** A LiteRT.js thread holding one model: score(photo bytes) gives its best outputs. */
export class Scorer {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, { resolve(top: Array<[number, number]>): void; reject(err: Error): void }>();
  private next = 0;
  private dead: Error | null = null;
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
      this.worker.on('error', (err: Error) => { this.dead = err; reject(err); this.failAll(err); });
      this.worker.on('exit', (code) => { const err = new Error(`the evaluation thread stopped (${code})`); this.dead ??= err; reject(err); this.failAll(err); });
    });
  }

  private failAll(err: Error) {
    for (const w of this.waiting.values()) w.reject(new ThreadLost(err.message));
    this.waiting.clear();
  }

  score(photo: Buffer): Promise<Array<[number, number]>> {
    if (this.dead) return Promise.reject(new ThreadLost(this.dead.message));
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
 * Whether LiteRT.js loads and compiles a model file, on a thread of its own: the file passed the
 * reader's checks, but only the runtime knows every operator. The reason when it does not.
 */
export async function loadProblem(bytes: Uint8Array, input: { height: number; width: number; type: 'float32' | 'uint8' }): Promise<string | null> {
  const scorer = new Scorer({ model: bytes, contract: { scaling: '0-1', mean: null, std: null, resize: 'stretch' }, input, topK: 1 });
  try {
    await scorer.ready;
    return null;
  } catch (err) {
    return (err as Error).message;
  } finally {
    await scorer.close();
  }
}
