import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { loginAs, makeAccount } from '../fixtures/factories.js';

/** Reads a ZIP's entries through its central directory (stored entries, as the export writes them), in order. */
function readZip(buf: Buffer): Map<string, Buffer> {
  const eocd = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  // The export always writes the ZIP64 end record (see the service), so counts and offsets are read from it.
  const zip64 = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x06, 0x06]), eocd);
  expect(zip64).toBeGreaterThan(0);
  expect(buf.readUInt16LE(eocd + 10)).toBe(0xffff);
  const count = Number(buf.readBigUInt64LE(zip64 + 32));
  let p = Number(buf.readBigUInt64LE(zip64 + 48));
  const out = new Map<string, Buffer>();
  for (let i = 0; i < count; i += 1) {
    expect(buf.readUInt32LE(p)).toBe(0x02014b50);
    const method = buf.readUInt16LE(p + 10);
    const size = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.subarray(p + 46, p + 46 + nameLen).toString('utf8');
    expect(method).toBe(0);
    expect(buf.readUInt32LE(local)).toBe(0x04034b50);
    const dataStart = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    out.set(name, buf.subarray(dataStart, dataStart + size));
    p += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

/** metadata.csv as csv-file.ts writes it: a UTF-8 BOM first (checked, then dropped), CRLF line ends. */
function csv(text: string): Record<string, string>[] {
  expect(text.startsWith('\ufeff')).toBe(true);
  return parseCsv(text, { columns: true, bom: true });
}

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await createTestApp();
  cookie = await loginAs(t.app, await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' }));
});
afterAll(async () => {
  await t.close();
});

let clock = Date.parse('2026-01-01T00:00:00Z');
const photo = (seed: number, size = 300) => Buffer.from(Array.from({ length: size }, (_, i) => (i * seed + seed) % 256));
const store = new Map<string, Buffer>();

async function addPhotos(id: string, from: number, count: number) {
  for (let position = from; position < from + count; position += 1) {
    const body = photo(position + id.length * 7);
    const key = `rice_disease/${id}/${position}_${id}_p${position}.JPG`;
    await t.ctx.storage.put(key, body);
    store.set(`${id}-${position}`, body);
    await t.ctx.db
      .insertInto('catalog_images')
      .values({
        id: `${id}-${position}`,
        collection: 'rice_local_diseases',
        entryId: id,
        position,
        status: 'ready',
        originalKey: key,
        displayKey: null,
        thumbKey: null,
        externalUrl: null,
        mimeType: 'image/jpeg',
        sizeBytes: body.length,
        width: 640,
        height: 480,
        originalName: `leaf ${position}.jpg`,
        sha256: `sha-${id}-${position}`,
        uploadedBy: null,
        createdAt: new Date().toISOString(),
        linkedAt: new Date().toISOString(),
        // Stored as uploads are: without location metadata.
        locationCleaned: 1,
      })
      .execute();
  }
}

async function disease(id: string, name: string, photos: number, extra: Record<string, unknown> = {}) {
  clock += 1000;
  await t.ctx.db
    .insertInto('rice_local_diseases')
    .values({ id, name, scientificName: `${name} sp.`, isDeleted: 0, createdAt: new Date(clock).toISOString(), ...extra })
    .execute();
  await addPhotos(id, 0, photos);
}

async function download(query = '') {
  const res = await t.app.inject({ url: `/api/training-sets/diseases${query}`, headers: { cookie } });
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
  const entries = readZip(res.rawPayload);
  return { res, entries, meta: csv(entries.get('metadata.csv')!.toString('utf8')) };
}

