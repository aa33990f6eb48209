import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODEL_LIMITS, MODEL_TEXTS } from '../../common/models.js';
import type { EvaluationReport, ModelInspection, ModelsOverview, ScannerModel } from '../../common/schemas/models.js';
import { evaluationRunner } from '../../server/modules/farmer-app/models/evaluation/runner.js';
import { modelsRepository } from '../../server/modules/farmer-app/models/repository.js';
import { pilotBucket } from '../../server/modules/farmer-app/models/publishing.js';
import { photoSet } from '../../server/modules/farmer-app/models/stored.js';
import { DEMO_TEMPERATURE, meanColourClassifier, wrongInputRankModel } from '../../server/libraries/tflite/recipes.js';
import { readStored } from '../../server/platform/storage/stored-files.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { loginAs, makeAccount } from '../fixtures/factories.js';
import {
  CLASSES,
  expectedLabel,
  multipart as multipartOf,
  seedPhoto as seedPhotoOf,
  seedRecord as seedRecordOf,
  twoTonePhoto,
  type Rgb,
} from '../fixtures/models.js';

let t: TestApp;
let cookie: string;
let model: Uint8Array;

const expected = new Map<string, { actual: string; predicted: string }>();
const diseaseIds = new Map<string, string>();

async function seedDisease(c: (typeof CLASSES)[number], index: number) {
  const id = `scan-${c.label}`;
  await seedRecord(id, c.name);
  diseaseIds.set(c.label, id);
  const neighbour = CLASSES[(index + 1) % CLASSES.length]!.meanColour;
  for (let position = 0; position < 5; position += 1) {
    // Four photos of the class's colour (a little off in each), one halfway to the next class's.
    const shade: Rgb =
      position < 4 ? (c.meanColour.map((v, i) => Math.max(0, Math.min(255, v + (position - 2) * 3 + i))) as Rgb) : c.meanColour;
    const body = position < 4 ? await twoTonePhoto(shade, shade) : await twoTonePhoto(c.meanColour, neighbour);
    const photoId = await seedPhoto(id, position, body);
    expected.set(photoId, { actual: c.label, predicted: await expectedLabel(body) });
  }
}

const seedRecord = (id: string, name: string, flags: Parameters<typeof seedRecordOf>[3] = {}) => seedRecordOf(t, id, name, flags);
const seedPhoto = (recordId: string, position: number, body: Buffer) => seedPhotoOf(t, recordId, position, body);
const meta = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    stage: 'disease',
    contract: { scaling: '0-1', mean: null, std: null, resize: 'stretch' },
    thresholds: { confidence: 0.5, margin: 0 },
    note: 'demo colour model',
    ...extra,
  });

const multipart = (parts: Parameters<typeof multipartOf>[1]) => multipartOf(cookie, parts);

async function upload(
  file: Uint8Array,
  metaText = meta(),
  extraParts: Array<{ name: string; value: string | Uint8Array; filename?: string }> = [],
) {
  const body = multipart([{ name: 'meta', value: metaText }, ...extraParts, { name: 'model', value: file, filename: 'model.tflite' }]);
  return t.app.inject({ method: 'POST', url: '/api/models', ...body });
}

/** Check file of a disease classifier with its own labels: what the server read and tried. */
async function inspect(file: Uint8Array): Promise<ModelInspection> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/models/inspect',
    ...multipart([
      { name: 'meta', value: JSON.stringify({ stage: 'disease' }) },
      { name: 'model', value: file, filename: 'm.tflite' },
    ]),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ModelInspection>();
}

async function storedModelFiles(): Promise<number> {
  const dir = path.join(t.ctx.config.dataDir, 'files', 'models');
  if (!fs.existsSync(dir)) return 0;
  return fs.readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith('.tflite')).length;
}

async function evaluate(id: string, split = 'all') {
  const res = await t.app.inject({ method: 'POST', url: `/api/models/${id}/evaluations`, headers: { cookie }, payload: { split } });
  expect(res.statusCode, res.body).toBe(202);
  await evaluationRunner(t.ctx).kick();
  await evaluationRunner(t.ctx).idle();
  return res.json<{ id: string }>().id;
}

const publishModel = (id: string, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: `/api/models/${id}/publish`, headers: { cookie }, payload });

