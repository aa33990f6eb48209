import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { expect, test } from '@playwright/test';
import { TRAINING_SET } from '../../common/catalog';
import { E2E } from '../../playwright.config';
import { loginViaUi } from './support';

/** Puts a saved disease with stored original photos straight into the running server's data folder. */
function insertDisease(name: string, photos: Buffer[]): string {
  const id = crypto.randomUUID();
  const db = new SQLite(path.join(E2E.main.dataDir, 'palayan.sqlite'));
  const now = new Date().toISOString();
  try {
    db.prepare('insert into rice_local_diseases (id, name, "scientificName", "isDeleted", "createdAt", version) values (?, ?, ?, 0, ?, 1)').run(id, name, 'Pyricularia oryzae', now);
    photos.forEach((body, position) => {
      const key = `rice_disease/${name}/${Date.now()}_${position}_leaf${position}.jpg`;
      const full = path.join(E2E.main.dataDir, 'files', key);
      fs.mkdirSync(path.dirname(full), { recursive: true });
      fs.writeFileSync(full, body);
      db.prepare(`insert into catalog_images (id, collection, "entryId", position, "originalKey", status, "mimeType", "sizeBytes", "originalName", "createdAt", "linkedAt")
        values (?, 'rice_local_diseases', ?, ?, ?, 'ready', 'image/jpeg', ?, ?, ?, ?)`).run(crypto.randomUUID(), id, position, key, body.length, `leaf${position}.jpg`, now, now);
    });
  } finally {
    db.close();
  }
  return id;
}

test('a super admin downloads the training set and gets every original photo byte for byte', async ({ page }) => {
  const photos = [0, 1, 2].map((n) => crypto.randomBytes(20_000 + n * 1000));
  insertDisease('Training blast', photos);
  await loginViaUi(page, E2E.admin.username, E2E.admin.password);
  await page.goto('/dashboard/rice_diseases');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: TRAINING_SET.downloadAll }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('training-set-all-diseases.zip');
  const file = await download.path();
  const zip = fs.readFileSync(file);
  // Every photo's bytes appear in the (uncompressed) archive, in image-folder layout with its metadata row.
  for (const photo of photos) expect(zip.includes(photo)).toBe(true);
  expect(zip.toString('latin1')).toMatch(/(train|validation|test)\/training-blast\/[\w-]+\.jpg,training-blast,(train|validation|test),/);
  expect(zip.toString('latin1')).toContain('labels.txt');
});
