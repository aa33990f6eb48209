import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { CATALOG_KINDS } from '../../common/catalog';
import { CATALOG_LABELS, DRAFT_TEXTS, PHOTO_ORDER_TEXTS, UPLOAD_TEXTS } from '../../common/catalog-texts';
import { COLLECTIONS } from '../../common/collections';
import { TRASH } from '../../common/trash';
import { E2E } from '../../playwright.config';
import { expect, test } from './fixtures';
import { signIn, throttleUploads } from './support';
import { axeViolations } from './axe';

const admin = E2E.admin;
const pest = CATALOG_KINDS.pest.texts;
const disease = CATALOG_KINDS.disease.texts;

/** Small real PNGs, each a different colour. */
async function pngs(count: number, prefix: string, offset = 0) {
  const files = [];
  for (let i = offset; i < offset + count; i += 1) {
    const buffer = await sharp({
      create: { width: 8, height: 8, channels: 3, background: { r: i % 256, g: Math.floor(i / 256) * 40, b: 90 } },
    })
      .png()
      .toBuffer();
    files.push({ name: `${prefix}_${String(i).padStart(4, '0')}.png`, mimeType: 'image/png', buffer });
  }
  return files;
}

/** A noisy 400 px PNG: noise defeats compression, so it stays on the throttled link long enough to press Save while it uploads. */
async function noisyPng(name: string) {
  const buffer = await sharp({
    create: {
      width: 400,
      height: 400,
      channels: 3,
      background: { r: 60, g: 120, b: 40 },
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .png()
    .toBuffer();
  return { name, mimeType: 'image/png', buffer };
}

function card(page: Page, name: string) {
  return page.getByRole('article', { name });
}

test.describe.configure({ mode: 'serial' });

test('a pest is created with 3 photos, edited without losing them, then deleted by typing its name', async ({ page, app }) => {
  await signIn(page, app, 'SYSTEM_ADMIN');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pest' }).click();
  await expect(page.getByRole('heading', { name: pest.title })).toBeVisible();
  await expect(page.getByText(pest.emptyText)).toBeVisible();

  await page.getByRole('button', { name: pest.addButton }).click();
  const dialog = page.getByRole('dialog', { name: pest.addTitle });
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText(pest.nameRequired)).toBeVisible();
  await expect(dialog.getByText(pest.minImages)).toBeVisible();

  await dialog.getByLabel('Name', { exact: true }).fill('  Rice bug  ');
  await dialog.getByLabel('Scientific Name').fill('Leptocorisa oratorius');
  await dialog.getByLabel('Description').fill('A slender bug that feeds on developing grains.');
  await dialog.getByTestId('upload-input').setInputFiles(await pngs(3, 'rice_bug'));
  await expect(dialog.getByTestId('upload-total')).toHaveText(UPLOAD_TEXTS.total(3, 3));
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(pest.createSuccess)).toBeVisible();
  await expect(dialog).toBeHidden();

  const rice = card(page, 'Rice bug');
  await expect(rice).toBeVisible();
  await expect(rice.getByText('Leptocorisa oratorius')).toHaveClass(/italic/);
  await expect(rice.getByRole('img', { name: 'Rice bug' })).toBeVisible();

  // View: every field and all three photos.
  await rice.getByRole('button', { name: 'View Rice bug' }).click();
  const view = page.getByRole('dialog', { name: 'Rice bug' });
  await expect(view.getByText('A slender bug that feeds on developing grains.')).toBeVisible();
  await expect(view.getByTestId('grid-image')).toHaveCount(3);
  await view.getByRole('button', { name: 'Close' }).first().click();

  // Edit text only: the photos stay.
  await rice.getByRole('button', { name: 'Edit Rice bug' }).click();
  const edit = page.getByRole('dialog', { name: pest.editTitle });
  await expect(edit.getByTestId('current-image')).toHaveCount(3);
  await edit.getByLabel('Description').fill('Updated: a slender bug that sucks the milk of developing grains.');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(pest.updateSuccess)).toBeVisible();
  await expect(rice.getByText('Updated: a slender bug')).toBeVisible();
  await expect(rice.getByText('3', { exact: true })).toBeVisible();
  await expect(page.getByText(pest.updateSuccess)).toBeHidden();

  // Edit again: remove one photo and add one.
  await rice.getByRole('button', { name: 'Edit Rice bug' }).click();
  await edit.getByRole('button', { name: 'Remove image 2' }).click();
  await expect(edit.getByText('1 image will be removed when you save.')).toBeVisible();
  await edit.getByTestId('upload-input').setInputFiles(await pngs(1, 'extra', 50));
  await expect(edit.getByTestId('upload-total')).toHaveText(UPLOAD_TEXTS.total(1, 1));
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(pest.updateSuccess)).toBeVisible();
  await rice.getByRole('button', { name: 'View Rice bug' }).click();
  await expect(view.getByTestId('grid-image')).toHaveCount(3);
  await view.getByRole('button', { name: 'Close' }).first().click();

  // Delete by typing the name (trimmed for pests).
  await rice.getByRole('button', { name: 'Delete Rice bug' }).click();
  const confirm = page.getByRole('dialog', { name: pest.deleteTitle });
  await confirm.getByRole('textbox').fill('Rice bugs');
  await expect(confirm.getByText(pest.deleteMismatch)).toBeVisible();
  await expect(confirm.getByRole('button', { name: 'Delete' })).toBeDisabled();
  await confirm.getByRole('textbox').fill('  Rice bug ');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(pest.deleteSuccess)).toBeVisible();
  await expect(rice).toBeHidden();
  await expect(page.getByText(pest.emptyText)).toBeVisible();
});

