import http from 'node:http';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AVATAR } from '../../common/profile.js';
import { isReservedAddress } from '../../server/modules/operations/migration/image-fetch.js';
import { importFirestoreExport, type ImportOptions } from '../../server/modules/operations/migration/importer.js';
import { readStored } from '../../server/platform/storage/stored-files.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { exifTagsOf, jpegWithGps, PHONE_EXIF } from '../fixtures/catalog.js';

const SMALL = await jpegWithGps(64, 48);
const LARGE = await jpegWithGps(1200, 900);
const CAP = 200_000;
const JUNK_TOTAL = 64 * 1024 * 1024;

let t: TestApp;
let server: http.Server;
let base: string;
const requested: string[] = [];
let junkWritten = 0;

/** Writes a JPEG's start, then junk until the client hangs up (chunked: no Content-Length). */
async function endlessJpeg(res: http.ServerResponse): Promise<void> {
  res.writeHead(200, { 'content-type': 'image/jpeg' });
  res.write(SMALL.subarray(0, 64));
  const chunk = Buffer.alloc(64 * 1024, 0x41);
  while (!res.destroyed && junkWritten < JUNK_TOTAL) {
    junkWritten += chunk.length;
    if (!res.write(chunk)) {
      await new Promise<void>((resolve) => {
        const go = () => {
          res.off('drain', go);
          res.off('close', go);
          resolve();
        };
        res.on('drain', go).on('close', go);
      });
    }
  }
  res.end();
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    requested.push(req.url!);
    if (req.url === '/small.jpg') {
      res.writeHead(200, { 'content-type': 'image/jpeg' });
      res.end(SMALL);
      return;
    }
    if (req.url === '/large.jpg') {
      res.writeHead(200, { 'content-type': 'image/jpeg' });
      res.end(LARGE);
      return;
    }
    if (req.url === '/moved.jpg') {
      res.writeHead(302, { location: '/small.jpg?after-redirect' }).end();
      return;
    }
    if (req.url === '/endless.jpg') {
      void endlessJpeg(res);
      return;
    }
    if (req.url === '/stalls.jpg') {
      res.writeHead(200, { 'content-type': 'image/jpeg' });
      res.write(SMALL.subarray(0, 64));
      return;
    }
    if (req.url === '/page.html') {
      res.writeHead(200, { 'content-type': 'image/jpeg' });
      res.end('<svg xmlns="http://www.w3.org/2000/svg"/>');
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
  server.closeAllConnections();
  server.close();
});

const account = (id: string, photoURL: string) =>
  [id, { username: id, email: `${id}@tarlac.example`, password: 'Legacy#2024', role: 'ADMIN', photoURL }] as const;

async function importAccounts(accounts: ReadonlyArray<readonly [string, object]>, options: ImportOptions) {
  return importFirestoreExport(
    t.ctx,
    { accounts: Object.fromEntries(accounts) },
    { fetchImages: true, fetchTimeoutMs: 2000, maxImageBytes: CAP, ...options },
  );
}

async function photoOf(id: string): Promise<string | null> {
  return (await t.ctx.db.selectFrom('accounts').select('photoURL').where('id', '=', id).executeTakeFirstOrThrow()).photoURL;
}

async function storedAvatar(id: string): Promise<Buffer> {
  const url = await photoOf(id);
  expect(url).toMatch(new RegExp(`^/api/files/avatars/${id}/avatar_imported_[0-9a-f]{8}\\.jpg$`));
  return readStored(t.ctx.storage, decodeURIComponent(url!.slice('/api/files/'.length)));
}

