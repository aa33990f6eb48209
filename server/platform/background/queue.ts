/**
 * Background work by key, for work that comes as items rather than rounds (runner.ts): at most
 * `concurrency` jobs run at once and the rest wait as plain keys (no buffers are held for waiting
 * jobs). A key already waiting is not added twice. Instances share the items through a lease
 * (lease.ts) the job takes on each.
 */
export class BoundedQueue {
  private waiting: string[] = [];
  private waitingSet = new Set<string>();
  private running = 0;
  private idleWaiters: Array<() => void> = [];
  private stopped = false;

  constructor(
    private concurrency: number,
    private readonly worker: (key: string) => Promise<void>,
    private readonly onError: (key: string, err: unknown) => void,
  ) {}

  push(key: string): void {
    if (this.stopped || this.waitingSet.has(key)) return;
    this.waiting.push(key);
    this.waitingSet.add(key);
    this.pump();
  }

  /** Changes how many jobs may run at once (running jobs are not interrupted). */
  setConcurrency(concurrency: number): void {
    this.concurrency = Math.max(1, concurrency);
    this.pump();
  }

  get size(): number {
    return this.waiting.length + this.running;
  }

  /** Resolves when nothing is waiting or running. */
  idle(): Promise<void> {
    if (this.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stops taking new work; the running jobs finish. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.waiting = [];
    this.waitingSet.clear();
    if (this.running > 0) await this.idle();
    else this.settle();
  }

  private pump(): void {
    while (this.running < this.concurrency && this.waiting.length > 0) {
      const key = this.waiting.shift()!;
      this.waitingSet.delete(key);
      this.running += 1;
      this.worker(key)
        .catch((err: unknown) => this.onError(key, err))
        .finally(() => {
          this.running -= 1;
          this.pump();
          if (this.size === 0) this.settle();
        });
    }
  }

  private settle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    waiters.forEach((w) => w());
  }
}
