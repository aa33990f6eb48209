import crypto from 'node:crypto';
import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { CATALOG_KINDS } from '../../common/catalog';
import { CATALOG_LABELS } from '../../common/catalog-texts';
import { MODEL_SCREEN_TEXTS as S } from '../../common/model-screen-texts';
import { MODEL_TEXTS as T } from '../../common/models';
import { SHELL } from '../../common/texts';
import { expect, test } from './fixtures';
import { importExport, signIn } from './support';
import {
  axe,
  CLASSES,
  classPhoto,
  DEMO,
  DEMO_CONTRACT,
  MISFILED,
  MODEL_FILE,
  PHOTOS_PER_CLASS,
  PLANT_FILE,
  seedDemoDiseases,
  SHOTS,
  uploadDemoModel,
} from './models-support';

/** Publishes through the dialog; when the server's checks refuse, publishes anyway with a reason. Answers whether it had to. */
async function publish(page: Page, version: string, channel: 'live' | 'pilot', note: string, share?: number): Promise<string[] | null> {
  await page
    .getByTestId('model-card')
    .filter({ has: page.getByRole('heading', { name: version, exact: true }) })
    .getByRole('button', { name: S.list.actions.publish })
    .click();
  const dialog = page.getByRole('dialog', { name: S.publishing.title(version) });
  await dialog.getByRole('radio', { name: new RegExp(`^${T.channel[channel]}`) }).check();
  if (share !== undefined) await dialog.getByLabel(S.publishing.share, { exact: true }).fill(String(share));
  await dialog.getByLabel(S.publishing.note, { exact: true }).fill(note);
  await dialog.getByRole('button', { name: T.publish, exact: true }).click();
  const checks = dialog.getByTestId('publish-checks');
  await expect(async () => expect((await dialog.isHidden()) || (await checks.isVisible())).toBe(true)).toPass({ timeout: 15_000 });
  if (await dialog.isHidden()) return null;
  const failed = await checks.getByRole('listitem').allTextContents();
  await dialog.getByLabel(S.publishing.reason, { exact: true }).fill('The field team needs it before the wet season starts.');
  await dialog.getByRole('button', { name: S.publishing.override }).click();
  await expect(dialog).toBeHidden();
  return failed;
}

