import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labelSlug } from '../../common/catalog.js';
import { evaluationRunner } from '../../server/modules/farmer-app/models/evaluation/runner.js';
import { DEMO_TEMPERATURE, meanColourClassifier } from '../../server/libraries/tflite/recipes.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { loginAs, makeAccount } from '../fixtures/factories.js';
import { pgRelay } from '../fixtures/pg-relay.js';

/**
 * PostgreSQL going away while a model is being evaluated (every connection cut, none taken for a
 * second): the process stays up, and the evaluation is not left hanging: it goes on from its
 * stored predictions and ends with every photo scored once.
 */
const CLASSES = (
  JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../../demo-data/scanner/classes.json'), 'utf8')) as {
    classes: Array<{ name: string; meanColour: [number, number, number] }>;
  }
).classes.map((c) => ({ ...c, label: labelSlug(c.name) }));
const instanceId = `models-faults-${crypto.randomBytes(4).toString('hex')}`;
const PHOTOS_PER_CLASS = 20;

let t: TestApp;
let cookie: string;
const relay = pgRelay(process.env.TEST_DATABASE_URL!);

beforeAll(async () => {
  await relay.start();
  t = await createTestApp({ instanceId }, { databasePort: relay.port });
  cookie = await loginAs(t.app, await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' }));
  for (const [i, c] of CLASSES.entries()) {
    const id = `f-${c.label}`;
    await t.ctx.db
      .insertInto('rice_local_diseases')
      .values({ id, name: c.name, scientificName: '', isDeleted: 0, createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString() })
      .execute();
    const body = await sharp({
      create: { width: 64, height: 48, channels: 3, background: { r: c.meanColour[0], g: c.meanColour[1], b: c.meanColour[2] } },
    })
      .png()
      .toBuffer();
    for (let p = 0; p < PHOTOS_PER_CLASS; p += 1) {
      const photoId = `${id}-${p}`;
      const key = `rice_disease/${id}/${photoId}.png`;
      await t.ctx.storage.put(key, body);
      await t.ctx.db
        .insertInto('catalog_images')
        .values({
          id: photoId,
          collection: 'rice_local_diseases',
          entryId: id,
          position: p,
          status: 'ready',
          originalKey: key,
          displayKey: null,
          thumbKey: null,
          externalUrl: null,
          mimeType: 'image/png',
          sizeBytes: body.length,
          width: 64,
          height: 48,
          originalName: `${photoId}.png`,
          sha256: `${photoId}`,
          uploadedBy: null,
          createdAt: new Date().toISOString(),
          linkedAt: new Date().toISOString(),
          locationCleaned: 1,
        })
        .execute();
    }
  }
});
afterAll(async () => {
  await t.close();
  await relay.stop();
});

describe('the database goes away during an evaluation', () => {
  it('keeps the server up and ends the evaluation with every photo scored once', async () => {
    const model = await meanColourClassifier({
      classes: CLASSES.map((c) => ({ label: c.label, meanColour: c.meanColour })),
      scaling: '0-1',
      temperature: DEMO_TEMPERATURE,
      labels: true,
    });
    const boundary = 'palayan-faults';
    const meta = JSON.stringify({
      stage: 'disease',
      contract: { scaling: '0-1', mean: null, std: null, resize: 'stretch' },
      thresholds: { confidence: 0.5, margin: 0 },
      note: 'faults',
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
    const modelId = uploaded.json().id as string;
    const queued = await t.app.inject({
      method: 'POST',
      url: `/api/models/${modelId}/evaluations`,
      headers: { cookie },
      payload: { split: 'all' },
    });
    expect(queued.statusCode, queued.body).toBe(202);
    const evaluationId = queued.json().id as string;

    // Once the first predictions are stored, the database goes away for a second.
    const scored = async () =>
      Number(
        (
          await t.ctx.db
            .selectFrom('model_predictions')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('evaluationId', '=', evaluationId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    while ((await scored()) === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    await relay.stop();
    const health = await t.app.inject({ url: `/api/models/${modelId}`, headers: { cookie } });
    expect(health.statusCode).toBe(503);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await relay.start();

    // The runner's next looks (the job's timer, or a kick) take it up again until it ends.
    const runner = evaluationRunner(t.ctx);
    let state = 'running';
    for (const started = Date.now(); Date.now() - started < 60_000;) {
      await runner.kick();
      await runner.idle();
      const row = await t.ctx.db.selectFrom('model_evaluations').select(['state']).where('id', '=', evaluationId).executeTakeFirstOrThrow();
      state = row.state;
      if (!['queued', 'running'].includes(state)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(state).toBe('done');
    const rows = await t.ctx.db
      .selectFrom('model_predictions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('evaluationId', '=', evaluationId)
      .executeTakeFirstOrThrow();
    expect(Number(rows.n)).toBe(CLASSES.length * PHOTOS_PER_CLASS);
    const report = await t.app.inject({ url: `/api/models/${modelId}/evaluations/${evaluationId}`, headers: { cookie } });
    expect(report.json().accuracy).toBe(1);
  });
});
