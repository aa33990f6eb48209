import fs from 'node:fs';
import { labelSlug } from '../../common/catalog';
import { EVALUATION_SET_TEXTS as ES } from '../../common/evaluation-sets';
import { MODEL_SCREEN_TEXTS as S } from '../../common/model-screen-texts';
import { MODEL_TEXTS as T } from '../../common/models';
import { zipOf } from '../fixtures/zip-tricks';
import { expect, test } from './fixtures';
import { axe, CLASSES, classPhoto, seedDemoDiseases, SHOTS, uploadDemoModel } from './models-support';
import { signIn } from './support';

test('an evaluation set is uploaded as a ZIP, flagged for the training photo it copies, and a model is evaluated on it', async ({
  page,
  app,
}) => {
  test.setTimeout(300_000);
  await seedDemoDiseases(app);
  await fs.promises.mkdir(SHOTS, { recursive: true });
  // A field set of three diseases, two photos each in its label's folder, and the second disease's first training photo sent again.
  const used = CLASSES.slice(0, 3);
  const files: Array<[string, Buffer]> = [['README.md', Buffer.from('# Field test, Tarlac\n')]];
  for (const [k, c] of used.entries())
    for (let n = 0; n < 2; n += 1)
      files.push([`test/${labelSlug(c.name)}/field-${n}.jpg`, await classPhoto(c.meanColour, 7000 + k * 10 + n)]);
  files.push([`test/${labelSlug(used[1]!.name)}/copy.jpg`, await classPhoto(used[1]!.meanColour, 101)]);
  const zip = await zipOf(files);

  await signIn(page, app, 'SYSTEM_ADMIN');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: T.nav }).click();
  await uploadDemoModel(page, 'Demo model for the field set');
  await expect(page.getByText(ES.empty)).toBeVisible();
  await page.getByRole('button', { name: ES.upload }).click();
  const dialog = page.getByRole('dialog', { name: ES.uploadTitle });
  await dialog.getByLabel(ES.name, { exact: true }).fill('Tarlac field test');
  await dialog.getByLabel(ES.file, { exact: true }).setInputFiles({ name: 'tarlac.zip', mimeType: 'application/zip', buffer: zip });
  await dialog.getByRole('button', { name: ES.save }).click();
  await expect(dialog).toBeHidden({ timeout: 60_000 });
  const set = page.getByTestId('evaluation-set').filter({ hasText: 'Tarlac field test' });
  await expect(set).toContainText(ES.photos(7));
  await expect(set.getByTestId('set-leaks')).toContainText(ES.leaking(1));
  await set.getByRole('button', { name: ES.leakPairs }).click();
  await expect(set.getByTestId('set-leaks')).toContainText(ES.leakPair(`test/${labelSlug(used[1]!.name)}/copy.jpg`, used[1]!.name, 0));
  await page.getByRole('region', { name: ES.title }).screenshot({ path: `${SHOTS}/evaluation-sets.png` });
  await axe(page, 'evaluation sets');

  // The model scored on the set: every photo is its folder's colour.
  const card = page.getByTestId('model-card').filter({ has: page.getByRole('heading', { name: 'disease-1', exact: true }) });
  await card.getByRole('button', { name: T.evaluate }).click();
  const evaluate = page.getByRole('dialog', { name: S.list.evaluateTitle('disease-1') });
  const source = evaluate.getByLabel(S.list.splitLabel, { exact: true });
  await source.selectOption({ label: `Tarlac field test (${ES.photos(7)})` });
  await evaluate.getByRole('button', { name: S.list.start }).click();
  await expect(evaluate).toBeHidden();
  await expect(card.getByTestId('evaluation-result')).toContainText(ES.evaluatedOn('Tarlac field test'), { timeout: 120_000 });
  await card.getByRole('link', { name: S.list.actions.report }).click();
  await expect(page.getByRole('heading', { level: 1, name: S.report.title('disease-1') })).toBeVisible();
  await expect(page.getByTestId('report-accuracy')).toHaveText('100.0 %');
  await expect(page.getByText(ES.evaluatedOn('Tarlac field test'))).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/evaluation-set-report.png`, fullPage: true });
});