test('an admin has no Scanner models screen', async ({ page, app }) => {
  await signIn(page, app, 'ADMIN');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: SHELL.nav.history })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: T.nav })).toHaveCount(0);
  await page.goto('/dashboard/scanner_models');
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('a super admin uploads the demo model, evaluates it, reads its report, pilots it, publishes it and rolls back', async ({
  page,
  app,
}) => {
  test.setTimeout(300_000);
  expect(fs.existsSync(MODEL_FILE), `${MODEL_FILE} is made by npm run models:make`).toBe(true);
  await seedDemoDiseases(app);
  await fs.promises.mkdir(SHOTS, { recursive: true });

  await signIn(page, app, 'SYSTEM_ADMIN');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: T.nav }).click();
  await expect(page.getByRole('heading', { level: 1, name: T.title })).toBeVisible();
  await expect(page.getByTestId('stage-disease').getByTestId('slot-live')).toContainText(T.install.noModel);

  // Model A: uploaded, then scored on every photo of the training set.
  await uploadDemoModel(page, 'Demo model A');
  const first = page.getByTestId('model-card').filter({ has: page.getByRole('heading', { name: 'disease-1', exact: true }) });
  await expect(first).toBeVisible();
  await expect(first.getByTestId('labels-warning')).toHaveCount(0);
  await first.getByRole('button', { name: T.evaluate }).click();
  const evaluate = page.getByRole('dialog', { name: S.list.evaluateTitle('disease-1') });
  await expect(evaluate.getByLabel(S.list.splitLabel, { exact: true })).toHaveValue('split:test');
  await evaluate.getByLabel(S.list.splitLabel, { exact: true }).selectOption('split:all');
  await evaluate.getByRole('button', { name: S.list.start }).click();
  await expect(evaluate).toBeHidden();
  await expect(first.getByTestId('evaluation-result')).toBeVisible({ timeout: 120_000 });
  await page.screenshot({ path: `${SHOTS}/models-evaluated.png`, fullPage: true });

  // The report: every photo but the misfiled one is its disease's colour and lands on the diagonal.
  await first.getByRole('link', { name: S.list.actions.report }).click();
  await expect(page).toHaveURL(/\/dashboard\/scanner_models\/[^/]+\/evaluations\/[^/]+$/);
  const reportUrl = page.url();
  await expect(page.getByRole('heading', { level: 1, name: S.report.title('disease-1') })).toBeVisible();
  const total = CLASSES.length * PHOTOS_PER_CLASS + 1;
  await expect(page.getByTestId('report-accuracy')).toHaveText(`${((100 * (total - 1)) / total).toFixed(1)} %`);
  await expect(page.getByText(S.report.accuracyHelp(total))).toBeVisible();
  await expect(page.getByText(S.report.rightWhenAnswered)).toBeVisible();
  await expect(page.getByTestId('report-comparison')).toHaveText(T.report.noLive);
  await expect(page.getByRole('img', { name: new RegExp(T.report.coverage) })).toBeVisible();
  // Calibration: the reliability diagram, what its gap means, and the thresholds that reach the target.
  await expect(page.getByRole('img', { name: new RegExp(S.report.calibration.replace('?', '\\?')) })).toBeVisible();
  await expect(page.getByTestId('calibration-summary')).toContainText('away from how often it is right');
  await expect(page.getByTestId('recommended-thresholds')).toContainText(/To be right on at least 95\.0 %|No confidence and margin/);

  // The two classes of the mistake tie on F1 (6/7); the one on fewer photos is the weakest, named first and listed first.
  const blast = CLASSES[MISFILED.under]!.name;
  const other = CLASSES[MISFILED.colourOf]!.name;
  await expect(page.getByTestId('report-weakest')).toHaveText(S.report.weakest(other, 6 / 7, PHOTOS_PER_CLASS));
  const rows = page.getByTestId('class-row');
  await expect(rows).toHaveCount(CLASSES.length);
  await expect(rows.nth(0).getByRole('rowheader')).toHaveText(other);
  await expect(rows.nth(1).getByRole('rowheader')).toHaveText(blast);
  // Three or four photos a class: every score is marked as resting on few photos.
  await expect(rows.getByTestId('few-photos')).toHaveCount(CLASSES.length);
  await expect(page.getByTestId('few-photos-note')).toHaveText(S.report.fewPhotosHelp);

  // Sorted by the keyboard: the Class heading's button, then back to F1.
  const table = page.getByRole('region', { name: S.report.tableOf(T.report.perClass) });
  const classHeading = table.getByRole('columnheader', { name: S.report.columns.name });
  await expect(table.getByRole('columnheader', { name: S.report.columns.f1 })).toHaveAttribute('aria-sort', 'ascending');
  await classHeading.getByRole('button').focus();
  await page.keyboard.press('Enter');
  await expect(classHeading).toHaveAttribute('aria-sort', 'ascending');
  const alphabetical = CLASSES.map((c) => c.name).sort((a, b) => a.localeCompare(b));
  await expect(rows.getByRole('rowheader')).toHaveText(alphabetical);
  await page.keyboard.press('Space');
  await expect(classHeading).toHaveAttribute('aria-sort', 'descending');
  await expect(rows.getByRole('rowheader')).toHaveText([...alphabetical].reverse());
  await table.getByRole('columnheader', { name: S.report.columns.f1 }).getByRole('button').click();
  await expect(rows.nth(0).getByRole('rowheader')).toHaveText(other);

  // The split key and fingerprints wait in Technical details, folded.
  const technical = page.getByTestId('report-technical');
  await expect(technical.getByText(S.report.seed)).toBeHidden();
  await expect(technical.getByText(S.report.modelSha)).toBeHidden();

  // The mistake's cell, chosen far above its photos: they scroll into view and their heading takes the focus.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page
    .getByTestId('confusion-matrix')
    .getByRole('button', { name: S.report.cellLabel(blast, other, 1, 1 / (PHOTOS_PER_CLASS + 1)) })
    .click();
  const photos = page.getByTestId('cell-photos');
  const photosHeading = photos.getByRole('heading', { name: S.report.cellTitle(blast, other) });
  await expect(photosHeading).toBeFocused();
  await expect(photosHeading).toBeInViewport();
  await expect(photos.getByTestId('prediction-photo')).toHaveCount(1);
  await expect(photos.getByRole('link', { name: S.report.linkFor(S.report.openDisease, blast) })).toHaveCount(1);
  await expect(page.getByRole('link', { name: T.report.csv })).toHaveAttribute('href', /\/predictions\.csv$/);
  await axe(page, 'report at 1280 px');
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SHOTS}/models-report-1280.png`, fullPage: true });
  await technical.locator('summary').click();
  await expect(technical.getByText(S.report.modelSha)).toBeVisible();
  await axe(page, 'report at 1280 px, Technical details open');
  await page.setViewportSize({ width: 360, height: 740 });
  await axe(page, 'report at 360 px');
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SHOTS}/models-report-360.png`, fullPage: true });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await page.setViewportSize({ width: 1366, height: 860 });
  await page.getByRole('main').getByRole('link', { name: S.report.back, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: T.title })).toBeVisible();

  // Pilot on a fifth of the installs, then everyone.
  await publish(page, 'disease-1', 'pilot', 'Trying the demo model on a fifth of the installs', 20);
  const disease = page.getByTestId('stage-disease');
  await expect(disease.getByTestId('slot-pilot')).toContainText('disease-1');
  await expect(disease.getByTestId('slot-pilot')).toContainText(S.stagePanel.share(20));
  await publish(page, 'disease-1', 'live', 'The pilot went well');
  await expect(disease.getByTestId('slot-live').getByTestId('slot-version')).toHaveText('disease-1');

  // Model B: the same file uploaded again, never evaluated: its publication needs a reason.
  await uploadDemoModel(page, 'Demo model B');
  await expect(page.getByTestId('model-card').filter({ has: page.getByRole('heading', { name: 'disease-2', exact: true }) })).toBeVisible();
  const failed = await publish(page, 'disease-2', 'live', 'Model B for everyone');
  expect(failed).toContain(T.refused.noEvaluation);
  await expect(disease.getByTestId('slot-live').getByTestId('slot-version')).toHaveText('disease-2');
  await expect(page.getByTestId('override-reason').first()).toContainText('The field team needs it before the wet season starts.');

  // One click and a confirmation bring model A back.
  await disease.getByRole('button', { name: T.rollback }).click();
  const rollback = page.getByRole('dialog', { name: S.stagePanel.rollbackTitle });
  await rollback.getByLabel(S.stagePanel.rollbackNote, { exact: true }).fill('Model B was published without an evaluation');
  await rollback.getByRole('button', { name: T.rollback }).click();
  await expect(rollback).toBeHidden();
  await expect(disease.getByTestId('slot-live').getByTestId('slot-version')).toHaveText('disease-1');
  await expect(page.getByTestId('publication').first()).toHaveAttribute('data-action', 'rollback');
  await axe(page, 'models');
  await page.screenshot({ path: `${SHOTS}/models-page.png`, fullPage: true });

  // A photo of the report opens its disease.
  await page.goto(reportUrl);
  await page
    .getByTestId('confusion-matrix')
    .getByRole('button', { name: S.report.cellLabel(blast, blast, PHOTOS_PER_CLASS, PHOTOS_PER_CLASS / (PHOTOS_PER_CLASS + 1)) })
    .click();
  await page
    .getByTestId('cell-photos')
    .getByRole('link', { name: S.report.linkFor(S.report.openDisease, blast) })
    .first()
    .click();
  await expect(page).toHaveURL(/\/dashboard\/rice_diseases\?open=/);
  await expect(page.getByRole('dialog', { name: blast })).toBeVisible();
});

