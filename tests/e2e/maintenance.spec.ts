import type { Page } from '@playwright/test';
import { MAINTENANCE } from '../../common/maintenance';
import { SHELL } from '../../common/texts';
import { VARIETIES, VARIETY_LABELS } from '../../common/varieties';
import { expect, test, type E2EServer } from './fixtures';
import { setSecurityQuestion, signIn } from './support';

let counter = 0;
const unique = (base: string) => `${base} ${Date.now().toString(36).slice(-4)}${(counter += 1)}`;

/** A live variety using the given options (the other fields complete), saved through the varieties API. */
async function insertVariety(app: E2EServer, options: { season: string[]; environment: string[] }): Promise<void> {
  const res = await (
    await app.fixtureApi()
  ).post('/api/varieties', {
    data: {
      varietyName: unique('NSIC Rc'),
      releaseName: 'Tubigan',
      yearRelease: '2020',
      breedingCode: 'PR12345',
      breederOrigin: 'PhilRice',
      maturityDays: 112,
      averageYield: 5.1,
      maxYield: 8.2,
      plantHeight: 98,
      tillers: 14,
      location: 'Tarlac',
      plantingMethod: 'Transplanting',
      season: options.season,
      environment: options.environment,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
}

/** A File maintenance tile (inside the page, not the sidebar's links of the same name). */
const tile = (page: Page, label: string) => page.getByRole('main').getByRole('link', { name: new RegExp(`^${label}`) });
const list = (page: Page, key: string) => page.getByTestId(`list-${key}`);
const option = (page: Page, key: string, value: string) =>
  list(page, key)
    .getByTestId('option')
    .filter({ has: page.getByText(value, { exact: true }) });

async function addOption(page: Page, key: keyof typeof MAINTENANCE.lists, value: string) {
  await list(page, key).getByLabel(MAINTENANCE.lists[key].addLabel).fill(value);
  await list(page, key)
    .getByRole('button', { name: `${MAINTENANCE.add} ${MAINTENANCE.lists[key].title}` })
    .click();
}

async function openRiceVarietyLists(page: Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: SHELL.nav.maintenance }).click();
  await expect(page.getByRole('heading', { name: MAINTENANCE.title })).toBeVisible();
  await tile(page, MAINTENANCE.tiles.riceVariety.label).click();
  await expect(page).toHaveURL(/\/dashboard\/file_maintenance\/rice_variety$/);
  await expect(list(page, 'seasons').getByTestId('option').first()).toBeVisible();
}

test('the tiles lead to the lists; Pest shows a placeholder; Rice Disease keeps the affected parts; each sub-page goes Back', async ({
  page,
  app,
}) => {
  await signIn(page, app, 'SYSTEM_ADMIN');
  await page.goto('/dashboard/file_maintenance');
  for (const t of Object.values(MAINTENANCE.tiles)) await expect(tile(page, t.label)).toBeVisible();
  await tile(page, MAINTENANCE.tiles.pest.label).click();
  await expect(page.getByText(MAINTENANCE.placeholder)).toBeVisible();
  await page.getByRole('button', { name: MAINTENANCE.back }).click();
  await tile(page, MAINTENANCE.tiles.disease.label).click();
  // Six default parts: five shown, then 'View more (1)'.
  await expect(list(page, 'affectedParts').getByTestId('option')).toHaveCount(5);
  await list(page, 'affectedParts')
    .getByRole('button', { name: MAINTENANCE.viewMore(1) })
    .click();
  await expect(list(page, 'affectedParts').getByTestId('option')).toHaveCount(6);
  await expect(list(page, 'affectedParts').getByTestId('option-usage').first()).toHaveText(/used by \d+ disease/);
  await page.getByRole('button', { name: MAINTENANCE.back }).click();
  await tile(page, MAINTENANCE.tiles.accounts.label).click();
  await expect(list(page, 'securityQuestions').getByTestId('option')).toHaveCount(5);
  await page.getByRole('button', { name: MAINTENANCE.back }).click();
  await expect(page).toHaveURL(/\/dashboard\/file_maintenance$/);
  await tile(page, MAINTENANCE.tiles.riceVariety.label).click();
  for (const key of ['seasons', 'plantingMethods', 'environments', 'yearReleases']) await expect(list(page, key)).toBeVisible();
  // The year-release list (2012 onwards) shows 5 items, then 'View more (N)'.
  const years = list(page, 'yearReleases');
  await expect(years.getByTestId('option')).toHaveCount(5);
  const total = new Date().getFullYear() - 2012 + 1;
  await years.getByRole('button', { name: MAINTENANCE.viewMore(total - 5) }).click();
  await expect(years.getByTestId('option')).toHaveCount(total);
  await years.getByRole('button', { name: MAINTENANCE.viewLess }).click();
  await expect(years.getByTestId('option')).toHaveCount(5);
});

test('adding a season: empty does nothing, a duplicate says Already exists., a new one says Added. and reaches the variety form of a second browser without reload', async ({
  page,
  browser,
  app,
}) => {
  // The second browser: an admin with the Add New Variety form open.
  const second = await (await browser.newContext()).newPage();
  await signIn(second, app, 'ADMIN', '/dashboard/rice_varieties');
  await second.getByRole('button', { name: VARIETIES.addNew }).click();
  const form = second.getByRole('dialog', { name: VARIETIES.form.addTitle });
  const seasonGroup = form.getByRole('group', { name: VARIETY_LABELS.season });
  await expect(seasonGroup.getByRole('checkbox', { name: 'Dry', exact: true })).toBeEnabled();

  await signIn(page, app, 'SYSTEM_ADMIN');
  await openRiceVarietyLists(page);
  const seasons = list(page, 'seasons');
  const before = await seasons.getByTestId('option').count();

  await addOption(page, 'seasons', '   ');
  await expect(page.getByText(MAINTENANCE.toasts.added, { exact: true })).toHaveCount(0);
  await expect(seasons.getByTestId('option')).toHaveCount(before);

  await addOption(page, 'seasons', 'dry');
  await expect(page.getByText(MAINTENANCE.toasts.exists, { exact: true })).toBeVisible();

  const season = unique('Ratoon');
  await addOption(page, 'seasons', season);
  await expect(page.getByText(MAINTENANCE.toasts.added, { exact: true })).toBeVisible();
  await expect(option(page, 'seasons', season)).toContainText(MAINTENANCE.usage.varieties(0));
  await expect(seasons.getByLabel(MAINTENANCE.lists.seasons.addLabel)).toHaveValue('');
  // The second browser's open form offers it at once, last, without a reload.
  await expect(seasonGroup.getByRole('checkbox', { name: season, exact: true })).toBeVisible();
  await expect(seasonGroup.getByRole('checkbox').last()).toHaveAccessibleName(season);
  // A toast lasts about 1.8 s.
  await expect(page.getByText(MAINTENANCE.toasts.added, { exact: true })).toHaveCount(0, { timeout: 5000 });
});

test('removing an option in use names the count in the confirmation and says Removed.', async ({ page, app }) => {
  const environment = unique('Saline Prone');
  await signIn(page, app, 'SYSTEM_ADMIN');
  await openRiceVarietyLists(page);
  await addOption(page, 'environments', environment);
  await expect(option(page, 'environments', environment)).toContainText(MAINTENANCE.usage.varieties(0));
  await insertVariety(app, { environment: [environment, 'Upperland'], season: ['Dry'] });
  await insertVariety(app, { environment: [environment], season: ['Wet'] });
  await page.reload();
  await expect(option(page, 'environments', environment)).toContainText(MAINTENANCE.usage.varieties(2));

  await option(page, 'environments', environment)
    .getByRole('button', { name: `${MAINTENANCE.remove} ${environment}` })
    .click();
  const dialog = page.getByRole('dialog', { name: MAINTENANCE.removeTitle });
  await expect(dialog).toContainText(MAINTENANCE.removeWarning);
  await expect(dialog.getByTestId('remove-usage')).toHaveText('It is used by 2 varieties.');
  // Cancel keeps it.
  await dialog.getByRole('button', { name: MAINTENANCE.cancel }).click();
  await expect(option(page, 'environments', environment)).toBeVisible();
  await option(page, 'environments', environment)
    .getByRole('button', { name: `${MAINTENANCE.remove} ${environment}` })
    .click();
  await dialog.getByRole('button', { name: MAINTENANCE.remove, exact: true }).click();
  await expect(page.getByText(MAINTENANCE.toasts.removed, { exact: true })).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(option(page, 'environments', environment)).toHaveCount(0);
});

test('removing a security question someone chose warns that Forgot Password verification is affected', async ({ page, app }) => {
  const chooser = await app.account('ADMIN');
  await setSecurityQuestion(app, chooser, 'In what city were you born?', 'Tarlac');
  await signIn(page, app, 'SYSTEM_ADMIN');
  await page.goto('/dashboard/file_maintenance/accounts');
  const question = option(page, 'securityQuestions', 'In what city were you born?');
  await expect(question).toContainText(/chosen by \d+ accounts?/);
  const shown = await question.getByTestId('option-usage').textContent();
  await question.getByRole('button', { name: `${MAINTENANCE.remove} In what city were you born?` }).click();
  const dialog = page.getByRole('dialog', { name: MAINTENANCE.removeTitle });
  await expect(dialog).toContainText(MAINTENANCE.removeWarningSecurity);
  await expect(dialog.getByTestId('remove-usage')).toHaveText(`It is ${shown}.`);
  await dialog.getByRole('button', { name: MAINTENANCE.cancel }).click();
});

test('reordering with the keyboard is kept only after Save Changes, and leaving unsaved asks first', async ({ page, app }) => {
  await signIn(page, app, 'SYSTEM_ADMIN');
  await openRiceVarietyLists(page);
  const methods = list(page, 'plantingMethods');
  const values = async () => methods.getByTestId('option-value').allTextContents();
  const start = await values();
  expect(start.length).toBeGreaterThanOrEqual(2);
  const last = start[start.length - 1]!;

  // Keyboard: focus the last item's "Move up" button and press Enter.
  await methods.getByRole('button', { name: MAINTENANCE.moveUp(last) }).focus();
  await page.keyboard.press('Enter');
  const moved = [...start.slice(0, -2), last, start[start.length - 2]!];
  await expect.poll(values).toEqual(moved);
  await expect(page.getByText(MAINTENANCE.unsavedNote)).toBeVisible();

  // Leaving through Back asks; Stay keeps the page and the order.
  await page.getByRole('button', { name: MAINTENANCE.back }).click();
  const ask = page.getByRole('dialog', { name: MAINTENANCE.unsaved.title });
  await expect(ask).toContainText(MAINTENANCE.unsaved.message);
  await ask.getByRole('button', { name: MAINTENANCE.unsaved.stay }).click();
  await expect(page).toHaveURL(/rice_variety$/);
  await expect.poll(values).toEqual(moved);
  // The sidebar asks too.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: SHELL.nav.dashboard }).click();
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: MAINTENANCE.unsaved.stay }).click();

  await page.getByRole('button', { name: MAINTENANCE.saveChanges }).click();
  await expect(page.getByText(MAINTENANCE.toasts.saved, { exact: true })).toBeVisible();
  await expect(page.getByText(MAINTENANCE.unsavedNote)).toHaveCount(0);
  // The order is what forms get.
  const options = await (await page.request.get('/api/maintenance/options')).json();
  expect(options.riceVarieties.plantingMethods).toEqual(moved);
  // Nothing unsaved now: Back leaves without asking.
  await page.getByRole('button', { name: MAINTENANCE.back }).click();
  await expect(page).toHaveURL(/\/dashboard\/file_maintenance$/);

  // Put the order back for the other tests (after the first toast has gone).
  await expect(page.getByText(MAINTENANCE.toasts.saved, { exact: true })).toHaveCount(0);
  await tile(page, MAINTENANCE.tiles.riceVariety.label).click();
  await list(page, 'plantingMethods')
    .getByRole('button', { name: MAINTENANCE.moveDown(last) })
    .click();
  await page.getByRole('button', { name: MAINTENANCE.saveChanges }).click();
  await expect(page.getByText(MAINTENANCE.toasts.saved, { exact: true })).toBeVisible();
  await expect.poll(values).toEqual(start);
});

test('an ADMIN cannot open File maintenance and the API refuses the writes', async ({ page, app }) => {
  await signIn(page, app, 'ADMIN');
  await page.goto('/dashboard/file_maintenance/rice_variety');
  await expect(page).toHaveURL(/\/dashboard$/);
  const res = await page.request.post('/api/maintenance/documents/rice_varieties_enums/lists/seasons', { data: { value: 'Sneaky' } });
  expect(res.status()).toBe(403);
});
