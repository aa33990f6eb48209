import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { CATALOG_KINDS } from '../../common/catalog';
import { DRAFT_TEXTS, UPLOAD_TEXTS } from '../../common/catalog-texts';
import { exifTagsOf, PHONE_EXIF } from '../fixtures/catalog';
import { phonePhoto } from '../fixtures/leaf-photos';
import { expect, test, uniqueTag } from './fixtures';
import { signIn, throttleUploads } from './support';

const pest = CATALOG_KINDS.pest.texts;
const MAKE = 0x010f;

async function openAdd(page: Page) {
  await page.goto('/dashboard/rice_pests');
  await page.getByRole('button', { name: pest.addButton }).click();
  return page.getByRole('dialog', { name: pest.addTitle });
}

/** The saved entry as the API shows it (its photos in order). */
async function entryNamed(page: Page, name: string) {
  const list = (await (await page.request.get(`/api/rice_pests?search=${encodeURIComponent(name)}`)).json()) as {
    items: Array<{ id: string; name: string }>;
  };
  const id = list.items.find((e) => e.name === name)!.id;
  return (await page.request.get(`/api/rice_pests/${id}`)).json() as Promise<{
    images: Array<{ url: string; originalName: string; width: number; height: number; sizeBytes: number }>;
  }>;
}

/** The photo uploads the page sends (a list that grows as they go). */
function watchUploads(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && /\/api\/rice_pests\/images/.test(request.url())) urls.push(request.url());
  });
  return urls;
}

test('phone photos leave the browser at 1600 px with no location, a GPS-tagged HEIC too, and are stored so', async ({ page, app }) => {
  const name = `Rice bug ${uniqueTag()}`;
  const phone = await phonePhoto(3, { exif: PHONE_EXIF });
  const heic = fs.readFileSync(path.join(import.meta.dirname, '../fixtures/phone-gps.heic'));
  await signIn(page, app, 'ADMIN');
  const sent = watchUploads(page);
  const dialog = await openAdd(page);
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByTestId('upload-input').setInputFiles([
    { name: 'IMG_0001.jpg', mimeType: 'image/jpeg', buffer: phone },
    { name: 'IMG_0002.HEIC', mimeType: 'image/heic', buffer: heic },
  ]);
  await expect(dialog.getByTestId('upload-total')).toHaveText(UPLOAD_TEXTS.total(2, 2), { timeout: 30_000 });
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText(pest.createSuccess)).toBeVisible();

  // The 3 MB phone photo went as a small JPEG: what the server received and stored.
  expect(sent).toHaveLength(2);
  const entry = await entryNamed(page, name);
  expect(entry.images[0]!.sizeBytes * 6).toBeLessThan(phone.length);
  expect(entry.images.map((i) => i.originalName)).toEqual(['IMG_0001.jpg', 'IMG_0002.jpg']);
  for (const image of entry.images) {
    const stored = await (await page.request.get(image.url)).body();
    const meta = await sharp(stored).metadata();
    expect(Math.max(meta.width!, meta.height!)).toBeLessThanOrEqual(1600);
    const tags = await exifTagsOf(stored);
    expect(tags?.gps ?? []).toEqual([]);
    if (image.originalName === 'IMG_0001.jpg') expect(tags!.ifd0).toContain(MAKE);
  }
});

test('a super admin keeps an original at full size with "Keep originals"', async ({ page, app }) => {
  const name = `Armyworm ${uniqueTag()}`;
  await signIn(page, app, 'SYSTEM_ADMIN');
  const dialog = await openAdd(page);
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByTestId('keep-originals').check();
  await dialog
    .getByTestId('upload-input')
    .setInputFiles([{ name: 'IMG_0100.jpg', mimeType: 'image/jpeg', buffer: await phonePhoto(4, { width: 2400, height: 1800 }) }]);
  await expect(dialog.getByTestId('upload-total')).toHaveText(UPLOAD_TEXTS.total(1, 1), { timeout: 30_000 });
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText(pest.createSuccess)).toBeVisible();
  expect((await entryNamed(page, name)).images[0]).toMatchObject({ width: 2400, height: 1800 });
});

