import { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import { FILE_READ_TEXTS } from '../../../common/texts.js';
import { workerEntry } from '../../db/read-workers.js';
import { AppError, type ErrorCode } from '../http/errors.js';
import type { ReadReply, ReadRequest, ReadTasks } from './serve.js';

/**
 * Uploaded files (spreadsheets, translators' files, scanner models and labels, the Firebase
 * export) are parsed here, never on the server's own thread: in a worker thread with
 * a memory cap (`resourceLimits`), a time limit after which the thread is ended, and a bound on
 * how many run at once in this instance. A file that takes too long or too much memory, or that
 * stops its reader, costs its own request a 422 naming the file; a request beyond the bound and
 * its small queue a 503 with Retry-After. The server's thread only waits for the answer.
 *
 * A reader is a worker entry (a file calling `serveFileReads` with its tasks, see serve.ts),
 * named by its URL; `readerOf<typeof tasks>(url)` gives a typed handle to it.
 */
export interface FileReaderLimits {
  /** FILE_READERS: files parsed at once in this instance. */
  concurrency: number;
  /** Requests that may wait for a reader beyond those; more are refused with 503. */
  queue: number;
  /** FILE_READ_TIME_LIMIT_MS: one file's parse, from the moment its thread (started and ready) takes it. */
  timeLimitMs: number;
  /** FILE_READ_MEMORY_MB: the thread's JavaScript heap (old generation). */
  memoryMb: number;
}

export interface ReadOptions {
  /** The request's field the file came in ('file', 'labels'): the refusal names it. */
  field: string;
  /** Another cap and limit than the uploads' (an operator's command reading a whole export). */
  memoryMb?: number;
  timeLimitMs?: number;
}

export interface FileReaders {
  run<R>(entry: URL, task: string, args: readonly unknown[], options: ReadOptions): Promise<R>;
  /** Work on a thread of its own (the model runtime loading a file) counted in the same bound. */
  slot<T>(field: string, work: () => Promise<T>): Promise<T>;
  /** Threads busy and requests waiting now. */
  load(): { running: number; waiting: number };
  close(): Promise<void>;
}

/** A reader entry's tasks, as its worker file declares them, called by name with their own types. */
export interface Reader<T extends ReadTasks> {
  run<K extends keyof T & string>(
    readers: FileReaders,
    task: K,
    args: Parameters<T[K]>,
    options: ReadOptions,
  ): Promise<Awaited<ReturnType<T[K]>>>;
}

export function readerOf<T extends ReadTasks>(entry: URL): Reader<T> {
  return { run: (readers, task, args, options) => readers.run(entry, task, args, options) };
}

/** A thread kept for the next file of its entry: one idle at most per entry, ended after a while. */
const IDLE_MS = 30_000;
/** A thread whose heap grew past this on a file is ended rather than kept. */
const RECYCLE_HEAP_BYTES = 48 * 1024 * 1024;
const BUSY_RETRY_SECONDS = 5;
/** A new reader thread loading its modules. */
const START_LIMIT_MS = 60_000;

interface Slot {
  worker: Worker;
  entry: string;
  idleTimer: NodeJS.Timeout | null;
  ready: boolean;
}
interface Waiter {
  start(): void;
  cancel(): void;
}

type Ending = { kind: 'reply'; reply: ReadReply } | { kind: 'timeout' } | { kind: 'memory' } | { kind: 'stopped'; cause: string };

function refusal(code: ErrorCode, message: string, field: string, extra?: Record<string, unknown>): AppError {
  return new AppError(code, message, { [field]: message }, extra);
}

const busyRefusal = (field: string) => refusal('FILE_READERS_BUSY', FILE_READ_TEXTS.busy, field, { retryAfterSeconds: BUSY_RETRY_SECONDS });

export function createFileReaders(limits: FileReaderLimits, log: FastifyBaseLogger): FileReaders {
  const idle = new Map<string, Slot>();
  const waiting: Waiter[] = [];
  const busy = new Set<Worker>();
  let running = 0;
  let closed = false;

  const spawn = (entry: URL, memoryMb: number, key: string): Slot => {
    const code = workerEntry(entry);
    const worker = new Worker(code.code, {
      eval: code.eval,
      resourceLimits: { maxOldGenerationSizeMb: memoryMb, maxYoungGenerationSizeMb: 8, stackSizeMb: 4 },
      // The thread's own output is the server's; nothing a parser prints is needed.
      stdout: false,
      stderr: false,
    });
    const slot: Slot = { worker, entry: key, idleTimer: null, ready: false };
    // Always heard: a thread that fails while no file is on it (idle, or ended after its time)
    // would otherwise be an unhandled error of the server's own process.
    worker.on('error', (err) => log.warn({ err, entry: entry.pathname }, 'a file reader thread stopped'));
    worker.once('exit', () => {
      if (idle.get(key) === slot) idle.delete(key);
      if (slot.idleTimer) clearTimeout(slot.idleTimer);
    });
    return slot;
  };

  /** An idle thread of this entry and cap, or a new one. */
  const take = (entry: URL, memoryMb: number): Slot => {
    const key = `${entry.href}#${memoryMb}`;
    const kept = idle.get(key);
    if (kept) {
      idle.delete(key);
      if (kept.idleTimer) clearTimeout(kept.idleTimer);
      kept.idleTimer = null;
      return kept;
    }
    return spawn(entry, memoryMb, key);
  };

  const keep = (slot: Slot) => {
    if (closed || idle.has(slot.entry)) {
      void slot.worker.terminate();
      return;
    }
    slot.worker.unref();
    slot.idleTimer = setTimeout(() => {
      if (idle.get(slot.entry) === slot) idle.delete(slot.entry);
      void slot.worker.terminate();
    }, IDLE_MS);
    slot.idleTimer.unref();
    idle.set(slot.entry, slot);
  };

  const acquire = (field: string): Promise<void> => {
    if (running < limits.concurrency) {
      running += 1;
      return Promise.resolve();
    }
    if (waiting.length >= limits.queue) return Promise.reject(busyRefusal(field));
    return new Promise((resolve, reject) => {
      waiting.push({
        start: () => {
          running += 1;
          resolve();
        },
        cancel: () => reject(busyRefusal(field)),
      });
    });
  };

  const release = () => {
    running -= 1;
    const next = waiting.shift();
    if (next) next.start();
  };

  /**
   * The file on its thread. A new thread first says it is ready (its modules loaded): the time
   * limit counts from then, so a cold start (or compiling TypeScript in development) is not the
   * file's time; the start itself has a limit of its own.
   */
  const runOn = (slot: Slot, task: string, args: readonly unknown[], timeLimitMs: number) =>
    new Promise<Ending>((resolve) => {
      const { worker } = slot;
      let done = false;
      let timer: NodeJS.Timeout | undefined;
      const finish = (ending: Ending) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        resolve(ending);
      };
      const send = () => {
        timer = setTimeout(() => finish({ kind: 'timeout' }), timeLimitMs);
        try {
          worker.postMessage({ task, args } satisfies ReadRequest);
        } catch (err) {
          finish({ kind: 'stopped', cause: `the file could not be handed to its reader: ${(err as Error).message}` });
        }
      };
      const onMessage = (reply: ReadReply | { ready: true }) => {
        if ('ready' in reply) {
          slot.ready = true;
          clearTimeout(timer);
          send();
          return;
        }
        finish({ kind: 'reply', reply });
      };
      const onError = (err: Error & { code?: string }) =>
        finish(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? { kind: 'memory' } : { kind: 'stopped', cause: err.message });
      const onExit = (code: number) => finish({ kind: 'stopped', cause: `the reader exited (${code})` });
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.ref();
      if (slot.ready) send();
      else timer = setTimeout(() => finish({ kind: 'stopped', cause: 'the reader did not start' }), START_LIMIT_MS);
    });

  return {
    async run<R>(entry: URL, task: string, args: readonly unknown[], options: ReadOptions): Promise<R> {
      if (closed) throw busyRefusal(options.field);
      await acquire(options.field);
      let slot: Slot | null = null;
      try {
        const timeLimitMs = options.timeLimitMs ?? limits.timeLimitMs;
        try {
          slot = take(entry, options.memoryMb ?? limits.memoryMb);
        } catch (err) {
          // No thread could be started (the machine out of memory or threads): busy, not the file's fault.
          log.error({ err, task, entry: entry.pathname }, 'a file reader thread could not be started');
          throw busyRefusal(options.field);
        }
        busy.add(slot.worker);
        const started = Date.now();
        const ending = await runOn(slot, task, args, timeLimitMs);
        busy.delete(slot.worker);
        if (ending.kind !== 'reply') {
          void slot.worker.terminate();
          const message =
            ending.kind === 'timeout'
              ? FILE_READ_TEXTS.tooSlow(timeLimitMs)
              : ending.kind === 'memory'
                ? FILE_READ_TEXTS.tooMuchMemory
                : FILE_READ_TEXTS.stopped;
          const cause = ending.kind === 'stopped' ? { cause: ending.cause } : {};
          log.warn(
            { task, entry: entry.pathname, ms: Date.now() - started, ending: ending.kind, ...cause },
            'an uploaded file was not read',
          );
          throw refusal('FILE_NOT_READ', message, options.field);
        }
        const { reply } = ending;
        if (reply.heapBytes > RECYCLE_HEAP_BYTES) void slot.worker.terminate();
        else keep(slot);
        if ('result' in reply) return reply.result as R;
        const e = reply.error;
        if (e.app) throw new AppError(e.app.code as ErrorCode, e.message, e.app.fields, e.app.extra);
        // A parser that threw on a file it was not written for: the file is refused, the cause logged.
        log.error({ task, entry: entry.pathname, cause: e.message, stack: e.stack }, 'a file reader failed on an uploaded file');
        throw refusal('FILE_NOT_READ', FILE_READ_TEXTS.unreadable, options.field);
      } finally {
        if (slot) busy.delete(slot.worker);
        release();
      }
    },
    async slot<T>(field: string, work: () => Promise<T>): Promise<T> {
      if (closed) throw busyRefusal(field);
      await acquire(field);
      try {
        return await work();
      } finally {
        release();
      }
    },
    load: () => ({ running, waiting: waiting.length }),
    async close() {
      closed = true;
      for (const w of waiting.splice(0)) w.cancel();
      const kept = [...idle.values()];
      idle.clear();
      for (const s of kept) if (s.idleTimer) clearTimeout(s.idleTimer);
      await Promise.all([...kept.map((s) => s.worker.terminate()), ...[...busy].map((w) => w.terminate())]);
    },
  };
}