test('a training class marked "Not a rice plant" lets a plant check be evaluated and published without a reason; Check file tries each way of preparing photos', async ({
  page,
  app,
}) => {
  test.setTimeout(300_000);
  // Enough photos of each kind that the test split (a tenth, drawn from each photo's id) holds both, and several diseases' photos.
  const perDisease = 9;
  const negatives = 100;
  const files: Record<string, Buffer> = {};
  const diseases: Record<string, Record<string, unknown>> = {};
  const record = (name: string, at: number, images: string[]) =>
    (diseases[crypto.randomUUID()] = {
      name,
      scientificName: 'Demo',
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, at)).toISOString(),
      images,
    });
  for (const [k, c] of CLASSES.entries()) {
    const images: string[] = [];
    for (let n = 0; n < perDisease; n += 1) {
      files[`rice${k}-${n}.jpg`] = await classPhoto(c.meanColour, k * 100 + n + 1);
      images.push(`{{files}}/rice${k}-${n}.jpg`);
    }
    record(c.name, k, images);
  }
  const soil: string[] = [];
  for (let n = 0; n < negatives; n += 1) {
    files[`soil-${n}.jpg`] = await classPhoto(DEMO.notRicePlant.meanColour, 5000 + n);
    soil.push(`{{files}}/soil-${n}.jpg`);
  }
  record('Soil and hands', CLASSES.length, soil);
  await importExport(app, { rice_local_diseases: diseases }, files);

  // A super admin marks it in the disease form: a training class, not a rice plant.
  await signIn(page, app, 'SYSTEM_ADMIN', '/dashboard/rice_diseases');
  await page.getByRole('article', { name: 'Soil and hands' }).getByRole('button', { name: 'Edit Soil and hands' }).click();
  const edit = page.getByRole('dialog', { name: CATALOG_KINDS.disease.texts.editTitle });
  await expect(edit.getByLabel(CATALOG_LABELS.notRicePlant)).toHaveCount(0);
  await edit.getByLabel(CATALOG_LABELS.trainingClass).check();
  await edit.getByLabel(CATALOG_LABELS.notRicePlant).check();
  await edit.screenshot({ path: `${SHOTS}/not-rice-plant-form.png` });
  await edit.getByRole('button', { name: 'Save' }).click();
  // The dialog closes once the save is stored (it stays open on a refusal); the toast may be gone by the next look.
  await expect(edit).toBeHidden({ timeout: 60_000 });

  // The plant check: uploaded, its labels suggested as the two verdicts.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: T.nav }).click();
  await page.getByRole('button', { name: T.upload }).first().click();
  const dialog = page.getByRole('dialog', { name: S.form.uploadTitle });
  await dialog.getByLabel(S.form.stage, { exact: true }).selectOption('plant');
  await dialog.getByLabel(S.form.modelFile, { exact: true }).setInputFiles(PLANT_FILE);
  await dialog.getByLabel(S.form.scaling, { exact: true }).selectOption(DEMO_CONTRACT.scaling);
  await dialog.getByLabel(S.form.resize, { exact: true }).selectOption(DEMO_CONTRACT.resize);
  await dialog.getByLabel(S.form.note, { exact: true }).fill('Demo plant check');
  await dialog.getByRole('button', { name: T.check }).click();
  await expect(dialog.getByTestId('mapping-row')).toHaveCount(2, { timeout: 30_000 });
  await expect(dialog.getByTestId('mapping-problems')).toHaveCount(0);
  await dialog.getByRole('button', { name: T.upload }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });

  // Evaluated on the test split as two classes, every photo's colour on its own side.
  const card = page.getByTestId('model-card').filter({ has: page.getByRole('heading', { name: 'plant-1', exact: true }) });
  await card.getByRole('button', { name: T.evaluate }).click();
  const evaluate = page.getByRole('dialog', { name: S.list.evaluateTitle('plant-1') });
  await expect(evaluate.getByText(S.list.evaluatePlantText)).toBeVisible();
  await evaluate.getByRole('button', { name: S.list.start }).click();
  await expect(evaluate).toBeHidden();
  await expect(card.getByTestId('evaluation-result')).toBeVisible({ timeout: 120_000 });
  await card.getByRole('link', { name: S.list.actions.report }).click();
  await expect(page.getByRole('heading', { level: 1, name: S.report.title('plant-1') })).toBeVisible();
  await expect(page.getByTestId('report-accuracy')).toHaveText('100.0 %');
  await expect(page.getByTestId('class-row')).toHaveCount(2);
  expect((await page.getByTestId('class-row').getByRole('rowheader').allTextContents()).sort()).toEqual(
    [T.verdict['not-rice-plant'], T.verdict['rice-plant']].sort(),
  );
  await page.screenshot({ path: `${SHOTS}/plant-check-report.png`, fullPage: true });
  await axe(page, 'plant check report');

  // Published live with no reason asked: its evaluation is on the current test split.
  await page.goBack();
  // The publish dialog starts from the thresholds that reach the target and says what they do on the evaluated photos.
  await card.getByRole('button', { name: S.list.actions.publish }).click();
  const publishing = page.getByRole('dialog', { name: S.publishing.title('plant-1') });
  await expect(publishing.getByText(S.publishing.fromRecommendation(0.95))).toBeVisible();
  await expect(publishing.getByTestId('thresholds-estimate')).toContainText('100.0 % of those rightly');
  await publishing.screenshot({ path: `${SHOTS}/publish-thresholds.png` });
  await publishing.getByRole('button', { name: T.cancel }).click();
  expect(await publish(page, 'plant-1', 'live', 'Plant check, evaluated')).toBeNull();
  await expect(page.getByTestId('stage-plant').getByTestId('slot-live')).toContainText('plant-1');

  // Check file of the demo disease classifier scores the held-out photos of its labels' diseases each way, best first, and picks
  // the best (0…1, stretched: the way models:make built it) over the way chosen before.
  await page.getByRole('button', { name: T.upload }).first().click();
  const upload = page.getByRole('dialog', { name: S.form.uploadTitle });
  await upload.getByLabel(S.form.modelFile, { exact: true }).setInputFiles(MODEL_FILE);
  await upload.getByLabel(S.form.scaling, { exact: true }).selectOption('0-255');
  await upload.getByLabel(S.form.resize, { exact: true }).selectOption('center-crop');
  await upload.getByRole('button', { name: T.check }).click();
  const trials = upload.getByTestId('contract-trials');
  await expect(trials).toBeVisible({ timeout: 90_000 });
  await expect(trials.getByRole('listitem')).toHaveCount(6);
  const best = trials.getByRole('listitem').first();
  await expect(best).toContainText(S.form.contractTrial(T.scaling['0-1'], T.resize.stretch));
  await expect(best).toContainText(S.form.contractBest);
  await expect(best).toContainText('100.0 %');
  // models:make writes that normalisation into the model's metadata too: the trial marks it.
  await expect(best.getByTestId('contract-stated')).toHaveText(S.form.contractStated);
  await expect(trials.getByRole('listitem').filter({ hasText: T.scaling['0-255'] }).first()).not.toContainText('100.0 %');
  await expect(upload.getByLabel(S.form.scaling, { exact: true })).toHaveValue('0-1');
  await expect(upload.getByLabel(S.form.resize, { exact: true })).toHaveValue('stretch');
  await trials.screenshot({ path: `${SHOTS}/contract-trials.png` });
  await upload.getByRole('button', { name: T.cancel }).click();
  await expect(upload).toBeHidden();
});
