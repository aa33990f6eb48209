import type { FastifyInstance } from 'fastify';
import { periodStart, takePeriodSlot } from './period-slot.js';

/**
 * The server's one repeating timer: runs `fn` every `ms` until the returned function stops it.
 * It never keeps the process alive; `fn` handles its own failures.
 */
export function every(ms: number, fn: () => void): () => void {
  const timer = setInterval(fn, ms);
  timer.unref();
  return () => clearInterval(timer);
}

/** Background work of a module, run on a timer while the server is up. */
export interface JobSpec {
  /** Named in the log when a run fails ("<name> failed"). */
  name: string;
  everyMs: number;
  /** A first run this long after start (besides the regular ones). */
  firstAfterMs?: number;
  /** A first run when the server is ready, awaited before it listens. */
  runOnReady?: boolean;
  run: () => Promise<unknown>;
  /** One run a period of everyMs across instances: each run takes the job's period slot (by name) first. */
  onePerPeriod?: boolean;
  /** Runs when the server closes, after the timers stop (wait for a run in progress). */
  onClose?: () => Promise<void> | void;
}

/**
 * Schedules a module's background job on the app: timers start when the server is ready,
 * never keep the process alive and stop when it closes; a failed run is logged, never thrown.
 * Route files call this instead of starting timers themselves.
 */
export function scheduleJob(app: FastifyInstance, spec: JobSpec): void {
  const run = async () => {
    try {
      if (
        spec.onePerPeriod &&
        !(await takePeriodSlot(app.ctx.db, spec.name, app.ctx.config.instanceId, periodStart(Date.now(), spec.everyMs)))
      )
        return;
      await spec.run();
    } catch (err) {
      app.log.error({ err }, `${spec.name} failed`);
    }
  };
  const stops: Array<() => void> = [];
  app.addHook('onReady', async () => {
    if (spec.runOnReady) await run();
    stops.push(
      every(spec.everyMs, () => {
        void run();
      }),
    );
    if (spec.firstAfterMs !== undefined) {
      const first = setTimeout(() => {
        void run();
      }, spec.firstAfterMs);
      first.unref();
      stops.push(() => clearTimeout(first));
    }
  });
  app.addHook('onClose', async () => {
    for (const stop of stops) stop();
    await spec.onClose?.();
  });
}