test('a disease needs 800 photos: created through the real dialog, edited with its photos kept, deleted by exact name', async ({
  page,
  app,
}) => {
  test.setTimeout(240_000);
  await signIn(page, app, 'SYSTEM_ADMIN', '/dashboard/rice_diseases');
  await expect(page.getByText(disease.emptyText)).toBeVisible();

  // 798 photos uploaded earlier through the upload route (four at once, as the browser sends
  // them) and kept in the account's draft, as a closed tab leaves them: the dialog takes them
  // back, and the last photos are chosen in it.
  const staged: string[] = [];
  const files = await pngs(798, 'blast');
  const cookie = (await page.context().cookies(app.url)).map((c) => `${c.name}=${c.value}`).join('; ');
  await Promise.all(
    [0, 1, 2, 3].map(async (lane) => {
      for (let i = lane; i < files.length; i += 4) {
        const form = new FormData();
        form.append('file', new Blob([files[i]!.buffer], { type: 'image/png' }), files[i]!.name);
        const res = await fetch(`${app.url}/api/rice_diseases/images`, { method: 'POST', headers: { cookie }, body: form });
        expect(res.status, await res.clone().text()).toBe(201);
        staged[i] = ((await res.json()) as { id: string }).id;
      }
    }),
  );
  const photos = files.map((f, i) => ({ id: staged[i]!, name: f.name, size: f.buffer.length, lastModified: Date.now() }));
  expect((await page.request.put('/api/rice_diseases/draft', { data: { fields: {}, photos } })).status()).toBe(200);

  await page.getByRole('button', { name: disease.addButton }).click();
  const dialog = page.getByRole('dialog', { name: disease.addTitle });
  await dialog.getByTestId('draft-offer').getByRole('button', { name: DRAFT_TEXTS.continue }).click();
  await expect(dialog.getByTestId('upload-total')).toHaveText(UPLOAD_TEXTS.total(798, 798));
  await dialog.getByLabel('Name', { exact: true }).fill('Rice blast');
  await dialog.getByLabel('Scientific Name').fill('Magnaporthe oryzae');
  // A slow link: the 799th photo takes far longer to upload than the checks below.
  const link = await throttleUploads(page, 16 * 1024);
  await dialog.getByTestId('upload-input').setInputFiles(await noisyPng('blast_0798.png'));

  // Closing mid-upload asks first.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  const ask = page.getByRole('dialog', { name: /Stop uploading\?|Discard photos\?/ });
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: /Keep/ }).click();
  await expect(ask).toBeHidden();

  // The count is known once the files are chosen: Save says so without waiting for the uploads,
  // which the throttled link keeps far from done.
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText(disease.minImages)).toBeVisible();
  await expect(dialog.getByTestId('upload-total')).not.toHaveText(UPLOAD_TEXTS.total(799, 799));
  await expect(dialog.getByTestId('save-queued')).toHaveCount(0);

  // The 800th photo answers the rule; Save then waits for the uploads and saves by itself.
  await dialog.getByTestId('upload-input').setInputFiles(await pngs(1, 'blast', 799));
  await expect(dialog.getByText(disease.minImages)).toBeHidden();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByTestId('save-queued')).toBeVisible();
  await link.restore();
  await expect(page.getByText(disease.createSuccess)).toBeVisible({ timeout: 120_000 });

  const blast = card(page, 'Rice blast');
  await expect(blast.getByText('800', { exact: true })).toBeVisible();

  // Edit: up to 6 current photos, then '+794 more'; saving text keeps all 800.
  await blast.getByRole('button', { name: 'Edit Rice blast' }).click();
  const edit = page.getByRole('dialog', { name: disease.editTitle });
  await expect(edit.getByTestId('current-image')).toHaveCount(6);
  await edit.getByRole('button', { name: '+794 more' }).click();
  await expect(edit.getByTestId('current-images-grid')).toBeVisible();
  await edit.getByLabel('Symptoms').fill('Diamond-shaped leaf spots with grey centres.');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(disease.updateSuccess)).toBeVisible({ timeout: 60_000 });
  await expect(blast.getByText('800', { exact: true })).toBeVisible();

  // The view dialog shows the set in a virtualised grid: far fewer tiles in the page than photos.
  await blast.getByRole('button', { name: 'View Rice blast' }).click();
  const view = page.getByRole('dialog', { name: 'Rice blast' });
  await expect(view.getByText('(800 images)')).toBeVisible();
  await expect(view.getByTestId('grid-image').first()).toBeVisible();
  expect(await view.getByTestId('grid-image').count()).toBeLessThan(200);
  await view.getByRole('button', { name: 'Close' }).first().click();

  // Delete: the comparison is exact for diseases.
  await blast.getByRole('button', { name: 'Delete Rice blast' }).click();
  const confirm = page.getByRole('dialog', { name: disease.deleteTitle });
  await confirm.getByRole('textbox').fill('Rice blast ');
  await expect(confirm.getByText(disease.deleteMismatch)).toBeVisible();
  await expect(confirm.getByRole('button', { name: 'Delete' })).toBeDisabled();
  await confirm.getByRole('textbox').fill('Rice blast');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(disease.deleteSuccess)).toBeVisible();
  await expect(blast).toBeHidden();
  await expect(page.getByText(disease.emptyText)).toBeVisible();

  // The trash (super admin) lists it with its photos; Restore puts it back with all 800.
  await page.getByRole('link', { name: TRASH.tab }).click();
  await expect(page.getByRole('heading', { name: COLLECTIONS.rice_local_diseases.trash.heading })).toBeVisible();
  const trashed = page.getByRole('row').filter({ hasText: 'Rice blast' });
  await expect(trashed).toContainText(TRASH.photos(800));
  await expect(trashed).toContainText(admin.fullname);
  await trashed.getByRole('button', { name: TRASH.restoreLabel('Rice blast') }).click();
  await expect(page.getByText(TRASH.restored('Rice blast'))).toBeVisible();
  // It left the trash (other specs' deleted records may still be there).
  await expect(trashed).toHaveCount(0);
  await page.getByRole('link', { name: TRASH.liveTab }).click();
  await expect(blast.getByText('800', { exact: true })).toBeVisible();
  await blast.getByRole('button', { name: 'View Rice blast' }).click();
  await expect(page.getByRole('dialog', { name: 'Rice blast' }).getByText('(800 images)')).toBeVisible();
  await page.getByRole('dialog', { name: 'Rice blast' }).getByRole('button', { name: 'Close' }).first().click();
});

