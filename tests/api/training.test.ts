import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { loginAs, makeAccount } from '../fixtures/factories.js';

/** Reads a ZIP's entries through its central directory (stored entries, as the export writes them). */
function readZip(buf: Buffer): Map<string, Buffer> {
  const eocd = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
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
    const dataStart = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    out.set(name, buf.subarray(dataStart, dataStart + size));
    p += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

async function disease(id: string, name: string, photos: Buffer[], extra: Record<string, unknown> = {}) {
  await t.ctx.db.insertInto('rice_local_diseases').values({ id, name, scientificName: `${name} sp.`, isDeleted: 0, createdAt: new Date().toISOString(), ...extra }).execute();
  for (const [position, body] of photos.entries()) {
    const key = `rice_disease/${name}/${position}_${id}_p${position}.jpg`;
    await t.ctx.storage.put(key, body);
    await t.ctx.db.insertInto('catalog_images').values({
      id: `${id}-${position}`, collection: 'rice_local_diseases', entryId: id, position, status: 'ready', originalKey: key,
      displayKey: null, thumbKey: null, externalUrl: null, mimeType: 'image/jpeg', sizeBytes: body.length, width: null, height: null,
      originalName: `leaf ${position}.jpg`, sha256: null, uploadedBy: null, createdAt: new Date().toISOString(), linkedAt: new Date().toISOString(),
    }).execute();
  }
}

const photo = (seed: number, size = 3000) => Buffer.from(Array.from({ length: size }, (_, i) => (i * seed) % 256));

describe('training-set export', () => {
  it('streams every live disease as a folder of byte-identical originals with a manifest, for a super admin only', async () => {
    await disease('d1', 'Rice blast', [photo(3), photo(5), photo(7, 10_000)]);
    await disease('d2', 'Bacterial leaf blight', [photo(11)]);
    await disease('d3', 'Deleted one', [photo(13)], { isDeleted: 1 });
    const admin = await makeAccount(t.ctx, { role: 'ADMIN' });
    expect((await t.app.inject({ url: '/api/training-sets/diseases', headers: { cookie: await loginAs(t.app, admin) } })).statusCode).toBe(403);
    const boss = await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' });
    const res = await t.app.inject({ url: '/api/training-sets/diseases', headers: { cookie: await loginAs(t.app, boss) } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    const entries = readZip(res.rawPayload);
    expect([...entries.keys()]).toEqual([
      'Bacterial leaf blight/0001_leaf 0.jpg',
      'Rice blast/0001_leaf 0.jpg', 'Rice blast/0002_leaf 1.jpg', 'Rice blast/0003_leaf 2.jpg',
      'manifest.csv',
    ]);
    expect(entries.get('Rice blast/0003_leaf 2.jpg')!.equals(photo(7, 10_000))).toBe(true);
    expect(entries.get('Bacterial leaf blight/0001_leaf 0.jpg')!.equals(photo(11))).toBe(true);
    const manifest = entries.get('manifest.csv')!.toString('utf8').trim().split('\n');
    expect(manifest[0]).toBe('file,disease,scientificName,uploadedAt,size');
    expect(manifest).toHaveLength(5);
    expect(manifest[4]).toMatch(/^Rice blast\/0003_leaf 2\.jpg,Rice blast,Rice blast sp\.,.+,10000$/);
  });

  it('exports one disease, and 404 for an unknown or deleted one', async () => {
    const boss = await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' });
    const cookie = await loginAs(t.app, boss);
    const one = await t.app.inject({ url: '/api/training-sets/diseases?diseaseId=d2', headers: { cookie } });
    expect([...readZip(one.rawPayload).keys()]).toEqual(['Bacterial leaf blight/0001_leaf 0.jpg', 'manifest.csv']);
    expect(one.headers['content-disposition']).toContain('training-set-Bacterial_leaf_blight.zip');
    expect((await t.app.inject({ url: '/api/training-sets/diseases?diseaseId=d3', headers: { cookie } })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/api/training-sets/diseases?diseaseId=nope', headers: { cookie } })).statusCode).toBe(404);
  });
});
