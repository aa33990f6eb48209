import fsp from 'node:fs/promises';
import type { AppContext } from '../../../platform/http/context.js';
import { healthRepository } from './repository.js';

/** One check of the readiness answer: usable or not, and why not (no secrets, no figures). */
export interface Check {
  ok: boolean;
  reason?: string;
}

const CHECK_TIMEOUT_MS = 5000;

async function within<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function run(name: string, ctx: AppContext, work: () => Promise<unknown>): Promise<Check> {
  try {
    await within(work(), name);
    return { ok: true };
  } catch (err) {
    ctx.log.warn({ err, check: name }, `readiness: ${name} is not usable`);
    // Public: the log holds the cause; the answer says only what is wrong.
    return { ok: false, reason: name === 'disk' ? (err as Error).message : `${name} is not answering` };
  }
}

/**
 * Is this instance able to serve a change now: the database answers, photo storage answers, and
 * DATA_DIR has at least DISK_FREE_FLOOR_MB free. A load balancer or compose healthcheck sends
 * traffic elsewhere (or waits) while it is not; /api/health stays the plain liveness check.
 */
export async function readiness(ctx: AppContext): Promise<{ ready: boolean; checks: Record<'database' | 'storage' | 'disk', Check> }> {
  const floor = ctx.config.diskFreeFloorMb * 1024 * 1024;
  const [database, storage, disk] = await Promise.all([
    run('database', ctx, () => healthRepository.ping(ctx.db)),
    run('photo storage', ctx, () => ctx.storage.check()),
    run('disk', ctx, async () => {
      const s = await fsp.statfs(ctx.config.dataDir);
      if (s.bavail * s.bsize < floor) throw new Error(`less than ${ctx.config.diskFreeFloorMb} MB free in the data folder`);
    }),
  ]);
  return { ready: database.ok && storage.ok && disk.ok, checks: { database, storage, disk } };
}
