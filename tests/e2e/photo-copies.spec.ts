import crypto from 'node:crypto';
import fs from 'node:fs';
import sharp from 'sharp';
import { CATALOG_KINDS } from '../../common/catalog';
import { UPLOAD_TEXTS } from '../../common/catalog-texts';
import { expect, test } from './fixtures';
import { importExport, signIn } from './support';
import { leafPhoto } from '../fixtures/leaf-photos';

const disease = CATALOG_KINDS.disease.texts;

test('uploading disease photos: a byte-for-byte copy is left out, a near copy and a photo of another disease are flagged', async ({
  page,
  app,
}) => {
  const tag = crypto.randomUUID().slice(0, 8);
  const otherDisease = `Brown spot ${tag}`;
  const saved = await leafPhoto(3);
  await importExport(
    app,
    {
      rice_local_diseases: {
        [crypto.randomUUID()]: { name: otherDisease, createdAt: new Date().toISOString(), images: ['{{files}}/brown.jpg'] },
      },
    },
    { 'brown.jpg': saved },
  );

  const first = await leafPhoto(11);
  const photos = {
    first: { name: 'IMG_0001.jpg', mimeType: 'image/jpeg', buffer: first },
    brown: { name: 'IMG_0002.jpg', mimeType: 'image/jpeg', buffer: saved },
    again: { name: 'IMG_0003.jpg', mimeType: 'image/jpeg', buffer: first },
    recompressed: { name: 'IMG_0004.jpg', mimeType: 'image/jpeg', buffer: await sharp(first).jpeg({ quality: 45 }).toBuffer() },
  };

  await signIn(page, app, 'ADMIN', '/dashboard/rice_diseases');
  await page.getByRole('button', { name: disease.addButton }).click();
  const dialog = page.getByRole('dialog', { name: disease.addTitle });
  const input = dialog.getByTestId('upload-input');
  const rows = dialog.getByTestId('upload-row');
  await input.setInputFiles([photos.first, photos.brown]);
  await expect(dialog.getByTestId('upload-total')).toHaveText(UPLOAD_TEXTS.total(2, 2));
  await input.setInputFiles([photos.again, photos.recompressed]);

  // The same bytes again: left out and not counted.
  await expect(rows.filter({ hasText: 'IMG_0003.jpg' })).toHaveAttribute('data-status', 'skipped');
  await expect(dialog.getByText(UPLOAD_TEXTS.skippedCopies(1))).toBeVisible();
  await expect(dialog.getByTestId('upload-total')).toHaveText(UPLOAD_TEXTS.total(3, 3));
  // A recompressed copy of a photo of this entry, and one picture already saved under another disease.
  const near = rows.filter({ hasText: 'IMG_0004.jpg' });
  await expect(near).toHaveAttribute('data-copy', 'near');
  await expect(near).toContainText('Near copy of another photo');
  const conflict = rows.filter({ hasText: 'IMG_0002.jpg' });
  await expect(conflict).toHaveAttribute('data-copy', 'conflict');
  await expect(conflict).toContainText(UPLOAD_TEXTS.alsoIn(otherDisease));
  await expect(rows.filter({ hasText: 'IMG_0001.jpg' })).not.toHaveAttribute('data-copy', /./);
  await expect(dialog.getByTestId('upload-copies')).toHaveText(UPLOAD_TEXTS.flaggedCopies(1, 1));
  await fs.promises.mkdir('.tmp/screens', { recursive: true });
  await dialog.getByTestId('upload-list').screenshot({ path: '.tmp/screens/upload-copies.png' });
});
