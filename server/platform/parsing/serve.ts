import v8 from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { AppError } from '../http/errors.js';

/** A reader's tasks: each takes values that survive a structured clone and returns one. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ReadTasks = Record<string, (...args: any[]) => unknown>;

export interface ReadRequest {
  task: string;
  args: readonly unknown[];
}
type ReadError = {
  message: string;
  stack?: string;
  app?: { code: string; fields?: Record<string, string>; extra?: Record<string, unknown> };
};
/** The answer, with the heap the thread holds after it: a thread grown large is not kept. */
export type ReadReply = ({ result: unknown } | { error: ReadError }) & { heapBytes: number };

/**
 * In a reader's worker entry: answers file-readers.ts's requests with `tasks`, one at a time.
 * An AppError (a refusal naming what to fix) crosses as itself; any other error as its message.
 */
export function serveFileReads(tasks: ReadTasks): void {
  if (!parentPort) throw new Error('serveFileReads runs in a worker thread');
  const port = parentPort;
  port.on('message', async ({ task, args }: ReadRequest) => {
    let reply: { result: unknown } | { error: ReadError };
    try {
      const run = tasks[task];
      if (!run) throw new Error(`no file reader task ${task}`);
      reply = { result: await run(...args) };
    } catch (err) {
      const e = err as Error;
      const app =
        err instanceof AppError
          ? { code: err.code, ...(err.fields ? { fields: err.fields } : {}), ...(err.extra ? { extra: err.extra } : {}) }
          : null;
      reply = {
        error: {
          message: e?.message ?? String(err),
          ...(e?.stack ? { stack: e.stack } : {}),
          ...(app ? { app } : {}),
        },
      };
    }
    port.postMessage({ ...reply, heapBytes: v8.getHeapStatistics().total_heap_size } satisfies ReadReply);
  });
  // Loaded: the file's time limit starts now (file-readers.ts).
  port.postMessage({ ready: true });
}
