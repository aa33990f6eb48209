import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendAuditRows, type AuditRow } from '../../server/platform/writes/audit.js';
import { createDashboardService } from '../../server/modules/operations/dashboard/service.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { loginAs, makeAccount } from '../fixtures/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

let n = 0;
function row(timestamp: string, action: string, collection: string): AuditRow {
  n += 1;
  return {
    id: `content-${n}`,
    userId: 'u1',
    userName: 'Tester',
    userEmail: null,
    timestamp,
    action,
    collection,
    documentId: `doc-${n}`,
    documentName: `Doc ${n}`,
    description: 'test',
    changes: null,
    details: null,
    actorId: null,
    performedBy: null,
    name: null,
  };
}

describe('dashboard: content added and changed per week', () => {
  it('counts content creates and updates per Manila week (Monday first), 12 weeks, and nothing else', async () => {
    // Now: Wednesday 2026-11-18, 10:00 in Manila. The 12 weeks start on Monday 2026-08-31.
    const now = Date.parse('2026-11-18T02:00:00Z');
    await appendAuditRows(t.ctx.db, [
      row('2026-11-16T03:00:00.000Z', 'CREATE', 'rice_seed_varieties'),
      row('2026-11-17T03:00:00.000Z', 'CREATE', 'rice_local_pests'),
      row('2026-11-17T04:00:00.000Z', 'UPDATE', 'rice_local_diseases'),
      // Sunday 2026-11-15 20:00 UTC is Monday 04:00 in Manila: this week.
      row('2026-11-15T20:00:00.000Z', 'UPDATE', 'rice_seed_varieties'),
      // Sunday 2026-11-15 15:00 UTC is Sunday 23:00 in Manila: the week before.
      row('2026-11-15T15:00:00.000Z', 'CREATE', 'rice_local_pests'),
      // The first week's Monday, 00:30 Manila time.
      row('2026-08-30T16:30:00.000Z', 'UPDATE', 'rice_local_pests'),
      // Before the 12 weeks; not content; not a create or update.
      row('2026-08-30T15:30:00.000Z', 'CREATE', 'rice_local_pests'),
      row('2026-11-17T05:00:00.000Z', 'CREATE', 'accounts'),
      row('2026-11-17T05:00:00.000Z', 'DELETE', 'rice_local_pests'),
    ]);
    const result = await createDashboardService(t.ctx).contentWeekly(now);
    expect(result.weeks).toHaveLength(12);
    expect(result.weeks[0]).toBe('2026-08-31');
    expect(result.weeks[11]).toBe('2026-11-16');
    expect(result.added).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2]);
    expect(result.changed).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]);
  });

  it('is served to signed-in staff with the dashboard permission only', async () => {
    const anonymous = await t.app.inject({ url: '/api/dashboard/content-weekly' });
    expect(anonymous.statusCode).toBe(401);
    const cookie = await loginAs(t.app, await makeAccount(t.ctx, { role: 'ADMIN' }));
    const res = await t.app.inject({ url: '/api/dashboard/content-weekly', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { weeks: string[]; added: number[]; changed: number[] };
    expect(body.weeks).toHaveLength(12);
    expect(body.added).toHaveLength(12);
    expect(body.changed).toHaveLength(12);
  });
});
