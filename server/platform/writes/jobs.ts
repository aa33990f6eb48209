import type { FastifyInstance } from 'fastify';

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
      await spec.run();
    } catch (err) {
      app.log.error({ err }, `${spec.name} failed`);
    }
  };
  const timers: NodeJS.Timeout[] = [];
  app.addHook('onReady', async () => {
    if (spec.runOnReady) await run();
    timers.push(setInterval(() => { void run(); }, spec.everyMs));
    if (spec.firstAfterMs !== undefined) timers.push(setTimeout(() => { void run(); }, spec.firstAfterMs));
    for (const timer of timers) timer.unref();
  });
  app.addHook('onClose', async () => {
    for (const timer of timers) clearTimeout(timer);
    await spec.onClose?.();
  });
}
