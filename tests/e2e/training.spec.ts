import crypto from 'node:crypto';
import fs from 'node:fs';
import sharp from 'sharp';
import { TRAINING_SET } from '../../common/catalog';
import { expect, test, type E2EServer } from './fixtures';
import { importExport, signIn } from './support';

/** A saved disease whose photos the real import command fetched into storage. */
async function insertDisease(app: E2EServer, name: string, photos: Buffer[]): Promise<string> {
  const id = crypto.randomUUID();
  const files = Object.fromEntries(photos.map((body, position) => [`leaf${position}.jpg`, body]));
  await importExport(
    app,
    {
      rice_local_diseases: {
        [id]: {
          name,
          scientificName: 'Pyricularia oryzae',
          createdAt: new Date().toISOString(),
          images: Object.keys(files).map((f) => `{{files}}/${f}`),
        },
      },
    },
    files,
  );
  return id;
}

/** Distinct real JPEGs (the import keeps an original's bytes as they are). */
function photo(n: number): Promise<Buffer> {
  return sharp({ create: { width: 64 + n, height: 48, channels: 3, background: { r: 40 * n, g: 120, b: 60 } } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

test('a super admin downloads the training set and gets every original photo byte for byte', async ({ page, app }) => {
  const photos = await Promise.all([0, 1, 2].map(photo));
  await insertDisease(app, 'Training blast', photos);
  await signIn(page, app, 'SYSTEM_ADMIN', '/dashboard/rice_diseases');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: TRAINING_SET.downloadAll }).click()]);
  expect(download.suggestedFilename()).toBe('training-set-all-diseases.zip');
  const file = await download.path();
  const zip = fs.readFileSync(file);
  // Every photo's bytes appear in the (uncompressed) archive, in image-folder layout with its metadata row.
  for (const photo of photos) expect(zip.includes(photo)).toBe(true);
  expect(zip.toString('latin1')).toMatch(/(train|validation|test)\/training-blast\/[\w-]+\.jpg,training-blast,(train|validation|test),/);
  expect(zip.toString('latin1')).toContain('labels.txt');
});
