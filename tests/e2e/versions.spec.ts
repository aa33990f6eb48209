import crypto from 'node:crypto';
import fs from 'node:fs';
import { CATALOG_LABELS } from '../../common/catalog-texts';
import { VERSION_TEXTS } from '../../common/versions';
import { expect, test } from './fixtures';
import { importExport, signIn } from './support';
import { leafPhoto } from '../fixtures/leaf-photos';

test("a disease's Versions tab compares two versions field by field with their photos, and restores the older one", async ({
  page,
  app,
}) => {
  const tag = crypto.randomUUID().slice(0, 8);
  const name = `Bacterial blight ${tag}`;
  const id = crypto.randomUUID();
  await importExport(
    app,
    {
      rice_local_diseases: {
        [id]: {
          name,
          treatments: 'Plant resistant varieties.',
          createdAt: new Date().toISOString(),
          images: ['{{files}}/a.jpg', '{{files}}/b.jpg', '{{files}}/c.jpg'],
        },
      },
    },
    { 'a.jpg': await leafPhoto(21), 'b.jpg': await leafPhoto(22), 'c.jpg': await leafPhoto(23) },
  );

  await signIn(page, app, 'ADMIN', '/dashboard/rice_diseases');
  // Someone saves a wrong treatment and drops a photo (through the API, as another tab would).
  const saved = await page.evaluate(async (entryId) => {
    const entry = (await (await fetch(`/api/rice_diseases/${entryId}`)).json()) as {
      name: string;
      version: number;
      images: Array<{ id: string }>;
    };
    const res = await fetch(`/api/rice_diseases/${entryId}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: entry.name,
        scientificName: '',
        localName: '',
        description: '',
        cause: '',
        symptoms: '',
        treatments: 'Spray 5 L of urea per plant.',
        affectedParts: [],
        imageIds: entry.images.slice(0, 2).map((i) => i.id),
        version: entry.version,
      }),
    });
    return { status: res.status, kept: entry.images.length };
  }, id);
  expect(saved).toEqual({ status: 200, kept: 3 });

  const card = page.getByRole('article', { name });
  await card.getByRole('button', { name: `${CATALOG_LABELS.view} ${name}` }).click();
  const dialog = page.getByRole('dialog', { name });
  await dialog.getByRole('tab', { name: VERSION_TEXTS.tab }).click();
  const list = dialog.getByTestId('versions-list');
  await expect(list.getByRole('button')).toHaveCount(2);
  await expect(list.getByRole('button').first()).toContainText(VERSION_TEXTS.current);
  await expect(list.getByRole('button').first()).toContainText('Changed Treatments; 1 photo removed');

  // By default the newest is compared with the one before it.
  const table = dialog.getByRole('table', { name: VERSION_TEXTS.compareTitle(1, 2) });
  const treatments = table.getByRole('row', { name: new RegExp(CATALOG_LABELS.treatments) });
  await expect(treatments).toHaveAttribute('data-changed', 'true');
  await expect(treatments).toContainText('Plant resistant varieties.');
  await expect(treatments).toContainText('Spray 5 L of urea per plant.');
  await expect(dialog.getByRole('list', { name: VERSION_TEXTS.photosRemoved(1) }).getByRole('listitem')).toHaveCount(1);
  await fs.promises.mkdir('.tmp/screens', { recursive: true });
  await dialog.screenshot({ path: '.tmp/screens/versions-compare.png' });

  await list.getByRole('button', { name: new RegExp(VERSION_TEXTS.version(1)) }).click();
  await dialog.getByRole('button', { name: VERSION_TEXTS.restore }).click();
  const confirm = page.getByRole('dialog', { name: VERSION_TEXTS.restoreTitle(1) });
  await expect(confirm).toContainText(VERSION_TEXTS.restorePhotosText(3));
  await confirm.getByRole('button', { name: VERSION_TEXTS.restoreConfirm }).click();
  await expect(page.getByRole('status').filter({ hasText: VERSION_TEXTS.restored(1) })).toBeVisible();

  await expect(list.getByRole('button')).toHaveCount(3);
  await expect(list.getByRole('button').first()).toContainText(VERSION_TEXTS.restoredFrom(1));
  await dialog.getByRole('tab', { name: VERSION_TEXTS.details }).click();
  await expect(dialog.getByText('Plant resistant varieties.')).toBeVisible();
  await expect(dialog.getByRole('heading', { name: new RegExp(CATALOG_LABELS.images) })).toContainText(CATALOG_LABELS.imageCount(3));
});