describe('training-set export (image-folder layout)', () => {
  beforeAll(async () => {
    await disease('blast1', 'Rice blast', 400);
    await disease('blb', 'Bacterial leaf blight', 100);
    await disease('tungro', 'Tungro', 12);
    await disease('healthy', 'Healthy leaf', 30, { isTrainingClass: 1 });
    await disease('blast2', 'Rice Blast!', 5); // a second record whose slug collides
    await disease('eto', 'Étoile', 3);
    await disease('gone', 'Deleted one', 4, { isDeleted: 1 });
  });

  it('is for super admins only', async () => {
    const admin = await makeAccount(t.ctx, { role: 'ADMIN' });
    expect((await t.app.inject({ url: '/api/training-sets/diseases', headers: { cookie: await loginAs(t.app, admin) } })).statusCode).toBe(
      403,
    );
  });

  it("puts every live photo byte for byte under <split>/<label>/<photo id>.<ext>, with labels.txt in the tools' order", async () => {
    const { res, entries, meta } = await download();
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toContain('training-set-all-diseases.zip');
    const names = [...entries.keys()];
    expect(names.slice(0, 4)).toEqual(['README.md', 'labels.txt', 'label_map.json', 'metadata.csv']);
    const labels = entries.get('labels.txt')!.toString('utf8').split('\n').filter(Boolean);
    // Code-point order (Python's sorted(), as torchvision, Keras and datasets number classes).
    expect(labels).toEqual(['bacterial-leaf-blight', 'etoile', 'healthy-leaf', 'rice-blast', 'rice-blast-2', 'tungro']);
    const map = JSON.parse(entries.get('label_map.json')!.toString('utf8'));
    expect(map.labels).toEqual(labels);
    expect(map.label_to_index).toEqual(Object.fromEntries(labels.map((l, i) => [l, i])));
    expect(map.classes.find((c: { label: string }) => c.label === 'healthy-leaf')).toMatchObject({
      index: 2,
      disease_id: 'healthy',
      training_class: true,
      photos: 30,
    });
    expect(map.classes.find((c: { label: string }) => c.label === 'rice-blast')).toMatchObject({
      disease_id: 'blast1',
      training_class: false,
    });
    expect(map.classes.find((c: { label: string }) => c.label === 'rice-blast-2')).toMatchObject({ disease_id: 'blast2' });
    const photos = names.slice(4);
    expect(photos).toHaveLength(400 + 100 + 12 + 30 + 5 + 3);
    expect(meta).toHaveLength(photos.length);
    expect(names.some((n) => n.includes('gone'))).toBe(false);
    for (const name of photos) expect(name).toMatch(/^(train|validation|test)\/[a-z0-9-]+\/[\w-]+\.jpg$/);
    // Ordered by split, then label.
    const splitsInOrder = photos.map((n) => n.split('/')[0]);
    expect(splitsInOrder.indexOf('validation')).toBeGreaterThan(splitsInOrder.lastIndexOf('train'));
    expect(splitsInOrder.indexOf('test')).toBeGreaterThan(splitsInOrder.lastIndexOf('validation'));
    const row = meta.find((m) => m.image_id === 'blb-7')!;
    expect(Object.keys(row)).toEqual([
      'file_name',
      'label',
      'split',
      'disease_id',
      'image_id',
      'sha256',
      'width',
      'height',
      'uploaded_at',
      'taken_at',
      'camera_make',
      'camera_model',
      'phash',
      'cluster',
      'quality_flags',
    ]);
    // A photo without a copy is a cluster of its own; one without a fingerprint has no hash or flags.
    expect(row).toMatchObject({ phash: '', cluster: 'blb-7', quality_flags: '' });
    expect(row).toMatchObject({
      file_name: `${row.split}/bacterial-leaf-blight/blb-7.jpg`,
      label: 'bacterial-leaf-blight',
      disease_id: 'blb',
      sha256: 'sha-blb-7',
      width: '640',
      height: '480',
    });
    for (const m of meta) {
      expect(entries.get(m.file_name)!.equals(store.get(m.image_id)!)).toBe(true);
      expect(m.file_name.startsWith(`${m.split}/${m.label}/`)).toBe(true);
    }
    const readme = entries.get('README.md')!.toString('utf8');
    expect(readme).toContain('ImageFolder("train")');
    expect(readme).toContain('image_dataset_from_directory("train"');
    expect(readme).toContain('load_dataset("imagefolder"');
    expect(readme).toContain('seed `palayan`');
  });

  it('splits each disease 80/10/10 by default, the same way every time, and keeps a photo in its split when photos are added', async () => {
    const first = await download();
    const second = await download();
    expect(second.entries.get('metadata.csv')!.equals(first.entries.get('metadata.csv')!)).toBe(true);
    // Stratified: each class is split on its own, near the ratios (within 3 standard deviations
    // of a binomial share: a photo's split depends on its id only), with photos in every split.
    for (const [label, n] of [
      ['rice-blast', 400],
      ['bacterial-leaf-blight', 100],
    ] as const) {
      const rows = first.meta.filter((m) => m.label === label);
      expect(rows).toHaveLength(n);
      const share = (s: string) => rows.filter((m) => m.split === s).length / n;
      for (const [s, p] of [
        ['train', 0.8],
        ['validation', 0.1],
        ['test', 0.1],
      ] as const) {
        const sigma = Math.sqrt((p * (1 - p)) / n);
        expect(Math.abs(share(s) - p), `${label} ${s}`).toBeLessThan(3 * sigma);
        expect(share(s)).toBeGreaterThan(0);
      }
    }
    const before = new Map(first.meta.map((m) => [m.image_id, m.split]));
    await addPhotos('blb', 100, 50);
    const after = await download();
    expect(after.meta.filter((m) => m.label === 'bacterial-leaf-blight')).toHaveLength(150);
    for (const m of after.meta) if (before.has(m.image_id)) expect(m.split).toBe(before.get(m.image_id));
  });

  it('takes ratios and a seed as query parameters, and refuses ratios that do not add up', async () => {
    const base = await download();
    const seeded = await download('?seed=other');
    const moved = seeded.meta.filter((m) => base.meta.find((b) => b.image_id === m.image_id)!.split !== m.split);
    expect(moved.length).toBeGreaterThan(50);
    expect(seeded.entries.get('README.md')!.toString('utf8')).toContain('seed `other`');
    const half = await download('?train=0.5&validation=0.25&test=0.25');
    const blast = half.meta.filter((m) => m.label === 'rice-blast');
    const trainShare = blast.filter((m) => m.split === 'train').length / blast.length;
    expect(trainShare).toBeGreaterThan(0.42);
    expect(trainShare).toBeLessThan(0.58);
    expect(JSON.parse(half.entries.get('label_map.json')!.toString('utf8')).split).toEqual({
      train: 0.5,
      validation: 0.25,
      test: 0.25,
      seed: 'palayan',
    });
    for (const bad of ['?train=0.9&validation=0.2&test=0.1', '?train=2', '?train=abc', '?layout=nested', '?seed=a%2Fb']) {
      const res = await t.app.inject({ url: `/api/training-sets/diseases${bad}`, headers: { cookie } });
      expect(res.statusCode, bad).toBe(400);
    }
  });

  it('layout=flat: one folder per label, no split', async () => {
    const { entries, meta, res } = await download('?layout=flat');
    expect(res.headers['content-disposition']).toContain('training-set-all-diseases-flat.zip');
    const photos = [...entries.keys()].slice(4);
    for (const name of photos) expect(name).toMatch(/^images\/[a-z0-9-]+\/[\w-]+\.jpg$/);
    expect(meta.every((m) => m.split === '')).toBe(true);
    expect(entries.get('README.md')!.toString('utf8')).toContain('ImageFolder("images")');
  });

  it('exports one disease under its label, and 404 for an unknown or deleted one', async () => {
    const one = await download('?diseaseId=blast2');
    expect(one.res.headers['content-disposition']).toContain('training-set-rice-blast-2.zip');
    expect(one.entries.get('labels.txt')!.toString('utf8')).toBe('rice-blast-2\n');
    expect(one.meta).toHaveLength(5);
    for (const id of ['gone', 'nope']) {
      expect((await t.app.inject({ url: `/api/training-sets/diseases?diseaseId=${id}`, headers: { cookie } })).statusCode).toBe(404);
    }
  });
});

