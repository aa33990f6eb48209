import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVALUATION_SET_TEXTS } from '../../common/evaluation-sets.js';
import type { EvaluationSet } from '../../common/schemas/evaluation-sets.js';
import type { EvaluationReport, ModelsOverview, PredictionPhoto, ScannerModel } from '../../common/schemas/models.js';
import { DEMO_TEMPERATURE, meanColourClassifier } from '../../server/libraries/tflite/recipes.js';
import { evaluationRunner } from '../../server/modules/farmer-app/models/evaluation/runner.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { exifTagsOf, jpegWithGps } from '../fixtures/catalog.js';
import { loginAs, makeAccount } from '../fixtures/factories.js';
import { CLASSES, expectedLabel, multipart as multipartOf, seedPhoto, seedRecord, twoTonePhoto, type Rgb } from '../fixtures/models.js';
import { rowCounts } from '../fixtures/watch.js';
import { zipOf } from '../fixtures/zip-tricks.js';

const E = EVALUATION_SET_TEXTS.errors;
// Three of the demo scanner's classes, each a record with three training photos.
const USED = CLASSES.slice(0, 3);
let t: TestApp;
let cookie: string;
let adminCookie: string;
let modelId: string;
const trainingPhotos = new Map<string, Buffer>();

const shade = (c: Rgb, by: number): Rgb => c.map((v) => Math.max(0, Math.min(255, v + by))) as Rgb;

/**
 * A two-tone photo with seeded noise on every pixel: its mean colour still says which class the
 * demo model gives it, and its perceptual hash is its own (flat synthetic photos all hash alike).
 */
async function noisyPhoto(a: Rgb, b: Rgb, seed: number): Promise<Buffer> {
  const width = 96;
  const height = 64;
  const raw = Buffer.alloc(width * height * 3);
  let state = seed * 2654435761;
  const noise = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return (state >>> 16) % 81;
  };
  for (let y = 0; y < height; y += 1)
    for (let x = 0; x < width; x += 1) {
      const c = x < width / 2 ? a : b;
      for (let k = 0; k < 3; k += 1) raw[(y * width + x) * 3 + k] = Math.max(0, Math.min(255, c[k]! + noise() - 40));
    }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

const uploadSet = (name: string, zip: Buffer, as = cookie) =>
  t.app.inject({
    method: 'POST',
    url: '/api/evaluation-sets',
    ...multipartOf(as, [
      { name: 'name', value: name },
      { name: 'file', value: zip, filename: 'set.zip' },
    ]),
  });

const listSets = async () =>
  (await t.app.inject({ url: '/api/evaluation-sets', headers: { cookie } })).json<{ sets: EvaluationSet[] }>().sets;

/** Files stored under the evaluation sets' folder. */
function storedSetFiles(): string[] {
  const dir = path.join(t.ctx.config.dataDir, 'files', 'evaluation-sets');
  return fs.existsSync(dir)
    ? fs
        .readdirSync(dir, { recursive: true })
        .map(String)
        .filter((f) => f.includes('.'))
    : [];
}

/** A colour three quarters of the way from one class's to another's. */
const towards = (from: Rgb, to: Rgb): Rgb => from.map((v, i) => Math.round(v + (to[i]! - v) * 0.75)) as Rgb;

/** A field set: per class, four photos a little off its colour, and one most of the way to the next class's (a mistake the model makes). */
async function fieldSet(): Promise<{ files: Array<[string, Buffer]>; expected: Map<string, { actual: string; predicted: string }> }> {
  const files: Array<[string, Buffer]> = [];
  const expected = new Map<string, { actual: string; predicted: string }>();
  for (const [i, c] of USED.entries()) {
    const next = USED[(i + 1) % USED.length]!.meanColour;
    for (let n = 0; n < 5; n += 1) {
      const seed = 1000 + i * 10 + n;
      const body =
        n < 4
          ? await noisyPhoto(shade(c.meanColour, n * 2 - 5), shade(c.meanColour, 4 - n), seed)
          : await noisyPhoto(towards(c.meanColour, next), towards(c.meanColour, next), seed);
      const name = `test/${c.label}/field-${n}.png`;
      files.push([name, body]);
      expected.set(name, { actual: c.label, predicted: await expectedLabel(body) });
    }
  }
  return { files, expected };
}

