import sharp from 'sharp';
import { CATALOG_KINDS } from '../../common/catalog';
import { CATALOG_LABELS } from '../../common/catalog-texts';
import { HISTORY } from '../../common/history';
import { LIST_TEXTS } from '../../common/texts';
import { entryBody } from '../fixtures/catalog';
import { axeViolations } from './axe';
import { expect, test } from './fixtures';
import { signIn } from './support';

const pest = CATALOG_KINDS.pest.texts;

test('pests as a list beside the cards: the choice is in the address, and on a phone each row is a card with its actions', async ({
  page,
  app,
}) => {
  const api = await app.fixtureApi();
  const name = `Leaf folder ${Date.now().toString(36)}`;
  const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 40, g: 140, b: 60 } } })
    .png()
    .toBuffer();
  const staged = await api.post('/api/rice_pests/images', {
    multipart: { file: { name: 'leaf.png', mimeType: 'image/png', buffer: png } },
  });
  expect(staged.status()).toBe(201);
  const created = await api.post('/api/rice_pests', { data: entryBody(name, [(await staged.json()).id]) });
  expect(created.status()).toBe(201);

  await signIn(page, app, 'ADMIN', '/dashboard/rice_pests');
  await expect(page.getByRole('heading', { name: pest.title })).toBeVisible();
  const choice = page.getByRole('group', { name: CATALOG_LABELS.showAs });
  await choice.getByRole('button', { name: CATALOG_LABELS.asList }).click();
  await expect(page).toHaveURL(/view=list/);
  const entry = page.getByTestId('catalog-row').filter({ hasText: name });
  await expect(entry).toContainText('Testus examplus');
  await expect(entry.locator(`td[data-label="${CATALOG_LABELS.photos}"]`)).toHaveText('1');
  await expect(choice.getByRole('button', { name: CATALOG_LABELS.asList })).toHaveAttribute('aria-pressed', 'true');
  expect(await axeViolations(page, 'pests as a list')).toEqual([]);
  await page.reload();
  await expect(page.getByTestId('catalog-row').filter({ hasText: name })).toBeVisible();

  // Sorted by a heading, A to Z and back, the order in the address.
  const second = await api.post('/api/rice_pests/images', {
    multipart: { file: { name: 'leaf.png', mimeType: 'image/png', buffer: png } },
  });
  const other = `aphid ${Date.now().toString(36)}`;
  expect((await api.post('/api/rice_pests', { data: entryBody(other, [(await second.json()).id]) })).status()).toBe(201);
  const names = () => page.getByTestId('catalog-row').locator(`td[data-label="${CATALOG_LABELS.name}"]`).allInnerTexts();
  const heading = page.getByRole('columnheader', { name: CATALOG_LABELS.name, exact: true });
  await heading.getByRole('button').click();
  await expect(page).toHaveURL(/sort=name&dir=asc/);
  await expect(heading).toHaveAttribute('aria-sort', 'ascending');
  await expect(page.getByTestId('catalog-row').filter({ hasText: other })).toBeVisible();
  const az = await names();
  expect(az).toEqual([...az].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1)));
  expect(az.findIndex((n) => n.includes(other))).toBeLessThan(az.findIndex((n) => n.includes(name)));
  await heading.getByRole('button').click();
  await expect(heading).toHaveAttribute('aria-sort', 'descending');
  await expect.poll(names).toEqual([...az].reverse());

  await page.setViewportSize({ width: 360, height: 740 });
  const remove = entry.getByRole('button', { name: `${CATALOG_LABELS.delete} ${name}` });
  await remove.scrollIntoViewIfNeeded();
  const box = (await remove.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(360);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  expect(await axeViolations(page, 'pests as a list, 360 px')).toEqual([]);

  // The cards again, remembered by this browser.
  await choice.getByRole('button', { name: CATALOG_LABELS.asCards }).click();
  await expect(page.getByTestId('catalog-card').filter({ hasText: name })).toBeVisible();
  await page.goto('/dashboard/rice_pests');
  await expect(page.getByTestId('catalog-card').filter({ hasText: name })).toBeVisible();
});

test('History on a phone: each entry is a card, and its filters wait behind a Filters button, so the first entries are on the first screen', async ({
  page,
  app,
}) => {
  const api = await app.fixtureApi();
  expect((await api.post('/api/varieties', { data: { ...varietyForHistory(), varietyName: `History Rc ${Date.now()}` } })).status()).toBe(
    201,
  );
  await page.setViewportSize({ width: 360, height: 740 });
  await signIn(page, app, 'SYSTEM_ADMIN', '/dashboard/history_logs');
  await expect(page.getByRole('heading', { name: HISTORY.title })).toBeVisible();
  await expect(page.getByLabel(HISTORY.filters.action)).toBeHidden();
  const first = page.getByTestId('history-row').first();
  await expect(first).toBeVisible();
  expect((await first.boundingBox())!.y).toBeLessThan(740);
  // Each entry is a card: its description wraps inside the screen, nothing scrolls sideways.
  const description = first.locator('td').last();
  const box = (await description.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(360);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await page.getByRole('button', { name: LIST_TEXTS.filterButton(0) }).click();
  await expect(page.getByLabel(HISTORY.filters.action)).toBeVisible();
  await page.getByLabel(HISTORY.filters.action).selectOption('CREATE');
  await expect(page.getByRole('button', { name: LIST_TEXTS.filterButton(1) })).toBeVisible();
  expect(await axeViolations(page, 'history, filters open, 360 px')).toEqual([]);
});

function varietyForHistory() {
  return {
    releaseName: 'Tubigan 1',
    yearRelease: '2020',
    breedingCode: 'PR1-B',
    breederOrigin: 'PhilRice',
    maturityDays: 110,
    averageYield: 5,
    maxYield: 8,
    plantHeight: 98,
    tillers: 15,
    location: 'Paniqui',
    season: ['Dry'],
    plantingMethod: 'Transplanting',
    environment: ['Low Irrigated Land'],
    recommendedInTarlac: false,
  };
}