test('a closed tab loses nothing: the add form comes back as a draft, the rest uploads, and every photo is saved once, in order', async ({
  page,
  app,
  context,
}) => {
  const name = `Whorl maggot ${uniqueTag()}`;
  // Files on disk, as a phone folder is: their dates stay the same when they are chosen again.
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'palayan-phone-'));
  const names = Array.from({ length: 8 }, (_, i) => `IMG_${String(i + 1).padStart(4, '0')}.jpg`);
  for (const [i, file] of names.entries()) fs.writeFileSync(path.join(folder, file), await phonePhoto(20 + i, { width: 900, height: 675 }));
  const files = names.map((file) => path.join(folder, file));
  await signIn(page, app, 'ADMIN');
  await throttleUploads(page, 100 * 1024);
  const dialog = await openAdd(page);
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByLabel('Treatments').fill('Drain the field for a few days.');
  await dialog.getByTestId('upload-input').setInputFiles(files);
  // About half are up and the draft says so: then the tab is closed.
  await expect(dialog.getByTestId('upload-total')).toHaveText(/^[3-7] of 8 photos$/, { timeout: 30_000 });
  await expect
    .poll(async () => ((await (await page.request.get('/api/rice_pests/draft')).json()) as { uploaded: number } | null)?.uploaded ?? 0, {
      timeout: 20_000,
      intervals: [250],
    })
    .toBeGreaterThanOrEqual(3);
  await page.close();

  const again = await context.newPage();
  await again.goto('/dashboard/rice_pests');
  await again.getByRole('button', { name: pest.addButton }).click();
  const form = again.getByRole('dialog', { name: pest.addTitle });
  const offer = form.getByTestId('draft-offer');
  await expect(offer).toContainText(/Continue the unsaved entry \([3-7] of 8 photos uploaded\)/);
  await form.screenshot({ path: '.tmp/screens/draft-offer.png' });
  await offer.getByRole('button', { name: DRAFT_TEXTS.continue }).click();
  await expect(form.getByLabel('Name', { exact: true })).toHaveValue(name);
  await expect(form.getByLabel('Treatments')).toHaveValue('Drain the field for a few days.');
  await expect(form.getByTestId('draft-missing')).toContainText('not yet uploaded');
  await form.getByRole('region', { name: 'Images' }).screenshot({ path: '.tmp/screens/draft-continue.png' });
  // The same folder again: only the photos not yet uploaded are sent.
  const sent = watchUploads(again);
  await form.getByTestId('upload-input').setInputFiles(files);
  await expect(form.getByTestId('upload-total')).toHaveText(UPLOAD_TEXTS.total(8, 8), { timeout: 30_000 });
  expect(sent.length).toBeLessThanOrEqual(5);
  await form.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(again.getByText(pest.createSuccess)).toBeVisible();
  const entry = await entryNamed(again, name);
  expect(entry.images.map((i) => i.originalName)).toEqual(names);
  expect(await (await again.request.get('/api/rice_pests/draft')).json()).toBeNull();
  fs.rmSync(folder, { recursive: true, force: true });
});

test('a dropped connection pauses the uploads, which resume by themselves when it returns', async ({ page, app }) => {
  const name = `Green leafhopper ${uniqueTag()}`;
  const files = [];
  for (let i = 1; i <= 4; i += 1)
    files.push({ name: `LH_${i}.jpg`, mimeType: 'image/jpeg', buffer: await phonePhoto(40 + i, { width: 900, height: 675 }) });
  await signIn(page, app, 'ADMIN');
  const link = await throttleUploads(page, 40 * 1024);
  const dialog = await openAdd(page);
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  const started = page.waitForRequest((r) => r.method() === 'POST' && r.url().includes('/api/rice_pests/images'));
  await dialog.getByTestId('upload-input').setInputFiles(files);
  await started;
  await page.context().setOffline(true);
  await expect(dialog.getByTestId('upload-paused')).toBeVisible({ timeout: 15_000 });
  await expect(dialog.getByText(UPLOAD_TEXTS.failed)).toHaveCount(0);
  await dialog.getByRole('region', { name: 'Images' }).screenshot({ path: '.tmp/screens/upload-paused.png' });
  await page.context().setOffline(false);
  await link.restore();
  await expect(dialog.getByTestId('upload-total')).toHaveText(UPLOAD_TEXTS.total(4, 4), { timeout: 40_000 });
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText(pest.createSuccess)).toBeVisible();
  expect((await entryNamed(page, name)).images.map((i) => i.originalName)).toEqual(files.map((f) => f.name));
});
