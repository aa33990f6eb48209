import fs from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parentPort, Worker, workerData } from 'node:worker_threads';
import type { Kysely } from 'kysely';
import type { Database } from './types.js';

/**
 * SQLite answers on the thread that asks, and the server has one: while a search reads
 * thousands of index rows, every other request waits. Such reads run on worker threads instead,
 * each with a read-only connection to the same file. In WAL mode a reader sees every write
 * committed before its statement began, as the server's own connection would; it never sees a
 * transaction still open, so only reads outside transactions are sent.
 *
 * A module that offloads reads names a worker entry (a file calling `serveReadTasks` with its
 * tasks) and calls `readWorkers(db, entry)`: null on PostgreSQL (whose reads already run in
 * the database's processes) or with SQLITE_READ_WORKERS=0, and the caller runs the task itself.
 */

/** A read: the database first, then values that survive a structured clone (no functions). */
type ReadTask = (db: Kysely<Database>, ...args: never[]) => Promise<unknown>;

export interface ReadWorkers {
  run<R>(task: string, args: readonly unknown[]): Promise<R>;
}

interface SqliteFile {
  file: string;
  size: number;
  pools: Map<string, WorkerPool>;
}
const files = new WeakMap<Kysely<Database>, SqliteFile>();

/** createDb: the SQLite file behind `db` and how many threads may read it; the returned function ends them. */
export function registerSqliteFile(db: Kysely<Database>, file: string, size: number): () => Promise<void> {
  const entry: SqliteFile = { file, size, pools: new Map() };
  files.set(db, entry);
  return async () => {
    const pools = [...entry.pools.values()];
    entry.pools.clear();
    await Promise.all(pools.map((p) => p.close()));
  };
}

export function readWorkers(db: Kysely<Database>, entryUrl: URL): ReadWorkers | null {
  const sqlite = files.get(db);
  if (!sqlite || sqlite.size < 1 || db.isTransaction) return null;
  let pool = sqlite.pools.get(entryUrl.href);
  if (!pool) {
    pool = new WorkerPool(entryUrl, sqlite.file, sqlite.size);
    sqlite.pools.set(entryUrl.href, pool);
  }
  return pool;
}

/**
 * What a new thread runs: the built .js entry; in sources run through tsx (development, tests)
 * a few lines that load tsx in the thread, then the .ts entry.
 */
export function workerEntry(url: URL): { code: string; eval: boolean } {
  const file = fileURLToPath(url);
  if (fs.existsSync(file)) return { code: file, eval: false };
  // require finds the CommonJS build of tsx's API; its ES module sits beside it.
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href.replace(/\.cjs$/, '.mjs');
  const boot =
    `import { register } from ${JSON.stringify(tsx)}; register(); await ` +
    `import(${JSON.stringify(pathToFileURL(file.replace(/\.js$/, '.ts')).href)});`;
  return { code: `import(${JSON.stringify(`data:text/javascript,${encodeURIComponent(boot)}`)});`, eval: true };
}

interface Slot {
  worker: Worker;
  busy: number;
}
interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  slot: Slot;
}
interface Reply {
  id: number;
  result?: unknown;
  error?: { message: string; code?: string };
}

class WorkerPool implements ReadWorkers {
  private readonly slots: Slot[] = [];
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(
    private readonly entryUrl: URL,
    private readonly file: string,
    private readonly size: number,
  ) {}

  run<R>(task: string, args: readonly unknown[]): Promise<R> {
    const slot = this.pick();
    const id = this.nextId++;
    return new Promise<R>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, slot });
      if (slot.busy++ === 0) slot.worker.ref();
      slot.worker.postMessage({ id, task, args });
    });
  }

  /** The least busy thread; a new one while there are fewer than allowed and all are busy. */
  private pick(): Slot {
    let best: Slot | undefined;
    for (const s of this.slots) if (!best || s.busy < best.busy) best = s;
    if (best && (best.busy === 0 || this.slots.length >= this.size)) return best;
    return this.spawn();
  }

  private spawn(): Slot {
    const entry = workerEntry(this.entryUrl);
    const worker = new Worker(entry.code, { eval: entry.eval, workerData: { file: this.file } });
    const slot: Slot = { worker, busy: 0 };
    // An idle thread does not keep the process alive (a command that searched once can end).
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const p = this.pending.get(reply.id);
      if (!p) return;
      this.pending.delete(reply.id);
      if (--slot.busy === 0) worker.unref();
      if (reply.error) p.reject(Object.assign(new Error(reply.error.message), reply.error.code ? { code: reply.error.code } : {}));
      else p.resolve(reply.result);
    });
    const lost = (error: Error) => {
      const i = this.slots.indexOf(slot);
      if (i >= 0) this.slots.splice(i, 1);
      for (const [id, p] of this.pending)
        if (p.slot === slot) {
          this.pending.delete(id);
          p.reject(error);
        }
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`search reader exited (${code})`)));
    this.slots.push(slot);
    return slot;
  }

  async close(): Promise<void> {
    const slots = this.slots.splice(0);
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }
}

/** In a worker entry: answers the server's read requests with `tasks`, over a read-only connection. */
export async function serveReadTasks(tasks: Record<string, ReadTask>): Promise<void> {
  if (!parentPort) throw new Error('serveReadTasks runs in a worker thread');
  const port = parentPort;
  const { openSqliteReader } = await import('./connection.js');
  const db = openSqliteReader((workerData as { file: string }).file);
  port.on('message', async ({ id, task, args }: { id: number; task: string; args: never[] }) => {
    try {
      const run = tasks[task];
      if (!run) throw new Error(`no read task ${task}`);
      port.postMessage({ id, result: await run(db, ...args) } satisfies Reply);
    } catch (err) {
      const e = err as Error & { code?: string };
      port.postMessage({ id, error: { message: e.message, ...(typeof e.code === 'string' ? { code: e.code } : {}) } } satisfies Reply);
    }
  });
}