beforeAll(async () => {
  t = await createTestApp();
  cookie = await loginAs(t.app, await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' }));
  adminCookie = await loginAs(t.app, await makeAccount(t.ctx, { role: 'ADMIN' }));
  for (const c of USED) {
    await seedRecord(t, `set-${c.label}`, c.name);
    for (let p = 0; p < 3; p += 1) {
      const body = await noisyPhoto(shade(c.meanColour, p), shade(c.meanColour, -p), trainingPhotos.size + 1);
      trainingPhotos.set(await seedPhoto(t, `set-${c.label}`, p, body), body);
    }
  }
  const model = await meanColourClassifier({
    classes: USED.map((c) => ({ label: c.label, meanColour: c.meanColour })),
    scaling: '0-1',
    temperature: DEMO_TEMPERATURE,
    labels: true,
  });
  const meta = JSON.stringify({
    stage: 'disease',
    contract: { scaling: '0-1', mean: null, std: null, resize: 'stretch' },
    thresholds: { confidence: 0.5, margin: 0 },
    note: '',
  });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/models',
    ...multipartOf(cookie, [
      { name: 'meta', value: meta },
      { name: 'model', value: model, filename: 'm.tflite' },
    ]),
  });
  expect(res.statusCode, res.body).toBe(201);
  modelId = res.json<ScannerModel>().id;
}, 120_000);
afterAll(async () => {
  await t.close();
});