beforeAll(async () => {
  t = await createTestApp();
  cookie = await loginAs(t.app, await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' }));
  for (const [i, c] of CLASSES.entries()) await seedDisease(c, i);
  model = await meanColourClassifier({
    classes: CLASSES.map((c) => ({ label: c.label, meanColour: c.meanColour })),
    scaling: '0-1',
    temperature: DEMO_TEMPERATURE,
    labels: true,
  });
}, 120_000);
afterAll(async () => {
  await t.close();
});

describe('uploading a scanner model', () => {
  it('is for super admins only', async () => {
    const admin = await loginAs(t.app, await makeAccount(t.ctx, { role: 'ADMIN' }));
    expect((await t.app.inject({ url: '/api/models', headers: { cookie: admin } })).statusCode).toBe(403);
  });

  it('refuses what is not a usable model with a clear 400, and stores nothing', async () => {
    const before = (
      await t.ctx.db
        .selectFrom('scanner_models')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n;
    const png = await twoTonePhoto([1, 2, 3], [4, 5, 6]);
    const cases: Array<[string, Uint8Array, string, RegExp]> = [
      ['not a model', png, meta(), /not a TensorFlow Lite model/i],
      ['a truncated model', model.subarray(0, Math.floor(model.length / 2)), meta(), /cut short or damaged|not a TensorFlow Lite/i],
      ['a wrong input rank', await wrongInputRankModel(), meta({ labels: ['a', 'b'] }), /1×H×W×3/],
      ['labels that do not match the outputs', model, meta({ labels: ['rice-blast', 'brown-spot'] }), /gives 12 scores but 2 labels/],
      ['an unknown label', model, meta({ labels: [...CLASSES.slice(0, 11).map((c) => c.label), 'mystery-blight'] }), /"mystery-blight"/],
      [
        'a label too long',
        model,
        meta({ labels: [...CLASSES.slice(0, 11).map((c) => c.label), 'x'.repeat(200)] }),
        /at most 120 characters/,
      ],
    ];
    for (const [what, file, metaText, message] of cases) {
      const res = await upload(file, metaText);
      expect(res.statusCode, what).toBe(400);
      expect(res.json().error.message, what).toMatch(message);
    }
    // A labels file that is not text.
    const binary = await upload(model, meta(), [{ name: 'labels', value: Buffer.from([0, 1, 2, 3, 0xff, 0x00]), filename: 'labels.txt' }]);
    expect(binary.statusCode).toBe(400);
    expect(binary.json().error.message).toBe(MODEL_TEXTS.labelsEncoding);
    const after = (
      await t.ctx.db
        .selectFrom('scanner_models')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n;
    expect(Number(after)).toBe(Number(before));
    expect(await storedModelFiles()).toBe(0);
  });

  it('reads a labels file in UTF-16, as Windows Notepad saves it', async () => {
    const text = `\ufeff${CLASSES.map((c) => c.name).join('\r\n')}\r\n`;
    const body = multipart([
      { name: 'meta', value: JSON.stringify({ stage: 'disease' }) },
      { name: 'labels', value: Buffer.from(text, 'utf16le'), filename: 'labels.txt' },
      { name: 'model', value: model, filename: 'm.tflite' },
    ]);
    const res = await t.app.inject({ method: 'POST', url: '/api/models/inspect', ...body });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().labelsFrom).toBe('labels file');
    expect(res.json().labels.map((l: { recordId: string }) => l.recordId)).toEqual(CLASSES.map((c) => diseaseIds.get(c.label)));
  });

  it("reads Teachable Machine's numbered labels and CSV with an index, with no number left in a label, and refuses a misnumbered line", async () => {
    const inspect = (labels: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/models/inspect',
        ...multipart([
          { name: 'meta', value: JSON.stringify({ stage: 'disease' }) },
          { name: 'labels', value: labels, filename: 'labels.txt' },
          { name: 'model', value: model, filename: 'm.tflite' },
        ]),
      });
    for (const text of [
      CLASSES.map((c, i) => `${i} ${c.name}`).join('\n'),
      `index,label\n${CLASSES.map((c, i) => `${i},${c.name}`).join('\n')}`,
    ]) {
      const res = await inspect(text);
      expect(res.statusCode, res.body).toBe(200);
      const labels = res.json().labels as Array<{ label: string; recordId: string }>;
      expect(labels.map((l) => l.label)).toEqual(CLASSES.map((c) => c.name));
      expect(labels.map((l) => l.recordId)).toEqual(CLASSES.map((c) => diseaseIds.get(c.label)));
    }
    const misnumbered = await inspect(CLASSES.map((c, i) => `${i === 3 ? 7 : i} ${c.name}`).join('\n'));
    expect(misnumbered.statusCode).toBe(400);
    expect(misnumbered.json().error.fields.labels).toBe(MODEL_TEXTS.labelIndex(4, `7 ${CLASSES[3]!.name}`, 3));
  });

  it('finds how a photo becomes the input by scoring held-out photos under each way: 0…1 for the demo model, −1…1 for one built for it', async () => {
    const demoInspection = await inspect(model);
    // The demo model's metadata states mean 0 and std 255: 0…1, tried first and found best.
    expect(demoInspection.metadataContract).toEqual({ scaling: '0-1', mean: null, std: null, resize: 'stretch' });
    const demo = demoInspection.contractSearch!;
    expect(demo.photos).toBeGreaterThanOrEqual(2);
    expect(demo.trials.length).toBe(6);
    expect(demo.trials[0]!.contract).toMatchObject({ scaling: '0-1' });
    const minusOne = await meanColourClassifier({
      classes: CLASSES.map((c) => ({ label: c.label, meanColour: c.meanColour })),
      scaling: '-1-1',
      temperature: DEMO_TEMPERATURE,
      labels: true,
    });
    const minusOneInspection = await inspect(minusOne);
    expect(minusOneInspection.metadataContract).toMatchObject({ scaling: '-1-1' });
    const found = minusOneInspection.contractSearch!;
    expect(found.trials[0]!.contract).toMatchObject({ scaling: '-1-1' });
    expect(found.trials[0]!.accuracy).toBeGreaterThan(found.trials.find((t) => t.contract.scaling === '0-1')!.accuracy);
  });

  it("reads the labels in the model's metadata and suggests each one's record by name", async () => {
    const body = multipart([
      { name: 'meta', value: JSON.stringify({ stage: 'disease' }) },
      { name: 'model', value: model, filename: 'm.tflite' },
    ]);
    const res = await t.app.inject({ method: 'POST', url: '/api/models/inspect', ...body });
    expect(res.statusCode, res.body).toBe(200);
    const inspection = res.json();
    expect(inspection).toMatchObject({ inputShape: [1, 224, 224, 3], inputType: 'float32', outputSize: 12, labelsFrom: 'metadata' });
    for (const l of inspection.labels) expect(l.recordId).toBe(diseaseIds.get(l.label));
    expect(await storedModelFiles()).toBe(0);
  });
});

describe('evaluating, publishing and serving a model', () => {
  let first: ScannerModel;
  let second: ScannerModel;
  let evaluationId: string;

  beforeAll(async () => {
    const res = await upload(model);
    expect(res.statusCode, res.body).toBe(201);
    first = res.json();
    const again = await upload(model, meta({ note: 'same file, a second upload', thresholds: { confidence: 0.6, margin: 0.1 } }));
    second = again.json();
  });

  it('stores the file with its sha256 and every label mapped by record id, audited', async () => {
    expect(first.version).toBe('disease-1');
    expect(second.version).toBe('disease-2');
    expect(first.sha256).toBe(crypto.createHash('sha256').update(model).digest('hex'));
    expect(first.labels.map((l) => l.recordId)).toEqual(CLASSES.map((c) => diseaseIds.get(c.label)));
    const audit = await t.ctx.db
      .selectFrom('audit_logs')
      .select(['action', 'description'])
      .where('collection', '=', 'scanner_models')
      .where('documentId', '=', first.id)
      .execute();
    expect(audit.map((a) => a.description)).toContain('Uploaded scanner model disease-1');
  });

  it("scores every photo with the model file itself and reports what the photos' own colours predict", async () => {
    evaluationId = await evaluate(first.id);
    const res = await t.app.inject({ url: `/api/models/${first.id}/evaluations/${evaluationId}`, headers: { cookie } });
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json<EvaluationReport>();
    expect(report.evaluation.state).toBe('done');
    expect(report.evaluation.total).toBe(expected.size);
    expect(report.evaluation.sha256).toBe(first.sha256);
    // The expected matrix, from the photos' pixels alone.
    const keyOf = (label: string) => `record:${diseaseIds.get(label)}`;
    const at = new Map(report.classes.map((c, i) => [c.key, i]));
    const matrix = report.classes.map(() => report.classes.map(() => 0));
    let right = 0;
    for (const e of expected.values()) {
      matrix[at.get(keyOf(e.actual))!]![at.get(keyOf(e.predicted))!]! += 1;
      if (e.actual === e.predicted) right += 1;
    }
    expect(report.matrix).toEqual(matrix);
    expect(report.accuracy).toBeCloseTo(right / expected.size, 10);
    expect(right).toBeLessThan(expected.size); // the halfway photos make some honest mistakes
    expect(report.perClass.every((c) => c.support === 5)).toBe(true);
    // Weakest first, the weakest named; five photos a class are few.
    const f1s = report.perClass.map((c) => c.f1 ?? Infinity);
    expect(f1s).toEqual([...f1s].sort((a, b) => a - b));
    expect(report.perClass.map((c) => c.key).sort()).toEqual(report.classes.map((c) => c.key).sort());
    expect(report.weakest).toBe(report.perClass[0]!.key);
    expect(report.perClass.every((c) => c.fewPhotos)).toBe(true);
    expect(report.coverage).toHaveLength(101);
    expect(report.coverage[0]).toMatchObject({ threshold: 0, coverage: 1 });
    expect(report.threshold).toBe(0.5);

    // A wrong cell's photos are the ones expected there.
    const wrong = [...expected.entries()].find(([, e]) => e.actual !== e.predicted)!;
    const cell = await t.app.inject({
      url: `/api/models/${first.id}/evaluations/${evaluationId}/photos?actual=${encodeURIComponent(keyOf(wrong[1].actual))}&predicted=${encodeURIComponent(keyOf(wrong[1].predicted))}`,
      headers: { cookie },
    });
    expect(cell.json().photos.map((p: { imageId: string }) => p.imageId)).toContain(wrong[0]);
    expect(cell.json().photos[0].top).toHaveLength(3);

    const csv = await t.app.inject({ url: `/api/models/${first.id}/evaluations/${evaluationId}/predictions.csv`, headers: { cookie } });
    const rows = parseCsv(csv.body, { columns: true, bom: true }) as Array<Record<string, string>>;
    expect(rows).toHaveLength(expected.size);
    for (const row of rows) expect(row.predicted_label).toBe(expected.get(row.image_id!)!.predicted);
  });

  it("reports whether the model's confidences mean what they say, and the thresholds that reach the target accuracy", async () => {
    const report = (
      await t.app.inject({ url: `/api/models/${first.id}/evaluations/${evaluationId}`, headers: { cookie } })
    ).json<EvaluationReport>();
    const { bins, ece } = report.calibration;
    expect(bins).toHaveLength(10);
    expect(bins.reduce((n, b) => n + b.count, 0)).toBe(report.evaluation.total);
    expect(ece).toBeGreaterThanOrEqual(0);
    expect(report.recommended.target).toBe(t.ctx.config.modelTargetAccuracy);
    const r = report.recommended.thresholds;
    if (r) {
      expect(r.accuracy).toBeGreaterThanOrEqual(report.recommended.target);
      expect(r.coverage).toBeGreaterThan(0);
    } else {
      expect(report.accuracy!).toBeLessThan(report.recommended.target);
    }
  });

  it('says a queued evaluation is on the current training set before it runs', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/models/${first.id}/evaluations`,
      headers: { cookie },
      payload: { split: 'all' },
    });
    expect(res.statusCode, res.body).toBe(202);
    const id = res.json<{ id: string }>().id;
    const report = (await t.app.inject({ url: `/api/models/${first.id}/evaluations/${id}`, headers: { cookie } })).json<EvaluationReport>();
    expect(['queued', 'running']).toContain(report.evaluation.state);
    expect(report.evaluation.current).toBe(true);
    const listed = (await t.app.inject({ url: '/api/models', headers: { cookie } })).json<ModelsOverview>();
    const summary = listed.models.find((m) => m.id === first.id)!.evaluations.find((e) => e.id === id)!;
    expect(summary.current).toBe(true);
    await evaluationRunner(t.ctx).kick();
    await evaluationRunner(t.ctx).idle();
  });

  it('gives the same numbers when run again, and can score exactly the same photos after the set changed', async () => {
    const again = await evaluate(first.id);
    const report = async (id: string) =>
      (await t.app.inject({ url: `/api/models/${first.id}/evaluations/${id}`, headers: { cookie } })).json<EvaluationReport>();
    const a = await report(evaluationId);
    const b = await report(again);
    expect(b.matrix).toEqual(a.matrix);
    expect(b.evaluation.photoSetSha256).toBe(a.evaluation.photoSetSha256);
    expect(b.evaluation.current).toBe(true);

    // A photo added since: a new evaluation scores it too, a rerun of the earlier one scores the earlier photos.
    const extra = await twoTonePhoto([10, 20, 30], [10, 20, 30]);
    const key = 'rice_disease/scan-rice-blast/extra.png';
    await t.ctx.storage.put(key, extra);
    await t.ctx.db
      .insertInto('catalog_images')
      .values({
        id: 'scan-extra',
        collection: 'rice_local_diseases',
        entryId: diseaseIds.get('rice-blast')!,
        position: 9,
        status: 'ready',
        originalKey: key,
        displayKey: null,
        thumbKey: null,
        externalUrl: null,
        mimeType: 'image/png',
        sizeBytes: extra.length,
        width: 96,
        height: 64,
        originalName: 'extra.png',
        sha256: 'extra',
        uploadedBy: null,
        createdAt: new Date().toISOString(),
        linkedAt: new Date().toISOString(),
        locationCleaned: 1,
      })
      .execute();
    const fresh = await evaluate(first.id);
    expect((await report(fresh)).evaluation.total).toBe(expected.size + 1);
    expect((await report(fresh)).evaluation.photoSetSha256).not.toBe(a.evaluation.photoSetSha256);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/models/${first.id}/evaluations`,
      headers: { cookie },
      payload: { sameAs: evaluationId },
    });
    expect(res.statusCode, res.body).toBe(202);
    await evaluationRunner(t.ctx).kick();
    await evaluationRunner(t.ctx).idle();
    const c = await report(res.json().id);
    expect(c.evaluation.total).toBe(expected.size);
    expect(c.evaluation.photoSetSha256).toBe(a.evaluation.photoSetSha256);
    expect(c.matrix).toEqual(a.matrix);
    await t.ctx.db.deleteFrom('catalog_images').where('id', '=', 'scan-extra').execute();
  });

  it('cancels an evaluation, waiting or running, and a running one stops at its next batch', async () => {
    // Real photos: should this instance's runner take the waiting one before the cancel arrives, it is still scoring then.
    const earlier = await t.ctx.db
      .selectFrom('model_evaluations')
      .select(['photoIds', 'total'])
      .where('id', '=', evaluationId)
      .executeTakeFirstOrThrow();
    const queue = async (state: 'queued' | 'running') => {
      const id = crypto.randomUUID();
      await t.ctx.db
        .insertInto('model_evaluations')
        .values({
          id,
          modelId: second.id,
          state,
          split: 'all',
          seed: 'palayan',
          ratios: '{}',
          photoSetSha256: 'x',
          contractSha256: 'x',
          photoIds: earlier.photoIds,
          total: earlier.total,
          done: 0,
          cancelRequested: 0,
          // Another instance's, beating now: this one's runner leaves it alone.
          claimedBy: state === 'running' ? 'another-instance' : null,
          heartbeatAt: state === 'running' ? new Date(Date.now() + 60_000).toISOString() : null,
          accuracy: null,
          macroF1: null,
          error: null,
          createdBy: null,
          createdAt: new Date().toISOString(),
          finishedAt: null,
        })
        .execute();
      return id;
    };
    const running = await queue('running');
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/api/models/${second.id}/evaluations/${running}/cancel`,
      headers: { cookie },
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    // The other instance's next heartbeat is refused, so it stops there.
    expect(await modelsRepository.beat(t.ctx.db, running, 'another-instance', 16, new Date().toISOString())).toBe(false);
    await t.ctx.db.deleteFrom('model_evaluations').where('id', '=', running).execute();

    const waiting = await queue('queued');
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/models/${second.id}/evaluations/${waiting}/cancel`, headers: { cookie } }))
        .statusCode,
    ).toBe(200);
    await evaluationRunner(t.ctx).idle();
    const row = await t.ctx.db.selectFrom('model_evaluations').select(['state']).where('id', '=', waiting).executeTakeFirstOrThrow();
    expect(row.state).toBe('cancelled');
    // Nothing left to cancel.
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/models/${second.id}/evaluations/${waiting}/cancel`, headers: { cookie } }))
        .statusCode,
    ).toBe(409);
  });

  it('refuses to publish a model with no evaluation on the current test split, unless a reason is written', async () => {
    const publish = (payload: object) =>
      t.app.inject({ method: 'POST', url: `/api/models/${second.id}/publish`, headers: { cookie }, payload });
    const refused = await publish({ channel: 'live', note: 'first live model' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.checks.join(' ')).toMatch(/no finished evaluation on the current training set/);
    expect((await publish({ channel: 'live', note: 'x', overrideReason: 'short' })).statusCode).toBe(400);
    const forced = await publish({
      channel: 'live',
      note: 'first live model',
      overrideReason: 'Field test by the department, evaluated offline',
    });
    expect(forced.statusCode, forced.body).toBe(200);
    const audit = await t.ctx.db
      .selectFrom('audit_logs')
      .select(['description', 'details'])
      .where('documentId', '=', second.id)
      .where('description', 'like', '%despite%')
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(audit.details)).toContain('Field test by the department');
  });

  it('publishes an evaluated model to a pilot share, then live, and rolls back in one step', async () => {
    // An evaluation made with other pixel settings does not count for the model's settings now.
    await evaluate(first.id, 'test');
    const settings = async (contract: object) => {
      const version = (await t.app.inject({ url: `/api/models/${first.id}`, headers: { cookie } })).json<ScannerModel>().recordVersion;
      return t.app.inject({
        method: 'PUT',
        url: `/api/models/${first.id}/settings`,
        headers: { cookie },
        payload: { version, contract, thresholds: { confidence: 0.5, margin: 0 }, note: 'demo colour model' },
      });
    };
    const testVectors = async () =>
      (await t.ctx.db.selectFrom('scanner_models').select('testVectors').where('id', '=', first.id).executeTakeFirstOrThrow()).testVectors;
    expect(JSON.parse((await testVectors())!)).toHaveLength(MODEL_LIMITS.testVectors);
    expect((await settings({ scaling: '0-255', mean: null, std: null, resize: 'stretch' })).statusCode).toBe(200);
    // Photos are prepared otherwise now: the test vectors made under the old contract are gone.
    expect(await testVectors()).toBeNull();
    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/models/${first.id}/publish`,
      headers: { cookie },
      payload: { channel: 'pilot', share: 20, note: 'pilot' },
    });
    expect(refused.statusCode).toBe(409);
    expect((await settings({ scaling: '0-1', mean: null, std: null, resize: 'stretch' })).statusCode).toBe(200);
    const pilot = await t.app.inject({
      method: 'POST',
      url: `/api/models/${first.id}/publish`,
      headers: { cookie },
      payload: { channel: 'pilot', share: 20, note: 'pilot in Camiling' },
    });
    expect(pilot.statusCode, pilot.body).toBe(200);
    expect(pilot.json<ModelsOverview>().models.find((m) => m.id === first.id)!.channels).toEqual([{ channel: 'pilot', share: 20 }]);

    // Installs see the pilot by their id's bucket, the rest the live model.
    const installs = await Promise.all(
      Array.from({ length: 12 }, () =>
        t.app
          .inject({ method: 'POST', url: '/api/public/v1/installs', payload: {} })
          .then((r) => r.json<{ installId: string; installToken: string }>()),
      ),
    );
    for (const i of installs) {
      const current = await t.app.inject({ url: '/api/public/v1/models/current', headers: { authorization: `Bearer ${i.installToken}` } });
      expect(current.statusCode, current.body).toBe(200);
      expect(current.json().disease.version).toBe(pilotBucket(i.installId, 'disease') < 20 ? 'disease-1' : 'disease-2');
    }

    // Published, its pixel contract is what phones use: it cannot change under them.
    expect((await settings({ scaling: '-1-1', mean: null, std: null, resize: 'stretch' })).json().error.message).toBe(
      MODEL_TEXTS.contractLocked,
    );
    const live = await publishModel(first.id, { channel: 'live', note: 'pilot went well' });
    expect(live.statusCode, live.body).toBe(200);
    expect(live.json<ModelsOverview>().models.find((m) => m.id === first.id)!.channels).toEqual([{ channel: 'live', share: 100 }]);

    const back = await t.app.inject({
      method: 'POST',
      url: '/api/models/rollback',
      headers: { cookie },
      payload: { stage: 'disease', note: 'farmers report misses' },
    });
    expect(back.statusCode, back.body).toBe(200);
    const overview = back.json<ModelsOverview>();
    expect(overview.models.find((m) => m.id === second.id)!.channels).toEqual([{ channel: 'live', share: 100 }]);
    expect(overview.publications[0]).toMatchObject({ action: 'rollback', version: 'disease-2', channel: 'live' });
    // disease-2 was the first live model: there is nothing before it, and a second rollback never goes forward to disease-1 again.
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/models/rollback',
      headers: { cookie },
      payload: { stage: 'disease', note: 'again' },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(MODEL_TEXTS.rollbackNone);
  });

  it('serves the install its model with labels by record id, and the file with ETag and Range', async () => {
    const install = (await t.app.inject({ method: 'POST', url: '/api/public/v1/installs', payload: {} })).json<{ installToken: string }>();
    const auth = { authorization: `Bearer ${install.installToken}` };
    expect((await t.app.inject({ url: '/api/public/v1/models/current' })).statusCode).toBe(401);
    const res = await t.app.inject({ url: '/api/public/v1/models/current', headers: auth });
    const current = res.json().disease;
    expect(current).toMatchObject({
      version: 'disease-2',
      sha256: second.sha256,
      size: model.length,
      contract: { scaling: '0-1', resize: 'stretch' },
      thresholds: { confidence: 0.6, margin: 0.1 },
      inputQuantization: null,
      outputQuantization: null,
    });
    expect(current.labels[0]).toMatchObject({
      label: CLASSES[0]!.label,
      recordId: diseaseIds.get(CLASSES[0]!.label),
      name: CLASSES[0]!.name,
    });
    expect(
      (await t.app.inject({ url: '/api/public/v1/models/current', headers: { ...auth, 'if-none-match': res.headers.etag as string } }))
        .statusCode,
    ).toBe(304);
    // Published without an evaluation, it has no test vectors; an evaluation makes them: photos at the input size
    // whose colours name the label the model gives them, with its scores.
    expect(current.testVectors.vectors).toEqual([]);
    await evaluate(second.id, 'test');
    const evaluated = (await t.app.inject({ url: '/api/public/v1/models/current', headers: auth })).json().disease;
    const { tolerance, vectors } = evaluated.testVectors as {
      tolerance: number;
      vectors: Array<{
        jpegBase64: string;
        width: number;
        height: number;
        expected: Array<{ index: number; label: string; score: number }>;
      }>;
    };
    expect(tolerance).toBe(MODEL_LIMITS.testVectorTolerance);
    expect(vectors).toHaveLength(MODEL_LIMITS.testVectors);
    expect(new Set(vectors.map((v) => v.expected[0]!.label)).size).toBe(vectors.length);
    for (const v of vectors) {
      const jpeg = Buffer.from(v.jpegBase64, 'base64');
      expect(await sharp(jpeg).metadata()).toMatchObject({ format: 'jpeg', width: 224, height: 224 });
      expect([v.width, v.height]).toEqual([224, 224]);
      expect(v.expected[0]!.label).toBe(await expectedLabel(jpeg));
      expect(v.expected[0]!.score - v.expected[1]!.score).toBeGreaterThanOrEqual(MODEL_LIMITS.testVectorMinMargin);
    }

    const whole = await t.app.inject({ url: current.url, headers: auth });
    expect(whole.statusCode).toBe(200);
    expect(crypto.createHash('sha256').update(whole.rawPayload).digest('hex')).toBe(current.sha256);
    expect(whole.headers.etag).toBe(`"${current.sha256}"`);
    const tail = await t.app.inject({ url: current.url, headers: { ...auth, range: 'bytes=100-' } });
    expect(tail.statusCode).toBe(206);
    expect(tail.headers['content-range']).toBe(`bytes 100-${model.length - 1}/${model.length}`);
    expect(Buffer.compare(tail.rawPayload, Buffer.from(model).subarray(100))).toBe(0);
    expect((await t.app.inject({ url: current.url, headers: { ...auth, 'if-none-match': `"${current.sha256}"` } })).statusCode).toBe(304);
    expect((await t.app.inject({ url: current.url, headers: { ...auth, range: `bytes=${model.length}-` } })).statusCode).toBe(416);
    const stale = await t.app.inject({ url: current.url, headers: { ...auth, range: 'bytes=100-', 'if-range': '"another"' } });
    expect(stale.statusCode).toBe(200);
    // Ranges the server does not serve as parts (several, backwards, another unit) get the whole file.
    for (const range of ['bytes=0-9,20-29', 'bytes=50-10', 'items=0-5', 'bytes=-']) {
      const res = await t.app.inject({ url: current.url, headers: { ...auth, range } });
      expect(res.statusCode, range).toBe(200);
      expect(res.rawPayload.length, range).toBe(model.length);
    }
    const suffix = await t.app.inject({ url: current.url, headers: { ...auth, range: 'bytes=-10' } });
    expect(suffix.statusCode).toBe(206);
    expect(Buffer.compare(suffix.rawPayload, Buffer.from(model).subarray(model.length - 10))).toBe(0);
    expect((await t.app.inject({ url: current.url, headers: { ...auth, 'if-none-match': '*' } })).statusCode).toBe(304);
    // A model never published is not served.
    const unpublished = await upload(model, meta({ note: 'third' }));
    expect((await t.app.inject({ url: `/api/public/v1/models/${unpublished.json().version}/file`, headers: auth })).statusCode).toBe(404);
  });

  it('serves an install only the model files it may run: live, its pilot, and the one live before', async () => {
    const register = () =>
      t.app
        .inject({ method: 'POST', url: '/api/public/v1/installs', payload: {} })
        .then((r) => r.json<{ installId: string; installToken: string }>());
    const pilotModel = await upload(model, meta({ note: 'pilot only' }));
    expect(pilotModel.statusCode, pilotModel.body).toBe(201);
    const { id, version } = pilotModel.json<ScannerModel>();
    const pilot = await t.app.inject({
      method: 'POST',
      url: `/api/models/${id}/publish`,
      headers: { cookie },
      payload: { channel: 'pilot', share: 50, note: 'pilot in Paniqui', overrideReason: 'Field test by the department, evaluated offline' },
    });
    expect(pilot.statusCode, pilot.body).toBe(200);
    let inside: { installId: string; installToken: string } | null = null;
    let outside: { installId: string; installToken: string } | null = null;
    while (!inside || !outside) {
      const i = await register();
      if (pilotBucket(i.installId, 'disease') < 50) inside ??= i;
      else outside ??= i;
    }
    const file = (v: string, i: { installToken: string }) =>
      t.app
        .inject({ url: `/api/public/v1/models/${v}/file`, headers: { authorization: `Bearer ${i.installToken}` } })
        .then((r) => r.statusCode);
    // disease-2 is live, brought back by a rollback from disease-1: that one is not offered again.
    for (const i of [inside, outside]) {
      expect(await file('disease-2', i)).toBe(200);
      expect(await file('disease-1', i)).toBe(404);
    }
    expect(await file(version, inside)).toBe(200);
    expect(await file(version, outside)).toBe(404);
    const ended = await t.app.inject({ method: 'POST', url: '/api/models/end-pilot', headers: { cookie }, payload: { stage: 'disease' } });
    expect(ended.statusCode, ended.body).toBe(200);
    // Once on a channel is not enough: the pilot's model is no install's to run now.
    expect(await file(version, inside)).toBe(404);
    // Made live, it is everyone's, and the model live before it stays the phones' fallback.
    const live = await t.app.inject({
      method: 'POST',
      url: `/api/models/${id}/publish`,
      headers: { cookie },
      payload: { channel: 'live', note: 'everyone', overrideReason: 'Field test by the department, evaluated offline' },
    });
    expect(live.statusCode, live.body).toBe(200);
    for (const i of [inside, outside]) {
      expect(await file(version, i)).toBe(200);
      expect(await file('disease-2', i)).toBe(200);
      expect(await file('disease-1', i)).toBe(404);
    }
  });

  it('splits detections by model version and marks versions it never had', async () => {
    const install = (await t.app.inject({ method: 'POST', url: '/api/public/v1/installs', payload: {} })).json<{ installToken: string }>();
    const report = (modelVersion: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/public/v1/scan-reports',
        headers: { authorization: `Bearer ${install.installToken}` },
        payload: {
          reportId: crypto.randomUUID(),
          label: CLASSES[0]!.label,
          confidence: 0.9,
          modelVersion,
          scannedAt: new Date().toISOString(),
        },
      });
    expect((await report('disease-2')).statusCode).toBe(201);
    expect((await report('bundled-apk-7')).statusCode).toBe(201);
    const detections = (await t.app.inject({ url: '/api/dashboard/detections', headers: { cookie } })).json();
    expect(detections.models).toEqual(
      expect.arrayContaining([
        { modelVersion: 'disease-2', reports: 1, known: true },
        { modelVersion: 'bundled-apk-7', reports: 1, known: false },
      ]),
    );
  });
});