describe('training-set metadata.csv', () => {
  it('writes a disease id that looks like a formula as text', async () => {
    const id = '@SUM(1+1)';
    await disease(id, 'Sheath rot', 2);
    try {
      const { entries } = await download(`?diseaseId=${encodeURIComponent(id)}`);
      const rows = entries
        .get('metadata.csv')!
        .toString('utf8')
        .replace(/^\ufeff/, '')
        .trim()
        .split('\r\n')
        .slice(1);
      expect(rows).toHaveLength(2);
      for (const row of rows) expect(row.split(',')[3]).toBe(`'${id}`);
    } finally {
      await t.ctx.db.deleteFrom('catalog_images').where('entryId', '=', id).execute();
      await t.ctx.db.deleteFrom('rice_local_diseases').where('id', '=', id).execute();
    }
  });
});

describe('training-set export of a large photo set', () => {
  it("declares the exact length when the ZIP's central directory passes 64 KiB (900 photos)", async () => {
    await disease('bigset', 'Sheath blight', 900);
    const { res, entries, meta } = await download('?diseaseId=bigset');
    expect(Number(res.headers['x-photo-count'])).toBe(900);
    expect(meta).toHaveLength(900);
    expect([...entries.keys()].filter((k) => k.endsWith('.jpg'))).toHaveLength(900);
    expect(entries.get(meta[0]!.file_name!)!.equals(store.get(meta[0]!.image_id!)!)).toBe(true);
  });
});

