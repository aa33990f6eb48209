import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { CATALOG_KINDS } from '../../common/catalog';
import { UPLOAD_TEXTS } from '../../common/catalog-texts';
import { expect, test } from './fixtures';
import { signIn, throttleUploads } from './support';

const pest = CATALOG_KINDS.pest.texts;

/** Noisy 400 px PNGs (~440 KB each): big enough to take seconds on the throttled link. */
async function bigPngs(count: number, prefix: string) {
  const files = [];
  for (let i = 0; i < count; i += 1) {
    const buffer = await sharp({
      create: {
        width: 400,
        height: 400,
        channels: 3,
        background: { r: 10 * i, g: 120, b: 40 },
        noise: { type: 'gaussian', mean: 128, sigma: 40 },
      },
    })
      .png()
      .toBuffer();
    files.push({ name: `${prefix}_${i}.png`, mimeType: 'image/png', buffer });
  }
  return files;
}

async function openAdd(page: Page) {
  await page.goto('/dashboard/rice_pests');
  await page.getByRole('button', { name: pest.addButton }).click();
  return page.getByRole('dialog', { name: pest.addTitle });
}

test('Save while photos upload waits for them and saves by itself; Cancel still asks first', async ({ page, app }) => {
  await signIn(page, app, 'SYSTEM_ADMIN');
  // Chrome throttles each request on its own: each photo takes about 5 s however busy the machine.
  await throttleUploads(page, 80 * 1024);
  const dialog = await openAdd(page);
  await dialog.getByLabel('Name', { exact: true }).fill('Slow link stem borer');
  await dialog.getByTestId('upload-input').setInputFiles(await bigPngs(3, 'slow_link'));
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();

  const waiting = dialog.getByTestId('save-queued');
  // One check of both parts: the notice is gone once the last photo is up.
  await expect(waiting).toContainText(/Saving when [1-3] photos? finish(es)? uploading… \([0-2] of 3 photos\)/);
  await expect(dialog.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();
  await page.screenshot({ path: '.tmp/screens/save-queued.png' });

  // Cancel still asks; keeping the uploads keeps the queued save.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  const ask = page.getByRole('dialog', { name: UPLOAD_TEXTS.closeTitle });
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: UPLOAD_TEXTS.keepUploading }).click();
  await expect(waiting).toBeVisible();

  // Nobody touches anything: it saves once the last photo is up.
  await expect(page.getByText(pest.createSuccess)).toBeVisible({ timeout: 40_000 });
  await expect(dialog).toBeHidden();
  const card = page.getByRole('article', { name: 'Slow link stem borer' });
  await expect(card.getByText('3', { exact: true })).toBeVisible();
});

test('a failed photo stops the queued save and is named, with Retry and save', async ({ page, app }) => {
  await signIn(page, app, 'SYSTEM_ADMIN');
  await throttleUploads(page, 250 * 1024);
  const dialog = await openAdd(page);
  await dialog.getByLabel('Name', { exact: true }).fill('Half uploaded leaf folder');
  // The server refuses the second file (not an image inside), like a photo broken in transfer.
  await dialog
    .getByTestId('upload-input')
    .setInputFiles([
      ...(await bigPngs(2, 'leaf_folder')),
      { name: 'broken_transfer.png', mimeType: 'image/png', buffer: Buffer.from('not really a picture '.repeat(50)) },
    ]);
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(dialog.getByTestId('save-queued')).toBeVisible();

  const stopped = dialog.getByTestId('save-stopped');
  await expect(stopped).toContainText(UPLOAD_TEXTS.saveStopped(1), { timeout: 40_000 });
  await expect(stopped.getByRole('listitem')).toHaveText(['broken_transfer.png']);
  await expect(page.getByText(pest.createSuccess)).toBeHidden();

  // Retry and save tries again (the server refuses it again: still stopped, nothing saved).
  await stopped.getByRole('button', { name: UPLOAD_TEXTS.retryAndSave }).click();
  await expect(stopped).toContainText(UPLOAD_TEXTS.saveStopped(1), { timeout: 20_000 });
  // Removing it lets Save go through with the two good photos.
  await dialog.getByRole('button', { name: `${UPLOAD_TEXTS.remove} broken_transfer.png` }).click();
  await expect(stopped).toBeHidden();
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText(pest.createSuccess)).toBeVisible();
  await expect(page.getByRole('article', { name: 'Half uploaded leaf folder' }).getByText('2', { exact: true })).toBeVisible();
});

test('Save pressed when the last photo is up but the progress shown is still behind saves at once', async ({ page, app }) => {
  await page.clock.install();
  // Counts the uploads the page has heard finish (their XMLHttpRequest's loadend).
  await page.addInitScript(() => {
    const w = window as unknown as { uploadsEnded: number };
    w.uploadsEnded = 0;
    const send = XMLHttpRequest.prototype.send;
    XMLHttpRequest.prototype.send = function (this: XMLHttpRequest, ...args: Parameters<XMLHttpRequest['send']>) {
      this.addEventListener('loadend', () => {
        w.uploadsEnded += 1;
      });
      return send.apply(this, args);
    };
  });
  await signIn(page, app, 'SYSTEM_ADMIN');
  const dialog = await openAdd(page);
  await dialog.getByLabel('Name', { exact: true }).fill('Behind the counter leafhopper');
  // The uploads are held at the network until the page's timers stand still: the uploader's
  // counts, refreshed on a timer, then stay behind the files' real states once they finish.
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let held = 0;
  await page.route('**/api/rice_pests/images', async (route) => {
    held += 1;
    await released;
    await route.continue();
  });
  await dialog.getByTestId('upload-input').setInputFiles(await bigPngs(2, 'behind'));
  await expect(dialog.getByTestId('upload-total')).toHaveText(UPLOAD_TEXTS.total(0, 2));
  await expect.poll(() => held).toBe(2);
  await page.clock.pauseAt(Date.now() + 5_000);
  const answers = [page.waitForResponse('**/api/rice_pests/images'), page.waitForResponse('**/api/rice_pests/images')];
  release();
  for (const answer of await Promise.all(answers)) expect(answer.status()).toBe(201);
  await expect.poll(() => page.evaluate(() => (window as unknown as { uploadsEnded: number }).uploadsEnded)).toBe(2);
  await expect(dialog.getByTestId('upload-total')).toHaveText(UPLOAD_TEXTS.total(0, 2));

  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await page.clock.resume();
  await expect(page.getByText(pest.createSuccess)).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('article', { name: 'Behind the counter leafhopper' }).getByText('2', { exact: true })).toBeVisible();
});
