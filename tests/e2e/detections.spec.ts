import crypto from 'node:crypto';
import fs from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import { CATALOG_KINDS } from '../../common/catalog';
import { CATALOG_LABELS } from '../../common/catalog-texts';
import { DETECTIONS_TEXTS } from '../../common/scan-reports';
import { expect, test, type E2EServer } from './fixtures';
import { importExport, signIn } from './support';

const SHOTS = '.tmp/screens';
const name = `Leaf scald ${Date.now().toString(36)}`;
const label = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');

/** A saved disease, imported with the real import command (its label is the slug of its name). */
async function insertDisease(app: E2EServer, diseaseName = name): Promise<string> {
  const id = crypto.randomUUID();
  await importExport(app, { rice_local_diseases: { [id]: { name: diseaseName, createdAt: new Date().toISOString() } } });
  return id;
}

/** A new install's token, as the farmer app registers on first start. */
async function installHeaders(request: APIRequestContext): Promise<Record<string, string>> {
  const res = await request.post('/api/public/v1/installs', { data: {} });
  expect(res.status()).toBe(201);
  return { authorization: `Bearer ${(await res.json()).installToken}` };
}

function municipalityCell(page: Page, municipality: string) {
  return page
    .getByTestId('detections-municipalities')
    .getByRole('row', { name: new RegExp(`^${municipality} `) })
    .getByRole('cell');
}

test('posted scan reports change the Detections chart, table, top list and municipality table live; filter and CSV', async ({
  page,
  request,
  app,
}) => {
  const diseaseId = await insertDisease(app);
  const other = `Other blight ${Date.now().toString(36)}`;
  await insertDisease(app, other);
  await signIn(page, app, 'ADMIN');
  const section = page.getByTestId('detections');
  await expect(section.getByRole('heading', { name: DETECTIONS_TEXTS.title })).toBeVisible();
  await expect(municipalityCell(page, 'Capas')).toHaveText('0');
  await section.getByRole('button', { name: DETECTIONS_TEXTS.showTable }).click();
  await expect(section.getByTestId('detections-table').getByRole('columnheader', { name })).toHaveCount(0);

  // The farmer app posts three reports from Capas and one from Bamban (no Origin header, no session).
  for (const municipality of ['Capas', 'Capas', 'Capas', 'Bamban']) {
    const res = await request.post('/api/public/v1/scan-reports', {
      data: {
        reportId: crypto.randomUUID(),
        label,
        confidence: 0.87,
        modelVersion: 'e2e-1',
        scannedAt: new Date().toISOString(),
        municipality,
      },
      headers: await installHeaders(request),
    });
    expect(res.status()).toBe(201);
  }
  for (let i = 0; i < 2; i += 1) {
    const res = await request.post('/api/public/v1/scan-reports', {
      data: {
        reportId: crypto.randomUUID(),
        label: other.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
        confidence: 0.7,
        modelVersion: 'e2e-1',
        scannedAt: new Date().toISOString(),
        municipality: 'Capas',
      },
      headers: await installHeaders(request),
    });
    expect(res.status()).toBe(201);
  }
  // Without a reload: the table alternative gains the disease's column with 4 in the current week.
  const table = section.getByTestId('detections-table');
  await expect(table.getByRole('columnheader', { name })).toBeVisible();
  const lastRow = table.getByRole('row').last();
  const column = await table.getByRole('columnheader').allTextContents();
  // The first column is the week (a row header); the cells follow the disease columns.
  expect(column.indexOf(name)).toBeGreaterThan(0);
  await expect(lastRow.getByRole('cell').nth(column.indexOf(name) - 1)).toHaveText('4');
  await expect(section.getByTestId(`series-${diseaseId}`)).toHaveCount(1);
  await expect(section.getByTestId('detections-top').getByText(name)).toBeVisible();
  await expect(municipalityCell(page, 'Capas')).toHaveText('5');
  await expect(municipalityCell(page, 'Bamban')).toHaveText('1');

  // One more report arrives while the page is open.
  await request.post('/api/public/v1/scan-reports', {
    data: {
      reportId: crypto.randomUUID(),
      label,
      confidence: 0.6,
      modelVersion: 'e2e-1',
      scannedAt: new Date().toISOString(),
      municipality: 'Capas',
    },
    headers: await installHeaders(request),
  });
  await expect(municipalityCell(page, 'Capas')).toHaveText('6');

  fs.mkdirSync(SHOTS, { recursive: true });
  await section.screenshot({ path: `${SHOTS}/detections-all.png` });

  // Filtered by the disease: only its own reports per municipality, only its line.
  await section.getByLabel(DETECTIONS_TEXTS.filterLabel, { exact: true }).selectOption({ label: name });
  await expect(section.getByRole('heading', { name: new RegExp(name) })).toBeVisible();
  await expect(municipalityCell(page, 'Capas')).toHaveText('4');
  await expect(section.locator('[data-testid^="series-"]')).toHaveCount(1);
  await section.screenshot({ path: `${SHOTS}/detections-filtered.png` });

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    section.getByRole('link', { name: DETECTIONS_TEXTS.exportCsv }).click(),
  ]);
  const csv = fs.readFileSync(await download.path(), 'utf8');
  expect(csv.startsWith('\ufeff')).toBe(true);
  expect(csv.slice(1).split('\r\n')[0]).toBe('week_start,disease_id,disease,municipality,reports');
  expect(csv).toContain(`,${diseaseId},${name},Capas,4`);
  expect(csv).toContain(`,${diseaseId},${name},Bamban,1`);
});

test('the disease form shows the local name, affected parts and, for a super admin, the training-class flag', async ({ page, app }) => {
  await signIn(page, app, 'SYSTEM_ADMIN', '/dashboard/rice_diseases');
  await page.getByRole('button', { name: CATALOG_KINDS.disease.texts.addButton }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByLabel(CATALOG_LABELS.localName)).toBeVisible();
  const parts = dialog.getByRole('group', { name: CATALOG_LABELS.affectedParts });
  for (const part of ['leaf', 'sheath', 'panicle', 'stem', 'grain', 'root'])
    await expect(parts.getByLabel(part, { exact: true })).toBeVisible();
  await expect(dialog.getByLabel(CATALOG_LABELS.trainingClass)).toBeVisible();
  await dialog.getByLabel(CATALOG_LABELS.localName).fill('Pagkapaso ng dahon');
  await parts.getByLabel('leaf', { exact: true }).check();
  fs.mkdirSync(SHOTS, { recursive: true });
  await dialog.screenshot({ path: `${SHOTS}/disease-form.png` });
});
