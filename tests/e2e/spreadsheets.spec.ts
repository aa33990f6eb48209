import fs from 'node:fs';
import { EXPORT_TEXTS, IMPORT_TEXTS } from '../../common/spreadsheets';
import { VARIETIES } from '../../common/varieties';
import { csvOf, VARIETY_HEADER, varietyRow } from '../fixtures/spreadsheets';
import { axeViolations } from './axe';
import { expect, test } from './fixtures';
import { signIn } from './support';

const T = IMPORT_TEXTS;

test('import a file with 3 good rows and 2 errors: see the errors, import the good rows, find them in the list', async ({ page, app }) => {
  const tag = `Imp${Date.now().toString(36)}`;
  const good = [1, 2, 3].map((i) => varietyRow({ 'Variety name': `${tag} good ${i}` }));
  const bad = [
    varietyRow({ 'Variety name': `${tag} bad 1`, 'Maturity days': 'about 110' }),
    varietyRow({ 'Variety name': `${tag} bad 2`, Season: 'Summer' }),
  ];
  const file = {
    name: 'nsic-list.csv',
    mimeType: 'text/csv',
    buffer: csvOf([VARIETY_HEADER, good[0]!, bad[0]!, good[1]!, bad[1]!, good[2]!]),
  };

  await signIn(page, app, 'ADMIN', '/dashboard/rice_varieties');
  await expect(page.getByRole('heading', { name: VARIETIES.title })).toBeVisible();
  await page.getByRole('button', { name: T.open, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: T.title });
  await expect(dialog).toBeVisible();
  await dialog.locator('input[type=file]').setInputFiles(file);

  await expect(dialog.getByTestId('import-count-new')).toHaveText(`${T.counts.new} 3`);
  await expect(dialog.getByTestId('import-count-error')).toHaveText(`${T.counts.error} 2`);
  // The errors show first, each with its column and message.
  const errorRows = dialog.getByTestId('import-row');
  await expect(errorRows).toHaveCount(2);
  await expect(errorRows.nth(0)).toContainText('Maturity days: Enter a whole number.');
  await expect(errorRows.nth(1)).toContainText('"Summer" is not in the Season list');
  // Every column matched by its header: the column choices stay folded.
  await expect(dialog.getByText(T.mappingSummary(15, 15))).toBeVisible();
  await expect(dialog.getByRole('combobox')).toHaveCount(0);

  // Nothing is imported while errors stand, unless the user chooses to leave them out.
  const importButton = page.getByRole('button', { name: T.importButton(3) });
  await expect(importButton).toBeDisabled();
  expect(await axeViolations(page, 'import preview', '[role=dialog]')).toEqual([]);
  await fs.promises.mkdir('.tmp/screens', { recursive: true });
  await page.screenshot({ path: '.tmp/screens/variety-import-preview.png' });

  await dialog.getByLabel(T.skipErrors(2)).check();
  await importButton.click();
  await expect(dialog.getByRole('status')).toContainText(T.done(3, 0));
  await expect(dialog.getByRole('status')).toContainText(T.doneDetail(0, 2));
  await page.getByRole('button', { name: T.close, exact: true }).last().click();
  await expect(dialog).toBeHidden();

  await page.getByRole('searchbox', { name: VARIETIES.searchLabel }).fill(tag);
  const rows = page.getByTestId('variety-row');
  await expect(rows).toHaveCount(3);
  for (const i of [1, 2, 3]) await expect(rows.filter({ hasText: `${tag} good ${i}` })).toHaveCount(1);
  await expect(rows.filter({ hasText: `${tag} bad` })).toHaveCount(0);
});

test('export the searched list as CSV and XLSX from the Rice Varieties screen', async ({ page, app }) => {
  const tag = `Exp${Date.now().toString(36)}`;
  const api = await app.fixtureApi();
  for (const i of [1, 2]) {
    const res = await api.post('/api/varieties', {
      data: {
        varietyName: `${tag} ${i}`,
        releaseName: 'Tubigan',
        yearRelease: '2020',
        breedingCode: 'PR1',
        breederOrigin: 'PhilRice',
        maturityDays: 110,
        averageYield: 5.2,
        maxYield: 8.4,
        plantHeight: 98,
        tillers: 15,
        location: '=Paniqui',
        season: ['Dry'],
        plantingMethod: 'Transplanting',
        environment: ['Low Irrigated Land'],
        recommendedInTarlac: false,
      },
    });
    expect(res.status(), await res.text()).toBe(201);
  }
  await signIn(page, app, 'ADMIN', `/dashboard/rice_varieties?q=${tag}`);
  await expect(page.getByTestId('variety-row')).toHaveCount(2);

  await page.getByText(EXPORT_TEXTS.button, { exact: true }).click();
  await page.screenshot({ path: '.tmp/screens/variety-export-menu.png' });
  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: EXPORT_TEXTS.csv }).click()]);
  expect(csv.suggestedFilename()).toBe('rice-varieties.csv');
  const text = await fs.promises.readFile((await csv.path())!, 'utf8');
  const lines = text
    .replace(/^\ufeff/, '')
    .trim()
    .split('\r\n');
  expect(lines).toHaveLength(3);
  expect(lines[1]!.startsWith(`${tag} 2,`)).toBe(true);
  expect(lines[1]).toContain(",'=Paniqui,");

  await page.getByText(EXPORT_TEXTS.button, { exact: true }).click();
  const [xlsx] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: EXPORT_TEXTS.xlsx }).click()]);
  expect(xlsx.suggestedFilename()).toBe('rice-varieties.xlsx');
  const bytes = await fs.promises.readFile((await xlsx.path())!);
  expect(bytes.subarray(0, 2).toString()).toBe('PK');
});