describe('a plant check', () => {
  const RICE: Rgb = [60, 140, 60];
  const NOT_RICE: Rgb = [200, 200, 200];
  /** The verdict the plant check gives a photo, worked out from its pixels: the nearer of its two colours. */
  async function plantVerdict(photo: Buffer): Promise<'rice-plant' | 'not-rice-plant'> {
    const mean = (await sharp(photo).stats()).channels.slice(0, 3).map((c) => c.mean);
    const d = (c: Rgb) => c.reduce((s, v, i) => s + (v - mean[i]!) ** 2, 0);
    return d(NOT_RICE) < d(RICE) ? 'not-rice-plant' : 'rice-plant';
  }

  it('maps its labels to verdicts, is scored on "not a rice plant" photos against rice photos, and publishes without a reason', async () => {
    const plant = await meanColourClassifier({
      classes: [
        { label: 'non_rice_plant', meanColour: NOT_RICE },
        { label: 'rice_plant', meanColour: RICE },
      ],
      scaling: '0-1',
      temperature: DEMO_TEMPERATURE,
      labels: true,
    });
    const res = await upload(plant, meta({ stage: 'plant' }));
    expect(res.statusCode, res.body).toBe(201);
    const model = res.json<ScannerModel>();
    expect(model.version).toMatch(/^plant-\d+$/);
    expect(model.labels.map((l) => l.verdict)).toEqual(['not-rice-plant', 'rice-plant']);
    const start = (split = 'all') =>
      t.app.inject({ method: 'POST', url: `/api/models/${model.id}/evaluations`, headers: { cookie }, payload: { split } });
    // Only rice photos so far: nothing to tell them from.
    const refused = await start();
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toBe(MODEL_TEXTS.plantNeedsBoth);

    const negatives = 'plant-negatives';
    await seedRecord(negatives, 'Soil, hands and weeds', { isTrainingClass: 1, notRicePlant: 1 });
    const truth = new Map<string, { actual: string; predicted: string }>();
    for (const [photoId, e] of expected) {
      const body = await readStored(t.ctx.storage, `rice_disease/${diseaseIds.get(e.actual)!}/${photoId}.png`);
      truth.set(photoId, { actual: 'rice-plant', predicted: await plantVerdict(body) });
    }
    // Greys, and every fifth photo closer to the rice colour (an honest mistake or two).
    const shades: Rgb[] = Array.from({ length: 30 }, (_, i) =>
      i % 5 === 4 ? [110 + i, 150, 110] : [170 + i * 2, 175 + i, 165 + (i % 3) * 10],
    );
    for (const [position, shade] of shades.entries()) {
      const body = await twoTonePhoto(shade, shade);
      truth.set(await seedPhoto(negatives, position, body), { actual: 'not-rice-plant', predicted: await plantVerdict(body) });
    }
    try {
      // A disease classifier is not scored on them: in the app the plant check turns them away.
      const diseaseSet = await photoSet(t.ctx, 'all', 'palayan', 'disease');
      expect(diseaseSet.pairs.some(([, record]) => record === negatives)).toBe(false);
      expect((await photoSet(t.ctx, 'all', 'palayan', 'plant')).pairs).toHaveLength(truth.size);
      const evaluation = await start();
      expect(evaluation.statusCode, evaluation.body).toBe(202);
      await evaluationRunner(t.ctx).kick();
      await evaluationRunner(t.ctx).idle();
      const id = evaluation.json<{ id: string }>().id;
      const report = (
        await t.app.inject({ url: `/api/models/${model.id}/evaluations/${id}`, headers: { cookie } })
      ).json<EvaluationReport>();
      expect(report.evaluation.state).toBe('done');
      expect(report.evaluation.total).toBe(truth.size);
      expect(report.classes.map((c) => [c.name, c.recordId])).toEqual([
        [MODEL_TEXTS.verdict['not-rice-plant'], null],
        [MODEL_TEXTS.verdict['rice-plant'], null],
      ]);
      const order = ['not-rice-plant', 'rice-plant'];
      const matrix = order.map((a) => order.map((p) => [...truth.values()].filter((x) => x.actual === a && x.predicted === p).length));
      expect(report.matrix).toEqual(matrix);
      const right = [...truth.values()].filter((x) => x.actual === x.predicted).length;
      expect(report.accuracy).toBeCloseTo(right / truth.size, 10);
      expect(right).toBeLessThan(truth.size);
      // A cell's photos name the record each photo belongs to.
      const cell = (
        await t.app.inject({
          url: `/api/models/${model.id}/evaluations/${id}/photos?actual=${encodeURIComponent(report.classes[0]!.key)}`,
          headers: { cookie },
        })
      ).json<{ photos: Array<{ diseaseId: string; diseaseName: string }> }>();
      expect(cell.photos).toHaveLength(shades.length);
      expect(new Set(cell.photos.map((p) => p.diseaseName))).toEqual(new Set(['Soil, hands and weeds']));

      // Published on its evaluation on the test split, as a disease classifier is.
      expect((await start('test')).statusCode).toBe(202);
      await evaluationRunner(t.ctx).kick();
      await evaluationRunner(t.ctx).idle();
      const thresholds = { confidence: 0.7, margin: 0.05 };
      const publish = await publishModel(model.id, { channel: 'live', note: 'plant check, evaluated', thresholds });
      expect(publish.statusCode, publish.body).toBe(200);
      // The thresholds chosen when publishing are the model's now, and the audit entry says what they were.
      expect(publish.json<ModelsOverview>().models.find((m) => m.id === model.id)!.thresholds).toEqual(thresholds);
      const entry = await t.ctx.db
        .selectFrom('audit_logs')
        .select('details')
        .where('documentId', '=', model.id)
        .where('description', 'like', 'Published%')
        .executeTakeFirstOrThrow();
      const details: unknown = typeof entry.details === 'string' ? JSON.parse(entry.details) : entry.details;
      expect(details).toMatchObject({
        thresholds: { before: { confidence: 0.5, margin: 0 }, after: thresholds },
      });
    } finally {
      await t.ctx.db.updateTable('rice_local_diseases').set({ isDeleted: 1 }).where('id', '=', negatives).execute();
    }
  });
});