describe('evaluation sets: a labelled ZIP outside the farmer content', () => {
  it('is stored with its labels mapped, its photos cleaned of location, its sha256, leaks and an audit entry', async () => {
    const { files } = await fieldSet();
    const [leakedId, leaked] = [...trainingPhotos.entries()][0]!;
    const gps = await jpegWithGps(64, 48);
    const zip = await zipOf([
      ['README.md', Buffer.from('# A field test set\n')],
      ['labels.txt', Buffer.from(USED.map((c) => c.label).join('\n'))],
      ...files,
      // A training photo sent again, and a phone photo with its GPS position, in folders named as the diseases are.
      [`test/${USED[0]!.name}/again.png`, leaked],
      [`test/${USED[1]!.label.replace(/-/g, '_')}/phone.jpg`, gps],
      ['__MACOSX/test/._field-0.png', Buffer.from('resource fork')],
    ]);
    const res = await uploadSet('Field test 2026', zip);
    expect(res.statusCode, res.body).toBe(201);
    const set = res.json<EvaluationSet>();
    expect(set.photoCount).toBe(17);
    expect(set.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(set.labels.map((l) => [l.recordId, l.photos]).sort()).toEqual(
      [
        [`set-${USED[0]!.label}`, 5],
        [`set-${USED[0]!.label}`, 1],
        [`set-${USED[1]!.label}`, 5],
        [`set-${USED[1]!.label}`, 1],
        [`set-${USED[2]!.label}`, 5],
      ].sort(),
    );
    expect(set.leakCount).toBe(1);
    expect(set.leaks[0]).toMatchObject({ fileName: `test/${USED[0]!.name}/again.png`, imageId: leakedId, distance: 0 });

    const phone = (await t.ctx.db
      .selectFrom('evaluation_set_photos')
      .selectAll()
      .where('fileName', 'like', '%phone.jpg')
      .executeTakeFirstOrThrow())!;
    const stored = await fs.promises.readFile(path.join(t.ctx.config.dataDir, 'files', phone.originalKey));
    expect((await exifTagsOf(stored))?.gps ?? []).toEqual([]);
    expect((await exifTagsOf(gps))?.gps.length).toBeGreaterThan(0);

    const audit = await t.ctx.db.selectFrom('audit_logs').selectAll().where('documentId', '=', set.id).execute();
    expect(audit.map((a) => a.action)).toEqual(['CREATE']);
    expect((await listSets()).map((s) => s.name)).toContain('Field test 2026');

    const thumb = await t.app.inject({ url: `/api/evaluation-sets/${set.id}/photos/${phone.id}/thumb`, headers: { cookie } });
    expect([thumb.statusCode, thumb.headers['content-type']]).toEqual([200, 'image/jpeg']);
    expect((await sharp(thumb.rawPayload).metadata()).width).toBe(64);
    const asAdmin = await t.app.inject({
      url: `/api/evaluation-sets/${set.id}/photos/${phone.id}/thumb`,
      headers: { cookie: adminCookie },
    });
    expect(asAdmin.statusCode).toBe(403);
  });

  it('scores any model like the test split, and the report names the set', async () => {
    const { files, expected } = await fieldSet();
    const set = (await uploadSet('Scored set', await zipOf(files))).json<EvaluationSet>();
    const start = await t.app.inject({
      method: 'POST',
      url: `/api/models/${modelId}/evaluations`,
      headers: { cookie },
      payload: { evaluationSetId: set.id },
    });
    expect(start.statusCode, start.body).toBe(202);
    expect(start.json<{ evaluationSet: unknown; current: boolean }>()).toMatchObject({
      evaluationSet: { id: set.id, name: 'Scored set' },
      current: true,
    });
    await evaluationRunner(t.ctx).kick();
    await evaluationRunner(t.ctx).idle();
    const evaluationId = start.json<{ id: string }>().id;
    const report = (
      await t.app.inject({ url: `/api/models/${modelId}/evaluations/${evaluationId}`, headers: { cookie } })
    ).json<EvaluationReport>();
    expect(report.evaluation).toMatchObject({ state: 'done', total: 15, evaluationSet: { id: set.id, name: 'Scored set' } });
    const right = [...expected.values()].filter((e) => e.actual === e.predicted).length;
    expect(report.accuracy).toBeCloseTo(right / expected.size, 6);
    expect(right).toBeLessThan(expected.size);
    expect(right).toBeGreaterThan(0);

    const own = `record:set-${USED[0]!.label}`;
    const cell = await t.app.inject({
      url: `/api/models/${modelId}/evaluations/${evaluationId}/photos?${new URLSearchParams({ actual: own, predicted: own })}`,
      headers: { cookie },
    });
    expect(cell.statusCode, cell.body).toBe(200);
    const photo = cell.json<{ photos: PredictionPhoto[] }>().photos[0]!;
    expect(photo.thumbUrl).toMatch(new RegExp(`^/api/evaluation-sets/${set.id}/photos/.+/thumb$`));
    expect((await t.app.inject({ url: photo.thumbUrl!, headers: { cookie } })).statusCode).toBe(200);

    // Deleted, the set's photos go; the evaluation keeps its result and the set's name.
    const del = await t.app.inject({ method: 'DELETE', url: `/api/evaluation-sets/${set.id}`, headers: { cookie } });
    expect(del.statusCode, del.body).toBe(204);
    expect(storedSetFiles().some((f) => f.startsWith(set.id))).toBe(false);
    const overview = (await t.app.inject({ url: '/api/models', headers: { cookie } })).json<ModelsOverview>();
    const summary = overview.models.find((m) => m.id === modelId)!.evaluations.find((e) => e.id === evaluationId)!;
    expect(summary).toMatchObject({ state: 'done', current: false, evaluationSet: { id: set.id, name: 'Scored set' } });
    const audit = await t.ctx.db.selectFrom('audit_logs').select('action').where('documentId', '=', set.id).orderBy('seq').execute();
    expect(audit.map((a) => a.action)).toEqual(['CREATE', 'DELETE']);
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/models/${modelId}/evaluations`,
      headers: { cookie },
      payload: { evaluationSetId: set.id },
    });
    expect([again.statusCode, again.json<{ error: { message: string } }>().error.message]).toEqual([
      400,
      'That evaluation set no longer exists.',
    ]);
  });

  it.each([
    [
      'an unknown label',
      async () => zipOf([['no-such-disease/a.png', await twoTonePhoto([1, 2, 3], [4, 5, 6])]]),
      400,
      /^No disease or training class is labelled “no-such-disease”/,
    ],
    ['a photo in no folder', async () => zipOf([['a.png', await twoTonePhoto([1, 2, 3], [4, 5, 6])]]), 400, /is in no label folder/],
    ['no photos', async () => zipOf([['README.md', Buffer.from('empty')]]), 400, new RegExp(E.noPhotos)],
    ['not a ZIP', async () => Buffer.from('PK but not really a zip'), 400, new RegExp(E.notZip)],
    [
      'a broken photo',
      async () => zipOf([[`${USED[0]!.label}/broken.jpg`, Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 7)])]]),
      415,
      /cannot be read as a photo/,
    ],
  ])('%s is refused with a 4xx and nothing stored', async (_name, zip, status, message) => {
    const before = await rowCounts(t.ctx.db);
    const files = storedSetFiles().length;
    const res = await uploadSet(`Refused ${Math.random()}`, await zip());
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json<{ error: { message: string } }>().error.message).toMatch(message);
    expect(await rowCounts(t.ctx.db)).toEqual(before);
    expect(storedSetFiles().length).toBe(files);
    expect(fs.readdirSync(path.join(t.ctx.config.dataDir, 'tmp', 'evaluation-sets'))).toEqual([]);
  });

  it('refuses a name taken, an empty name, and an account that may not manage models', async () => {
    const zip = await zipOf([[`${USED[2]!.label}/a.png`, await twoTonePhoto([9, 9, 9], [8, 8, 8])]]);
    expect((await uploadSet('Twice', zip)).statusCode).toBe(201);
    const twice = await uploadSet('Twice', zip);
    expect([twice.statusCode, twice.json<{ error: { fields: Record<string, string> } }>().error.fields]).toEqual([
      400,
      { name: E.nameTaken },
    ]);
    expect((await uploadSet('  ', zip)).statusCode).toBe(400);
    const rtl = await uploadSet('Field \u202Etset', zip);
    expect([rtl.statusCode, rtl.json<{ error: { fields: Record<string, string> } }>().error.fields.name]).toEqual([
      400,
      'Remove the hidden control characters (U+202E) from this text: they can change how it reads in the farmer app.',
    ]);
    expect((await uploadSet('By an admin', zip, adminCookie)).statusCode).toBe(403);
  });
});
