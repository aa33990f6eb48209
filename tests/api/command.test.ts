import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { photoRuntime } from '../../server/modules/content/photos/index.js';
import { appContext, type AppContext } from '../../server/platform/http/context.js';
import { mailerFor } from '../../server/platform/support/mail.js';
import { inCommand, runCommand } from '../../server/platform/writes/command.js';
import type { LiveEvent } from '../../server/platform/writes/events.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { makeAccount } from '../fixtures/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const actor = { id: 'actor-1', fullname: 'Command Tester', email: null };

/**
 * Collects the events published while `fn` runs. A marker published after it marks the end:
 * events arrive in the order they were published (one notifying connection on PostgreSQL, a
 * synchronous emitter in memory), so once the marker is heard every earlier event has been.
 */
async function heard<T>(fn: () => Promise<T>): Promise<{ events: LiveEvent[]; result: T | Error }> {
  const events: LiveEvent[] = [];
  const marker = { topic: 'test-marker', id: crypto.randomUUID(), op: 'end' };
  let ended = false;
  const stop = t.ctx.events.subscribe((e) => {
    if (e.id === marker.id) ended = true;
    else events.push(e);
  });
  try {
    const result = await fn().catch((err: unknown) => err as Error);
    t.ctx.events.publish(marker);
    await expect.poll(() => ended, { timeout: 5000, interval: 10 }).toBe(true);
    return { events, result };
  } finally {
    stop();
  }
}

const entriesNamed = (name: string) =>
  t.ctx.db.selectFrom('audit_logs').select(['userId', 'userName', 'description']).where('documentName', '=', name).execute();

describe('runCommand', () => {
  it('writes the audit entry by the actor in the transaction and publishes after commit, in order', async () => {
    const order: string[] = [];
    const seen: LiveEvent[] = [];
    const stop = t.ctx.events.subscribe((e) => seen.push(e));
    const { events, result } = await heard(() =>
      runCommand(t.ctx, actor, async (trx, cmd) => {
        await cmd.audit({
          action: 'UPDATE',
          collection: 'maintenance',
          documentId: 'd1',
          documentName: 'cmd-commit',
          description: 'a change',
        });
        cmd.publish({ topic: 'maintenance', id: 'd1', op: 'update' });
        cmd.afterCommit(() => {
          order.push('after');
        });
        // Nothing is out before commit.
        order.push(`inside:${seen.length}`);
        return (await trx.selectFrom('audit_logs').select('id').where('documentName', '=', 'cmd-commit').execute()).length;
      }),
    );
    stop();
    expect(result).toBe(1);
    expect(order).toEqual(['inside:0', 'after']);
    expect(events.filter((e) => e.topic === 'maintenance')).toEqual([{ topic: 'maintenance', id: 'd1', op: 'update' }]);
    // It published its own event, so no extra audit_logs announcement.
    expect(events.filter((e) => e.topic === 'audit_logs')).toEqual([]);
    expect(await entriesNamed('cmd-commit')).toEqual([{ userId: 'actor-1', userName: 'Command Tester', description: 'a change' }]);
  });

  it('rolls the audit entry back with the write and publishes nothing when the work fails', async () => {
    const { events, result } = await heard(() =>
      runCommand(t.ctx, actor, async (_trx, cmd) => {
        await cmd.audit({
          action: 'UPDATE',
          collection: 'maintenance',
          documentId: 'd2',
          documentName: 'cmd-rollback',
          description: 'never',
        });
        cmd.publish({ topic: 'maintenance', id: 'd2', op: 'update' });
        throw new Error('refused');
      }),
    );
    expect(result).toBeInstanceOf(Error);
    expect((result as Error).message).toBe('refused');
    expect(events).toEqual([]);
    expect(await entriesNamed('cmd-rollback')).toEqual([]);
  });

  it('runs the rollback steps, last queued first, when the transaction rolls back, and never after a commit', async () => {
    const undone: string[] = [];
    const failed = await runCommand(t.ctx, actor, async (_trx, cmd) => {
      cmd.onRollback(async () => {
        undone.push('first move back');
      });
      cmd.onRollback(async () => {
        throw new Error('a step that fails reports itself');
      });
      cmd.onRollback(async () => {
        undone.push('second move back');
      });
      throw new Error('refused');
    }).catch((err: unknown) => err);
    expect((failed as Error).message).toBe('refused');
    expect(undone).toEqual(['second move back', 'first move back']);

    undone.length = 0;
    const committed = await runCommand(t.ctx, actor, async (_trx, cmd) => {
      cmd.onRollback(async () => {
        undone.push('never');
      });
      cmd.afterCommit(() => {
        undone.push('after commit');
      });
      return 'saved';
    });
    expect(committed).toBe('saved');
    expect(undone).toEqual(['after commit']);
  });

  it('announces an audit entry with no event of its own as audit_logs, and nothing for a write without one', async () => {
    const audited = await heard(() =>
      runCommand(t.ctx, null, (_trx, cmd) =>
        cmd.audit({
          action: 'LOGIN',
          collection: 'accounts',
          documentId: null,
          documentName: 'cmd-quiet',
          description: 'quiet entry',
        }),
      ),
    );
    expect(audited.events).toEqual([{ topic: 'audit_logs', op: 'create' }]);
    expect(await entriesNamed('cmd-quiet')).toEqual([{ userId: 'system', userName: 'System User', description: 'quiet entry' }]);
    const silent = await heard(() => runCommand(t.ctx, null, async () => 'no audit'));
    expect(silent.result).toBe('no audit');
    expect(silent.events).toEqual([]);
  });

  it('a blocked login is announced to History (no polling needed)', async () => {
    const acc = await makeAccount(t.ctx, { state: { status: 'restricted', isRestricted: 1 } });
    const { events, result } = await heard(() =>
      t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { identifier: acc.username, password: acc.password } }),
    );
    expect((result as { statusCode: number }).statusCode).toBe(403);
    expect(events).toContainEqual({ topic: 'audit_logs', op: 'create' });
    const entries = await t.ctx.db
      .selectFrom('audit_logs')
      .select(['action', 'description'])
      .where('documentId', '=', acc.id)
      .where('action', '=', 'LOGIN')
      .execute();
    expect(entries).toEqual([{ action: 'LOGIN', description: 'Blocked login: account restricted' }]);
  });
});

describe('a service handed an open command (inCommand)', () => {
  it("joins the command's transaction, and the app's runtimes stay the app's", async () => {
    const account = await makeAccount(t.ctx, { role: 'ADMIN' });
    let inner: AppContext | undefined;
    await expect(
      runCommand(t.ctx, actor, async (trx, cmd) => {
        inner = inCommand(t.ctx, { trx, cmd });
        // The inner write runs in the outer transaction: it rolls back with it.
        await runCommand(inner, actor, async (innerTrx) => {
          expect(innerTrx).toBe(trx);
          await innerTrx.updateTable('accounts').set({ fullname: 'Renamed Inside' }).where('id', '=', account.id).execute();
        });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const row = await t.ctx.db.selectFrom('accounts').select('fullname').where('id', '=', account.id).executeTakeFirstOrThrow();
    expect(row.fullname).not.toBe('Renamed Inside');
    expect(appContext(inner!)).toBe(t.ctx);
    expect(photoRuntime(inner!)).toBe(photoRuntime(t.ctx));
    expect(mailerFor(inner!)).toBe(mailerFor(t.ctx));
  });
});