describe('profile pictures of imported accounts', () => {
  it('stores a fetched picture without its location, at most the profile picture size', async () => {
    expect((await exifTagsOf(SMALL))!.gps.length).toBeGreaterThan(0);
    const report = await importAccounts([account('ava_small', `${base}/small.jpg`), account('ava_large', `${base}/large.jpg`)], {
      allowPrivateAddresses: true,
    });
    expect(report.counts.accounts).toMatchObject({ created: 2, skipped: 0 });
    expect(report.images.fetched).toBe(2);
    expect(report.problems).toEqual([]);
    for (const id of ['ava_small', 'ava_large']) {
      const stored = await storedAvatar(id);
      expect((await exifTagsOf(stored))?.gps ?? [], id).toEqual([]);
      expect(stored.includes(Buffer.from(PHONE_EXIF.IFD0.Artist)), id).toBe(false);
      expect(stored.includes(Buffer.from(PHONE_EXIF.IFD2.BodySerialNumber)), id).toBe(false);
      const meta = await sharp(stored).metadata();
      expect(Math.max(meta.width!, meta.height!), id).toBeLessThanOrEqual(AVATAR.maxSide);
    }
    // The small one's picture is not re-encoded: the same pixels.
    expect(
      (
        await sharp(await storedAvatar('ava_small'))
          .raw()
          .toBuffer()
      ).equals(await sharp(SMALL).raw().toBuffer()),
    ).toBe(true);
  });

  it('follows no redirect, cuts off a body past the cap, gives up on one that stalls: the accounts are imported without a picture', async () => {
    const report = await importAccounts(
      [
        account('ava_moved', `${base}/moved.jpg`),
        account('ava_endless', `${base}/endless.jpg`),
        account('ava_stalls', `${base}/stalls.jpg`),
        account('ava_svg', `${base}/page.html`),
        account('ava_data', 'data:image/jpeg;base64,/9j/4AAQ'),
      ],
      { allowPrivateAddresses: true, fetchTimeoutMs: 500 },
    );
    expect(report.counts.accounts).toMatchObject({ created: 5, skipped: 0 });
    expect(report.images.fetched).toBe(0);
    expect(requested).not.toContain('/small.jpg?after-redirect');
    expect(junkWritten).toBeLessThan(JUNK_TOTAL / 4);
    expect(report.problems).toEqual([
      expect.stringMatching(/^accounts\/ava_moved: .*redirect \(HTTP 302\) not followed/),
      expect.stringMatching(new RegExp(`^accounts/ava_endless: .*larger than ${CAP} bytes`)),
      expect.stringMatching(/^accounts\/ava_stalls: .*not fetched within 500 ms/),
      expect.stringMatching(/^accounts\/ava_svg: .*not an accepted image \(svg\)/),
      expect.stringMatching(/^accounts\/ava_data: .*not an http\(s\) link/),
    ]);
    for (const id of ['ava_moved', 'ava_endless', 'ava_stalls', 'ava_svg', 'ava_data']) expect(await photoOf(id), id).toBeNull();
  });

  it('refuses loopback, private and link-local addresses unless told otherwise', async () => {
    const before = requested.length;
    const port = new URL(base).port;
    const report = await importAccounts(
      [
        account('ava_loopback', `${base}/small.jpg`),
        account('ava_localhost', `http://localhost:${port}/small.jpg`),
        account('ava_mapped', `http://[::ffff:127.0.0.1]:${port}/small.jpg`),
      ],
      {},
    );
    expect(report.counts.accounts).toMatchObject({ created: 3 });
    expect(requested.length).toBe(before);
    expect(report.problems).toEqual([
      expect.stringMatching(/^accounts\/ava_loopback: .*127\.0\.0\.1 is a private or reserved address/),
      expect.stringMatching(/^accounts\/ava_localhost: .*localhost resolves to .*, a private or reserved address/),
      expect.stringMatching(/^accounts\/ava_mapped: .*is a private or reserved address/),
    ]);
    for (const id of ['ava_loopback', 'ava_localhost', 'ava_mapped']) expect(await photoOf(id), id).toBeNull();
    for (const address of [
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fd00::1',
      'fe80::1',
      '::ffff:10.0.0.1',
    ]) {
      expect(isReservedAddress(address), address).toBe(true);
    }
    for (const address of ['142.250.72.10', '2607:f8b0:4004:c07::64']) expect(isReservedAddress(address), address).toBe(false);
  });
});
