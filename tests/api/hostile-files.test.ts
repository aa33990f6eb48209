import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_READ_TEXTS } from '../../common/texts.js';
import { readExportFile } from '../../server/modules/operations/migration/importer.js';
import { AppError } from '../../server/platform/http/errors.js';
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
afterAll(async () => {
  await t.close();
});

describe('hostile uploaded files: every parser answers with a 4xx or its normal result, and the server goes on', () => {
  it.each(HOSTILE_CASES.map((c): [string, HostileCase] => [`${c.parser}, ${c.kind}: ${c.name}`, c]))('%s', async (_name, c) => {
    const req = hostileRequest(c.target, await c.file(), c.labels?.());
    const before = await rowCounts(t.ctx.db);
    const watched = await watchRequest(t.app, () =>
      t.app.inject({
        method: 'POST',
        url: req.url,
        payload: req.payload,
        headers: {
          cookie: c.target === 'models' || c.target === 'evaluation-sets' ? superCookie : adminCookie,
          'content-type': req.contentType,
        },
      }),
    );
    const res = watched.result;
    const body = res.json() as Record<string, unknown> & { error?: { message: string } };
    expect(res.statusCode, JSON.stringify(body).slice(0, 400)).toBe(c.status);
    expect(c.expect({ status: res.statusCode, message: body.error?.message ?? null, body })).toBeUndefined();
    expect(watched.riseMb, 'RSS rise in MB').toBeLessThan(100);
    expect(watched.worstHealthMs, 'longest health check wait in ms').toBeLessThan(1000);
    expect(await rowCounts(t.ctx.db)).toEqual(before);
  });
});

describe("hostile Firebase export files: read on a file reader's thread, refused with what is wrong", () => {
  const exportFile = (content: string | Buffer) => {
    const file = path.join(t.ctx.config.dataDir, `export-${Math.random().toString(36).slice(2)}.json`);
    fs.writeFileSync(file, content);
    return file;
  };
  const refusal = async (file: string, limits?: { memoryMb: number; timeLimitMs: number }) => {
    const watched = await watchRequest(t.app, () =>
      readExportFile(t.ctx, file, limits).then(
        () => null,
        (e: unknown) => e as AppError,
      ),
    );
    expect(watched.worstHealthMs, 'longest health check wait in ms').toBeLessThan(1000);
    expect(watched.result).toBeInstanceOf(AppError);
    return watched.result!;
  };

  it.each([
    ['truncated', () => JSON.stringify({ accounts: { a: { username: 'x' } } }).slice(0, 20), /^The export is not valid JSON/],
    ['deep', () => `${'['.repeat(200_000)}${']'.repeat(200_000)}`, /^The export (is not valid JSON|must be a JSON object of collections)/],
    ['not an object', () => '"accounts"', /^The export must be a JSON object of collections/],
  ])('%s: a 400 naming what is wrong', async (_kind, content, wanted) => {
    const err = await refusal(exportFile(content()));
    expect(err.status).toBe(400);
    expect(err.message).toMatch(wanted);
  });

  it('big: an export that needs more memory than its reader may take is a 422, and the server goes on', async () => {
    const docs = Object.fromEntries(
      Array.from({ length: 200_000 }, (_, i) => [`d${i}`, { name: `Variety ${i}`, location: 'Tarlac', year: 2000 + (i % 20) }]),
    );
    const err = await refusal(exportFile(JSON.stringify({ rice_seed_varieties: docs })), { memoryMb: 32, timeLimitMs: 20_000 });
    expect([err.status, err.message]).toEqual([422, FILE_READ_TEXTS.tooMuchMemory]);
    expect((await t.app.inject({ url: '/api/health' })).statusCode).toBe(200);
  });
});
