import { describe, expect, it } from 'vitest';
import { createRunner } from '../../server/platform/background/runner.js';

/** A round that waits until it is let go, counting how many started. */
function gatedRounds() {
  let started = 0;
  const gates: Array<() => void> = [];
  const round = () =>
    new Promise<void>((resolve) => {
      started += 1;
      gates.push(resolve);
    });
  return { round, started: () => started, release: () => gates.shift()?.() };
}

describe('the background runner: rounds one at a time', () => {
  it('runs one more round for any number of kicks during a round, and no more', async () => {
    const gated = gatedRounds();
    const runner = createRunner({ round: gated.round, onError: (err) => expect.fail(String(err)) });
    const first = runner.kick();
    expect(gated.started()).toBe(1);
    const second = runner.kick();
    void runner.kick();
    expect(second).toBe(first); // joined the round in progress
    expect(gated.started()).toBe(1);
    gated.release();
    await expect.poll(gated.started).toBe(2);
    gated.release();
    await first;
    expect(gated.started()).toBe(2);
    await runner.idle();
    void runner.kick();
    expect(gated.started()).toBe(3);
    gated.release();
    await runner.idle();
  });

  it('reports a failed round and runs the next kick as usual', async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const runner = createRunner({
      round: async () => {
        calls += 1;
        if (calls === 1) throw new Error('database down');
      },
      onError: (err) => errors.push(err),
    });
    await runner.kick();
    expect(errors).toEqual([new Error('database down')]);
    await runner.kick();
    expect(calls).toBe(2);
    expect(errors).toHaveLength(1);
  });

  it('closes: the round in progress sees closed() and is awaited, and a kick after starts nothing', async () => {
    const seen: boolean[] = [];
    let release!: () => void;
    const runner = createRunner({
      round: async (closed) => {
        seen.push(closed());
        await new Promise<void>((resolve) => (release = resolve));
        seen.push(closed());
      },
      onError: (err) => expect.fail(String(err)),
    });
    void runner.kick();
    let closed = false;
    const closing = runner.close().then(() => (closed = true));
    await Promise.resolve();
    expect(closed).toBe(false);
    release();
    await closing;
    expect(seen).toEqual([false, true]);
    await runner.kick();
    expect(seen).toHaveLength(2);
  });
});
