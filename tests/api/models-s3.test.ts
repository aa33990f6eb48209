import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labelSlug } from '../../common/catalog.js';
import { DEMO_TEMPERATURE, meanColourClassifier } from '../../server/libraries/tflite/recipes.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { loginAs, makeAccount } from '../fixtures/factories.js';
import { startS3, type TestS3 } from '../fixtures/s3.js';

const CLASSES = (
  JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../../demo-data/scanner/classes.json'), 'utf8')) as {
    classes: Array<{ name: string; meanColour: [number, number, number] }>;
  }
).classes.map((c) => ({ ...c, label: labelSlug(c.name) }));

let s3: TestS3;
let t: TestApp;
let cookie: string;
let model: Uint8Array;

beforeAll(async () => {
  s3 = await startS3();
  t = await createTestApp({ s3: s3.settings });
  cookie = await loginAs(t.app, await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' }));
  for (const [i, c] of CLASSES.entries()) {
    await t.ctx.db
      .insertInto('rice_local_diseases')
      .values({
        id: `s3-${c.label}`,
        name: c.name,
        scientificName: '',
        isDeleted: 0,
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
      })
      .execute();
  }
  model = await meanColourClassifier({
    classes: CLASSES.map((c) => ({ label: c.label, meanColour: c.meanColour })),
    scaling: '0-1',
    temperature: DEMO_TEMPERATURE,
    labels: true,
  });
});
afterAll(async () => {
  await t.close();
  await s3.close();
});

describe('a model kept in S3', () => {
  it('is stored in the bucket and downloaded from it whole, by range, and named as unavailable in an outage', async () => {
    const boundary = 'palayan-s3-model';
    const meta = JSON.stringify({
      stage: 'disease',
      contract: { scaling: '0-1', mean: null, std: null, resize: 'stretch' },
      thresholds: { confidence: 0.5, margin: 0 },
      note: 'in S3',
    });
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="meta"\r\n\r\n${meta}\r\n--${boundary}\r\nContent-Disposition: form-data; name="model"; filename="m.tflite"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      Buffer.from(model),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/api/models',
      payload,
      headers: { cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const { id, version } = uploaded.json<{ id: string; version: string }>();
    expect(fs.existsSync(path.join(t.ctx.config.dataDir, 'files', 'models'))).toBe(false);

    const published = await t.app.inject({
      method: 'POST',
      url: `/api/models/${id}/publish`,
      headers: { cookie },
      payload: { channel: 'live', note: 'first model', overrideReason: 'Evaluated by the model team before upload' },
    });
    expect(published.statusCode, published.body).toBe(200);

    const install = (await t.app.inject({ method: 'POST', url: '/api/public/v1/installs', payload: {} })).json<{ installToken: string }>();
    const auth = { authorization: `Bearer ${install.installToken}` };
    const url = `/api/public/v1/models/${version}/file`;
    const whole = await t.app.inject({ url, headers: auth });
    expect(whole.statusCode).toBe(200);
    expect(crypto.createHash('sha256').update(whole.rawPayload).digest('hex')).toBe(
      crypto.createHash('sha256').update(model).digest('hex'),
    );
    const part = await t.app.inject({ url, headers: { ...auth, range: 'bytes=10-99' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 10-99/${model.length}`);
    expect(Buffer.compare(part.rawPayload, Buffer.from(model).subarray(10, 100))).toBe(0);

    await s3.pause();
    try {
      const down = await t.app.inject({ url, headers: auth });
      expect(down.statusCode).toBe(503);
      expect(down.json().error.code).toBe('STORAGE_UNAVAILABLE');
    } finally {
      await s3.resume();
    }
  });
});
