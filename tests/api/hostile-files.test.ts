import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { loginAs, makeAccount } from '../fixtures/factories.js';
import { HOSTILE_CASES, hostileRequest, type HostileCase } from '../fixtures/hostile-files.js';
import { rowCounts, watchRequest } from '../fixtures/watch.js';

let t: TestApp;
let adminCookie: string;
let superCookie: string;
beforeAll(async () => {
  t = await createTestApp();
  adminCookie = await loginAs(t.app, await makeAccount(t.ctx, { role: 'ADMIN' }));
  superCookie = await loginAs(t.app, await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' }));
});
afterAll(async () => { await t.close(); });

describe('hostile uploaded files: every parser answers with a 4xx or its normal result, and the server goes on', () => {
  it.each(HOSTILE_CASES.map((c): [string, HostileCase] => [`${c.parser}, ${c.kind}: ${c.name}`, c]))('%s', async (_name, c) => {
    const req = hostileRequest(c.target, await c.file(), c.labels?.());
    const before = await rowCounts(t.ctx.db);
    const watched = await watchRequest(t.app, () => t.app.inject({
      method: 'POST', url: req.url, payload: req.payload,
      headers: { cookie: c.target === 'models' ? superCookie : adminCookie, 'content-type': req.contentType },
    }));
    const res = watched.result;
    const body = res.json() as Record<string, unknown> & { error?: { message: string } };
    expect(res.statusCode, JSON.stringify(body).slice(0, 400)).toBe(c.status);
    expect(c.expect({ status: res.statusCode, message: body.error?.message ?? null, body })).toBeUndefined();
    expect(watched.riseMb, 'RSS rise in MB').toBeLessThan(100);
    expect(watched.worstHealthMs, 'longest health check wait in ms').toBeLessThan(1000);
    expect(await rowCounts(t.ctx.db)).toEqual(before);
  });
});