describe('the pilot share', () => {
  it('puts the set share of installs in the pilot, within two points over 10,000 ids, and keeps each where it was', () => {
    for (const share of [5, 20, 50]) {
      let inPilot = 0;
      for (let i = 0; i < 10_000; i += 1)
        if (pilotBucket(crypto.createHash('sha256').update(`install-${i}`).digest('base64url').slice(0, 22), 'disease') < share)
          inPilot += 1;
      expect(Math.abs(inPilot / 100 - share)).toBeLessThanOrEqual(2);
    }
    expect(pilotBucket('same-install', 'disease')).toBe(pilotBucket('same-install', 'disease'));
  });
});

describe('a model whose scores are 8-bit integers', () => {
  it('is taken with its scale and zero point (uint8), scored dequantised: the same verdict on every photo as the float model', async () => {
    const report = async (id: string) => {
      const evaluationId = await evaluate(id);
      return (await t.app.inject({ url: `/api/models/${id}/evaluations/${evaluationId}`, headers: { cookie } })).json<EvaluationReport>();
    };
    const float = await upload(model, meta({ note: 'float scores' }));
    expect(float.statusCode, float.body).toBe(201);
    expect(float.json<ScannerModel>().outputQuantization).toBeNull();
    const floatReport = await report(float.json<ScannerModel>().id);
    const build = (output: 'uint8' | 'int8') =>
      meanColourClassifier({
        classes: CLASSES.map((c) => ({ label: c.label, meanColour: c.meanColour })),
        scaling: '0-1',
        temperature: DEMO_TEMPERATURE,
        labels: true,
        output,
      });
    const res = await upload(await build('uint8'), meta({ note: 'uint8 scores' }));
    expect(res.statusCode, res.body).toBe(201);
    const stored = res.json<ScannerModel>();
    expect(stored.outputQuantization).toEqual({ type: 'uint8', scale: 1 / 256, zeroPoint: 0 });
    const got = await report(stored.id);
    expect(got.evaluation.state).toBe('done');
    expect(got.matrix).toEqual(floatReport.matrix);
    expect(got.evaluation.accuracy).toBe(floatReport.evaluation.accuracy);
    // int8 scores are read, but the runtime the console evaluates with cannot run them: refused, saying so.
    const int8 = await upload(await build('int8'), meta({ note: 'int8 scores' }));
    expect(int8.statusCode).toBe(400);
    expect(int8.json().error.message).toMatch(/INT8 is not supported/);
  });

  it('is refused when its scores have no scale, or one per class', async () => {
    const classes = CLASSES.map((c) => ({ label: c.label, meanColour: c.meanColour }));
    const build = (q: { scale: number[]; zeroPoint: number[] }) =>
      meanColourClassifier({
        classes,
        scaling: '0-1',
        temperature: DEMO_TEMPERATURE,
        labels: true,
        output: 'uint8',
        outputQuantization: q,
      });
    const none = await upload(await build({ scale: [], zeroPoint: [] }));
    expect(none.statusCode).toBe(400);
    expect(none.json().error.message).toMatch(/without the scale and zero point/);
    const perClass = await upload(await build({ scale: classes.map(() => 1 / 256), zeroPoint: classes.map(() => 0) }));
    expect(perClass.statusCode).toBe(400);
    expect(perClass.json().error.message).toMatch(/quantised per class \(12 scales\)/);
  });
});

