/**
 * Background work that runs in rounds, one round at a time in this process: a round does all the
 * work it finds (claiming each item through a lease or a slot, lease.ts and period-slot.ts, where
 * instances share it). A kick while a round runs asks for one more round after it, so work that
 * arrives during a round is never left waiting for the timer. A failed round is reported to
 * `onError`, never thrown; the job's timer (jobs.ts) kicks again.
 */
export interface Runner {
  /** Runs a round now, or one more after the round in progress; resolves when no round is due. */
  kick(): Promise<void>;
  /** Resolves when nothing is running (tests and shutdown). */
  idle(): Promise<void>;
  /** No new round starts; resolves when the round in progress has ended. */
  close(): Promise<void>;
}

export interface RunnerSpec {
  /** One round of work. `closed()` turns true when the runner closes: a long round stops at its next item. */
  round(closed: () => boolean): Promise<void>;
  onError(err: unknown): void;
}

export function createRunner(spec: RunnerSpec): Runner {
  let running: Promise<void> | null = null;
  let again = false;
  let closed = false;
  const isClosed = () => closed;

  async function rounds(): Promise<void> {
    do {
      again = false;
      await spec.round(isClosed);
    } while (again && !closed);
  }

  return {
    kick() {
      if (closed) return Promise.resolve();
      if (running) {
        again = true;
        return running;
      }
      running = rounds()
        .catch((err: unknown) => spec.onError(err))
        .finally(() => {
          running = null;
        });
      return running;
    },
    async idle() {
      while (running) await running;
    },
    async close() {
      closed = true;
      await running;
    },
  };
}
