import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { MODEL_SCREEN_TEXTS as S } from '../../common/model-screen-texts';
import { MODEL_TEXTS as T } from '../../common/models';
import { axeViolations } from './axe';
import { expect, type E2EServer } from './fixtures';
import { importExport } from './support';

/** The Models screen's specs' data: the demo scanner's diseases with photos of their colours, and its model uploaded through the dialog. */
export const SHOTS = '.tmp/screens';
const SCANNER = path.join('demo-data', 'scanner');
/** The demo classifier (`npm run models:make`): it names the demo disease whose colour is nearest a photo's mean colour. */
export const MODEL_FILE = path.join(SCANNER, 'demo-disease-classifier.tflite');
/** How the demo model takes a photo, as models:make builds it. */
export const DEMO_CONTRACT = { scaling: '0-1', resize: 'stretch' } as const;
export const DEMO = JSON.parse(fs.readFileSync(path.join(SCANNER, 'classes.json'), 'utf8')) as {
  classes: Array<{ name: string; meanColour: [number, number, number] }>;
  notRicePlant: { meanColour: [number, number, number] };
};
export const CLASSES = DEMO.classes;
/** The demo plant check: rice plant when a photo's mean colour is nearer the diseases' average than the "not a rice plant" colour. */
export const PLANT_FILE = path.join(SCANNER, 'demo-plant-check.tflite');
export const PHOTOS_PER_CLASS = 3;
/** One photo of the second class's colour filed under the first: the report's one mistake. */
export const MISFILED = { under: 0, colourOf: 1 } as const;

/**
 * A photo whose mean colour is the class's: 8 × 8 blocks a little lighter or darker than it
 * (the offsets sum to zero). A plain colour would not do: every plain photo has the same
 * perceptual hash, so all would be copies of one another across diseases and left out of the
 * training set as conflicts.
 */
export async function classPhoto(colour: [number, number, number], seed: number): Promise<Buffer> {
  const size = 128;
  const cells = 8;
  let s = seed * 7919 + 17;
  const rnd = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  const raw = Array.from({ length: cells * cells }, () => Math.round(rnd() * 20 - 10));
  const mean = raw.reduce((a, b) => a + b, 0) / raw.length;
  const offsets = raw.map((o) => o - mean);
  const data = Buffer.alloc(size * size * 3);
  for (let y = 0; y < size; y += 1) {
    for (let x = 0; x < size; x += 1) {
      const offset = offsets[Math.floor((y * cells) / size) * cells + Math.floor((x * cells) / size)]!;
      for (let c = 0; c < 3; c += 1) data[(y * size + x) * 3 + c] = Math.max(0, Math.min(255, Math.round(colour[c]! + offset)));
    }
  }
  return sharp(data, { raw: { width: size, height: size, channels: 3 } })
    .jpeg({ quality: 95, chromaSubsampling: '4:4:4' })
    .toBuffer();
}

/**
 * The twelve demo diseases by name (the model's labels are their slugs, so each is suggested by
 * name), each with a few photos of its colour, and one photo filed under the wrong disease
 * (MISFILED); through the import command, as other specs make diseases (the add form asks for
 * 800 photos).
 */
export async function seedDemoDiseases(app: E2EServer): Promise<void> {
  const files: Record<string, Buffer> = {};
  const diseases: Record<string, Record<string, unknown>> = {};
  for (const [k, c] of CLASSES.entries()) {
    const images: string[] = [];
    for (let n = 0; n < PHOTOS_PER_CLASS; n += 1) {
      const file = `class${k}-photo${n}.jpg`;
      files[file] = await classPhoto(c.meanColour, k * 100 + n + 1);
      images.push(`{{files}}/${file}`);
    }
    if (k === MISFILED.under) {
      files['misfiled.jpg'] = await classPhoto(CLASSES[MISFILED.colourOf]!.meanColour, 9001);
      images.push('{{files}}/misfiled.jpg');
    }
    diseases[crypto.randomUUID()] = {
      name: c.name,
      scientificName: 'Demo',
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, k)).toISOString(),
      images,
    };
  }
  await importExport(app, { rice_local_diseases: diseases }, files);
}

/** Uploads the demo model through the dialog: settings, Check file, every label suggested, Upload model. */
export async function uploadDemoModel(page: Page, note: string): Promise<void> {
  await page.getByRole('button', { name: T.upload }).first().click();
  const dialog = page.getByRole('dialog', { name: S.form.uploadTitle });
  await dialog.getByLabel(S.form.modelFile, { exact: true }).setInputFiles(MODEL_FILE);
  await dialog.getByLabel(S.form.scaling, { exact: true }).selectOption(DEMO_CONTRACT.scaling);
  await dialog.getByLabel(S.form.resize, { exact: true }).selectOption(DEMO_CONTRACT.resize);
  await dialog.getByLabel(S.form.note, { exact: true }).fill(note);
  await dialog.getByRole('button', { name: T.check }).click();
  await expect(dialog.getByTestId('model-facts')).toBeVisible({ timeout: 30_000 });
  await expect(dialog.getByTestId('mapping-row')).toHaveCount(CLASSES.length);
  // Every label is one of the diseases made above: nothing is left unmapped.
  await expect(dialog.getByTestId('mapping-problems')).toHaveCount(0);
  await dialog.getByRole('button', { name: T.upload }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
}

export async function axe(page: Page, what: string): Promise<void> {
  expect(await axeViolations(page, what)).toEqual([]);
}