describe("Check file's trial of pixel contracts, kept", () => {
  it('is kept with the model, and a contract clearly worse than the best is taken only when the upload says so', async () => {
    const minusOne = await meanColourClassifier({
      classes: CLASSES.map((c) => ({ label: c.label, meanColour: c.meanColour })),
      scaling: '-1-1',
      temperature: DEMO_TEMPERATURE,
      labels: true,
    });
    const before = await storedModelFiles();
    const worse = { scaling: '0-255', mean: null, std: null, resize: 'stretch' };
    const refused = await upload(minusOne, meta({ contract: worse }));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toMatch(/^The way chosen got \d+\.\d % of the held-out photos right, the best \d+\.\d %/);
    expect(await storedModelFiles()).toBe(before);
    const kept = await upload(minusOne, meta({ contract: worse, acceptWorseContract: true }));
    expect(kept.statusCode, kept.body).toBe(201);
    const search = kept.json<ScannerModel>().contractSearch!;
    expect(search.trials[0]!.contract).toMatchObject({ scaling: '-1-1' });
    const chosen = search.trials.find((t) => t.contract.scaling === '0-255' && t.contract.resize === 'stretch')!;
    expect(search.trials[0]!.accuracy - chosen.accuracy).toBeGreaterThan(MODEL_LIMITS.contractWorseBy);
    // The best way needs no confirmation.
    const best = await upload(minusOne, meta({ contract: search.trials[0]!.contract }));
    expect(best.statusCode, best.body).toBe(201);
    expect(best.json<ScannerModel>().contractSearch).toEqual(search);
  });
});

describe('a model whose weights are float16', () => {
  it('is read, loaded and tried like its float32 twin (TensorFlow float16 quantisation: DEQUANTIZE on load)', async () => {
    const half = await meanColourClassifier({
      classes: CLASSES.map((c) => ({ label: c.label, meanColour: c.meanColour })),
      scaling: '0-1',
      temperature: DEMO_TEMPERATURE,
      labels: true,
      weights: 'float16',
    });
    const inspection = await inspect(half);
    expect(inspection.operators).toContain('DEQUANTIZE');
    expect(inspection.contractSearch!.trials[0]!.contract).toMatchObject({ scaling: '0-1' });
  });
});