test('a second browser sees changes live, and a stale edit gets the conflict dialog', async ({ page, browser, app }) => {
  // One session per account: the second browser is another staff member.
  await signIn(page, app, 'SYSTEM_ADMIN', '/dashboard/rice_pests');
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  try {
    await signIn(otherPage, app, 'ADMIN', '/dashboard/rice_pests');
    await expect(otherPage.getByRole('heading', { name: pest.title })).toBeVisible();

    // The first browser adds a pest through the API the dialog uses; the second shows it without reloading.
    const png = (await pngs(1, 'live'))[0]!.buffer.toString('base64');
    const created = await page.evaluate(async (b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const form = new FormData();
      form.append('file', new Blob([bytes], { type: 'image/png' }), 'live.png');
      const staged = await (await fetch('/api/rice_pests/images', { method: 'POST', body: form })).json();
      const res = await fetch('/api/rice_pests', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'Green leafhopper',
          scientificName: 'Nephotettix virescens',
          description: 'Carrier of tungro.',
          cause: '',
          symptoms: '',
          treatments: '',
          imageIds: [staged.id],
        }),
      });
      return res.json();
    }, png);
    await expect(card(otherPage, 'Green leafhopper')).toBeVisible();

    // The second browser opens the edit form and changes the name; the first saves a new description.
    await card(otherPage, 'Green leafhopper').getByRole('button', { name: 'Edit Green leafhopper' }).click();
    const edit = otherPage.getByRole('dialog', { name: pest.editTitle });
    await edit.getByLabel('Name', { exact: true }).fill('Green leafhopper (GLH)');
    await page.evaluate(async (entry) => {
      await fetch(`/api/rice_pests/${entry.id}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          name: entry.name,
          scientificName: entry.scientificName,
          description: 'Main carrier of tungro virus.',
          cause: '',
          symptoms: '',
          treatments: '',
          imageIds: [entry.images[0].id],
          version: entry.version,
        }),
      });
    }, created);
    // Untouched fields follow the live record; the touched name stays as typed.
    await expect(edit.getByLabel('Description')).toHaveValue('Main carrier of tungro virus.');
    await expect(edit.getByLabel('Name', { exact: true })).toHaveValue('Green leafhopper (GLH)');

    await edit.getByRole('button', { name: 'Save' }).click();
    const conflict = otherPage.getByRole('dialog', { name: 'Changed by someone else' });
    await expect(conflict).toBeVisible();
    await conflict.getByRole('button', { name: 'Reload their version' }).click();
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(otherPage.getByText(pest.updateSuccess)).toBeVisible();
    await expect(card(page, 'Green leafhopper (GLH)').getByText('Main carrier of tungro virus.')).toBeVisible();
  } finally {
    await other.close();
  }
});

test('a pest renamed to a name another pest has is named while typing, and saved once the user says so', async ({ page, app }) => {
  await signIn(page, app, 'SYSTEM_ADMIN', '/dashboard/rice_pests');
  const tag = Date.now().toString(36);
  const [first, second] = [`Rice bug ${tag}`, `Stink bug ${tag}`];
  const png = (await pngs(1, `same-${tag}`))[0]!.buffer.toString('base64');
  await page.evaluate(
    async ({ b64, names }) => {
      for (const name of names) {
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        const form = new FormData();
        form.append('file', new Blob([bytes], { type: 'image/png' }), `${name}.png`);
        const staged = await (await fetch('/api/rice_pests/images', { method: 'POST', body: form })).json();
        await fetch('/api/rice_pests', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            name,
            scientificName: '',
            description: '',
            cause: '',
            symptoms: '',
            treatments: '',
            imageIds: [staged.id],
          }),
        });
      }
    },
    { b64: png, names: [first, second] },
  );
  await card(page, second)
    .getByRole('button', { name: `Edit ${second}` })
    .click();
  const edit = page.getByRole('dialog', { name: pest.editTitle });
  // A long treatment grows its box instead of scrolling inside three lines.
  const treatments = edit.getByLabel(CATALOG_LABELS.treatments);
  const empty = (await treatments.boundingBox())!.height;
  await treatments.fill(Array.from({ length: 8 }, (_, i) => `Step ${i + 1}: spray 20 g per 16 L of water in the morning.`).join('\n'));
  expect((await treatments.boundingBox())!.height).toBeGreaterThan(empty * 1.5);
  await edit.screenshot({ path: '.tmp/screens/pest-edit-long-text.png' });
  await edit.getByLabel('Name', { exact: true }).fill(first.toUpperCase());
  await expect(edit.getByRole('status')).toHaveText(CATALOG_LABELS.duplicateName(pest.noun, first));
  await edit.getByRole('button', { name: CATALOG_LABELS.save }).click();
  const ask = page.getByRole('dialog', { name: CATALOG_LABELS.duplicateConfirmTitle });
  await expect(ask).toContainText(CATALOG_LABELS.duplicateConfirm(pest.noun, first.toUpperCase()));
  expect(await axeViolations(page, 'same name')).toEqual([]);
  await ask.getByRole('button', { name: CATALOG_LABELS.duplicateSaveAnyway }).click();
  await expect(edit).toBeHidden();
  await expect(page.getByText(first.toUpperCase(), { exact: true })).toBeVisible();
  await expect(page.getByText(second, { exact: true })).toHaveCount(0);
});

test('photos are put in order in the edit dialog, by keyboard and by drag; the farmer app shows the main photo first', async ({
  page,
  app,
}) => {
  await signIn(page, app, 'SYSTEM_ADMIN', '/dashboard/rice_pests');
  const name = `Leaf folder ${Date.now().toString(36)}`;
  const files = (await pngs(8, 'order', 300)).map((f) => f.buffer.toString('base64'));
  const ids = await page.evaluate(
    async ({ pictures, entryName }) => {
      const staged: string[] = [];
      for (const [i, b64] of pictures.entries()) {
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        const form = new FormData();
        form.append('file', new Blob([bytes], { type: 'image/png' }), `leaf_${i}.png`);
        staged.push((await (await fetch('/api/rice_pests/images', { method: 'POST', body: form })).json()).id);
      }
      const body = { name: entryName, scientificName: '', description: '', cause: '', symptoms: '', treatments: '', imageIds: staged };
      await fetch('/api/rice_pests', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return staged;
    },
    { pictures: files, entryName: name },
  );
  const farmerOrder = async () => {
    const items = (await (await page.request.get('/api/public/v1/pests')).json()).items as Array<{
      name: string;
      mainImage: { id: string } | null;
      images: Array<{ id: string }>;
    }>;
    const item = items.find((i) => i.name === name);
    return item ? { main: item.mainImage?.id, ids: item.images.map((i) => i.id) } : null;
  };
  // The farmer app lists photos once their sizes are made.
  await expect.poll(async () => (await farmerOrder())?.ids.length, { timeout: 30_000 }).toBe(8);

  const openEdit = async () => {
    await card(page, name)
      .getByRole('button', { name: `Edit ${name}` })
      .click();
    const dialog = page.getByRole('dialog', { name: pest.editTitle });
    await expect(dialog.getByTestId('current-image')).toHaveCount(6);
    return dialog;
  };
  const shown = async (dialog: ReturnType<Page['getByRole']>) =>
    dialog.getByTestId('current-image').evaluateAll((tiles) => tiles.map((t) => t.getAttribute('data-photo-id')));
  const announced = (dialog: ReturnType<Page['getByRole']>) => dialog.getByTestId('photo-order-announcement');
  const saved = async (dialog: ReturnType<Page['getByRole']>) => expect(dialog.getByText(PHOTO_ORDER_TEXTS.saving)).toHaveCount(0);

  await page.setViewportSize({ width: 1280, height: 900 });
  let edit = await openEdit();
  const first = edit.getByTestId('current-image').first();
  await expect(first.getByText(PHOTO_ORDER_TEXTS.mainPhoto)).toBeVisible();
  await edit.getByTestId('current-images').screenshot({ path: '.tmp/screens/photo-order-1280.png' });
  expect(await axeViolations(page, 'photo order 1280')).toEqual([]);

  // Make photo 4 the main photo: it takes the first place and the badge.
  await edit.getByRole('button', { name: PHOTO_ORDER_TEXTS.makeMain(4) }).click();
  await expect(announced(edit)).toHaveText(PHOTO_ORDER_TEXTS.madeMain(4));
  let expected = [ids[3], ids[0], ids[1], ids[2], ids[4], ids[5], ids[6], ids[7]];
  expect(await shown(edit)).toEqual(expected.slice(0, 6));
  await expect(edit.getByTestId('current-image').first().getByText(PHOTO_ORDER_TEXTS.mainPhoto)).toBeVisible();

  // By keyboard: photo 5 two places earlier with its handle's arrow keys; focus stays with it.
  const handle = edit.getByRole('button', { name: PHOTO_ORDER_TEXTS.handle(5, 8) });
  await handle.focus();
  await page.keyboard.press('ArrowLeft');
  await expect(announced(edit)).toHaveText(PHOTO_ORDER_TEXTS.moved(5, 4, 8));
  await expect(edit.getByRole('button', { name: PHOTO_ORDER_TEXTS.handle(4, 8) })).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(announced(edit)).toHaveText(PHOTO_ORDER_TEXTS.moved(4, 3, 8));
  await expect(edit.getByRole('button', { name: PHOTO_ORDER_TEXTS.handle(3, 8) })).toBeFocused();
  expected = [ids[3], ids[0], ids[4], ids[1], ids[2], ids[5], ids[6], ids[7]];
  expect(await shown(edit)).toEqual(expected.slice(0, 6));
  await saved(edit);
  await edit.getByRole('button', { name: CATALOG_LABELS.cancel }).click();
  await expect(edit).toBeHidden();

  // A reload keeps the order, and the farmer app answers with the main photo first.
  await page.reload();
  edit = await openEdit();
  expect(await shown(edit)).toEqual(expected.slice(0, 6));
  await expect.poll(farmerOrder).toEqual({ main: ids[3], ids: expected });

  // By drag: photo 2's handle dropped on the first photo makes it the main photo.
  const grip = edit.getByRole('button', { name: PHOTO_ORDER_TEXTS.handle(2, 8) });
  await grip.scrollIntoViewIfNeeded();
  const from = await grip.boundingBox();
  const to = await edit.getByTestId('current-image').first().boundingBox();
  await page.mouse.move(from!.x + from!.width / 2, from!.y + from!.height / 2);
  await page.mouse.down();
  await page.mouse.move(to!.x + to!.width / 2, to!.y + to!.height / 2, { steps: 8 });
  await page.mouse.up();
  await expect(announced(edit)).toHaveText(PHOTO_ORDER_TEXTS.madeMain(2));
  expected = [ids[0], ids[3], ids[4], ids[1], ids[2], ids[5], ids[6], ids[7]];
  expect(await shown(edit)).toEqual(expected.slice(0, 6));
  await saved(edit);
  await expect.poll(farmerOrder).toEqual({ main: ids[0], ids: expected });

  // The whole grid ('+2 more') has the same controls; a phone's width too.
  await edit.getByRole('button', { name: CATALOG_LABELS.moreImages(2) }).click();
  await expect(edit.getByTestId('grid-image')).toHaveCount(8);
  await edit.getByRole('button', { name: PHOTO_ORDER_TEXTS.moveEarlier(8) }).click();
  await expect(announced(edit)).toHaveText(PHOTO_ORDER_TEXTS.moved(8, 7, 8));
  await expect(edit.getByRole('button', { name: PHOTO_ORDER_TEXTS.moveEarlier(7) })).toBeFocused();
  await saved(edit);
  await edit.getByTestId('current-images').screenshot({ path: '.tmp/screens/photo-order-grid-1280.png' });
  await page.setViewportSize({ width: 360, height: 800 });
  await edit.getByRole('button', { name: CATALOG_LABELS.showFewer }).click();
  await edit.getByTestId('current-images').scrollIntoViewIfNeeded();
  await edit.getByTestId('current-images').screenshot({ path: '.tmp/screens/photo-order-360.png' });
  expect(await axeViolations(page, 'photo order 360')).toEqual([]);
});