describe('training-set export: copies never straddle the split, conflicting labels are left out', () => {
  const H = 'c3a51e0f96b2d478';
  /** The hash with `bits` of its lowest bits flipped. */
  const flip = (hex: string, bits: number) => (BigInt(`0x${hex}`) ^ ((1n << BigInt(bits)) - 1n)).toString(16).padStart(16, '0');
  const setPhoto = (id: string, values: Record<string, unknown>) =>
    t.ctx.db.updateTable('catalog_images').set(values).where('id', '=', id).execute();

  beforeAll(async () => {
    await disease('dupx', 'Leaf scald', 60);
    await disease('dupy', 'Brown spot', 2);
    await disease('dupz', 'Narrow brown spot', 1);
    // dupx-0 and the copies of it made later: near hashes, and the same bytes again.
    await setPhoto('dupx-0', { phash: H, linkedAt: '2025-01-01T00:00:00.000Z', sharpness: 12, brightness: 30, entropy: 6.5 });
    for (let i = 1; i <= 40; i += 1) await setPhoto(`dupx-${i}`, { phash: flip(H, 1 + (i % 9)), linkedAt: '2025-06-01T00:00:00.000Z' });
    await setPhoto('dupx-41', { sha256: 'sha-dupx-0', linkedAt: '2025-06-01T00:00:00.000Z' });
    // One picture in two diseases.
    await setPhoto('dupy-0', { phash: flip(H.split('').reverse().join(''), 0) });
    await setPhoto('dupz-0', { phash: flip(H.split('').reverse().join(''), 3) });
  });

  it('puts a photo and all its copies in one split, named by the earliest, with its quality flags', async () => {
    const { meta, entries } = await download('?diseaseId=dupx');
    const copies = meta.filter((m) => m.cluster === 'dupx-0');
    expect(copies).toHaveLength(42);
    // 42 photos drawn on their own would land in more than one split with near certainty.
    expect(new Set(copies.map((m) => m.split)).size).toBe(1);
    expect(meta.filter((m) => m.cluster !== 'dupx-0').every((m) => m.cluster === m.image_id)).toBe(true);
    expect(meta.find((m) => m.image_id === 'dupx-0')).toMatchObject({ phash: H, quality_flags: 'blurry;dark' });
    expect(entries.get('README.md')!.toString('utf8')).toContain('42 photos here are in 1 clusters of two or more');
  });

  it('leaves out photos that are copies across diseases unless conflicts=include', async () => {
    const all = await download();
    expect(all.meta.some((m) => m.image_id === 'dupy-0' || m.image_id === 'dupz-0')).toBe(false);
    expect(all.meta.some((m) => m.image_id === 'dupy-1')).toBe(true);
    expect(all.entries.get('README.md')!.toString('utf8')).toContain('2 photos are copies of photos of another disease');
    const one = await download('?diseaseId=dupz');
    expect(one.meta).toHaveLength(0);
    const kept = await download('?conflicts=include');
    const pair = kept.meta.filter((m) => m.image_id === 'dupy-0' || m.image_id === 'dupz-0');
    expect(pair).toHaveLength(2);
    expect(pair[0]!.cluster).toBe(pair[1]!.cluster);
  });
});
