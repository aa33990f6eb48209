import type { FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { FILE_READ_TEXTS } from '../../../common/texts.js';
import { AppError } from '../../../server/platform/http/errors.js';
import { createFileReaders, readerOf, type FileReaders } from '../../../server/platform/parsing/file-readers.js';
import type { misbehaving } from '../../fixtures/reader-tasks.js';

const reader = readerOf<typeof misbehaving>(new URL('../../fixtures/reader-tasks.js', import.meta.url));
const logged: Array<{ level: string; msg: string; obj: Record<string, unknown> }> = [];
const log = {
  warn: (obj: Record<string, unknown>, msg: string) => logged.push({ level: 'warn', msg, obj }),
  error: (obj: Record<string, unknown>, msg: string) => logged.push({ level: 'error', msg, obj }),
} as unknown as FastifyBaseLogger;

let readers: FileReaders | null = null;
const make = (limits: Partial<Parameters<typeof createFileReaders>[0]> = {}) =>
  (readers = createFileReaders({ concurrency: 2, queue: 1, timeLimitMs: 3000, memoryMb: 32, ...limits }, log));
afterEach(async () => {
  await readers?.close();
  readers = null;
  logged.length = 0;
});

/** The refusal a run ended with. */
async function refusal(run: Promise<unknown>): Promise<AppError> {
  const err = await run.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

/** The longest the server's own thread was held while `work` ran (a timer asked every 20 ms). */
async function longestHold(work: Promise<unknown>): Promise<number> {
  let last = performance.now();
  let worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last - 20);
    last = now;
  }, 20);
  await work.catch(() => undefined);
  clearInterval(timer);
  return worst;
}

// Each test starts reader threads (TypeScript compiled in each under tsx): more than the unit
// tests' default limit on a busy machine.
describe('file readers: uploaded files are parsed on threads with a time limit, a memory cap and a bound', { timeout: 30_000 }, () => {
  it('answers a task, and hands its thread to the next file', async () => {
    const r = make();
    expect(await reader.run(r, 'echo', [{ rows: [[1, 'a']] }], { field: 'file' })).toEqual({ rows: [[1, 'a']] });
    expect(await reader.run(r, 'echo', ['again'], { field: 'file' })).toBe('again');
  });

  it("ends a file that never finishes at the time limit with a 422 naming the field, and the server's thread is never held", async () => {
    const r = make({ timeLimitMs: 1000 });
    // The task never ends by itself: any answer is the time limit's. The server's thread stays
    // free meanwhile (no hold near the one second a health check may wait, even on a busy machine).
    const run = reader.run(r, 'spin', [], { field: 'file' });
    expect(await longestHold(run)).toBeLessThan(1000);
    const err = await refusal(run);
    expect([err.status, err.code, err.message, err.fields]).toEqual([
      422,
      'FILE_NOT_READ',
      FILE_READ_TEXTS.tooSlow(1000),
      { file: FILE_READ_TEXTS.tooSlow(1000) },
    ]);
    expect(logged.some((l) => l.obj.ending === 'timeout')).toBe(true);
    expect(await reader.run(r, 'echo', ['after'], { field: 'file' })).toBe('after');
  });

  it('ends a file that takes more memory than the cap with a 422, and reads the next one', async () => {
    const r = make({ memoryMb: 32 });
    const err = await refusal(reader.run(r, 'allocate', [], { field: 'labels' }));
    expect([err.status, err.message, err.fields]).toEqual([422, FILE_READ_TEXTS.tooMuchMemory, { labels: FILE_READ_TEXTS.tooMuchMemory }]);
    expect(await reader.run(r, 'echo', ['after'], { field: 'file' })).toBe('after');
  });

  it('passes a refusal through as itself; any other error is a 422 with its cause in the log, never a 5xx', async () => {
    const r = make();
    const own = await refusal(reader.run(r, 'refuse', [], { field: 'file' }));
    expect([own.status, own.message, own.fields]).toEqual([400, 'Name the file better.', { file: 'Name the file better.' }]);
    const other = await refusal(reader.run(r, 'throwPlain', [], { field: 'file' }));
    expect([other.status, other.message]).toEqual([422, FILE_READ_TEXTS.unreadable]);
    expect(logged.find((l) => l.level === 'error')?.obj.cause).toBe('cannot read properties of undefined');
    const stopped = await refusal(reader.run(r, 'exit', [], { field: 'file' }));
    expect([stopped.status, stopped.message]).toEqual([422, FILE_READ_TEXTS.stopped]);
    expect(await reader.run(r, 'echo', ['after'], { field: 'file' })).toBe('after');
  });

  it('runs at most its bound at once, queues a few, and refuses the rest with 503 and Retry-After', async () => {
    const r = make({ concurrency: 2, queue: 1 });
    // Taken and queued as they are asked, before any thread has started.
    const runs = [0, 1, 2].map(() => reader.run(r, 'wait', [400], { field: 'file' }));
    expect(r.load()).toEqual({ running: 2, waiting: 1 });
    const busy = await refusal(reader.run(r, 'wait', [1], { field: 'file' }));
    expect([busy.status, busy.code, busy.extra]).toEqual([503, 'FILE_READERS_BUSY', { retryAfterSeconds: 5 }]);
    // A slot of other work (the model runtime's load check) counts in the same bound.
    const slot = await refusal(r.slot('file', async () => 'never run'));
    expect(slot.status).toBe(503);
    expect(await Promise.all(runs)).toEqual([400, 400, 400]);
    expect(r.load()).toEqual({ running: 0, waiting: 0 });
    expect(await r.slot('file', async () => 'ran')).toBe('ran');
  });

  it('ends its threads on close and refuses work after it', async () => {
    const r = make();
    const waiting = reader.run(r, 'wait', [10_000], { field: 'file' });
    // One turn of the event loop: the run has taken its slot and started its thread.
    await new Promise((resolve) => setImmediate(resolve));
    await r.close();
    expect((await refusal(waiting)).status).toBe(422);
    expect((await refusal(reader.run(r, 'echo', [1], { field: 'file' }))).status).toBe(503);
  });
});
