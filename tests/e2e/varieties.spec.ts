import type { Locator, Page } from '@playwright/test';
import { VARIETIES, VARIETY_LABELS, VARIETY_MESSAGES } from '../../common/varieties';
import { expect, test, type E2EAccount, type E2EServer, type Role } from './fixtures';
import { importVarietyDocs, signIn } from './support';
import { axeViolations } from './axe';
import { TRASH } from '../../common/trash';

let counter = 0;
const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}${++counter}`;

function body(overrides: Record<string, unknown> = {}) {
  return {
    varietyName: unique('NSIC Rc'),
    releaseName: 'Tubigan 99',
    yearRelease: '2020',
    breedingCode: 'PR40000-B-1',
    breederOrigin: 'PhilRice',
    maturityDays: 110,
    averageYield: 5.2,
    maxYield: 8.4,
    plantHeight: 98,
    tillers: 15,
    location: 'Paniqui',
    season: ['Dry'],
    plantingMethod: 'Transplanting',
    environment: ['Low Irrigated Land'],
    recommendedInTarlac: false,
    ...overrides,
  };
}

/** The browser's user is the file's ADMIN (the editor) unless another account is named. */
async function openVarieties(page: Page, app: E2EServer, who: Role | E2EAccount = 'ADMIN', query = ''): Promise<void> {
  await signIn(page, app, who, `/dashboard/rice_varieties${query}`);
  await expect(page.getByRole('heading', { name: VARIETIES.title })).toBeVisible();
}

const table = (page: Page) => page.getByRole('table');
const row = (page: Page, name: string) => page.getByTestId('variety-row').filter({ hasText: name });

/** Update, then the confirm step and the "Updated" result, as a user clicks through them. */
async function updateAndConfirm(page: Page, form: Locator, name: string) {
  await form.getByRole('button', { name: VARIETIES.form.update }).click();
  await page
    .getByRole('dialog', { name: VARIETIES.confirmSave.title })
    .getByRole('button', { name: VARIETIES.confirmSave.confirm })
    .click();
  const updated = page.getByRole('dialog', { name: VARIETIES.result.updatedTitle });
  await expect(updated).toContainText(VARIETIES.result.updated(name));
  await updated.getByRole('button', { name: VARIETIES.result.ok }).click();
}

async function search(page: Page, term: string) {
  await page.getByRole('searchbox', { name: VARIETIES.searchLabel }).fill(term);
  await expect(page).toHaveURL(new RegExp(`q=${encodeURIComponent(term).replace(/%20/g, '(\\+|%20)')}`));
}

test('the screen shows its header, columns, loading and empty texts', async ({ page, app }) => {
  await signIn(page, app, 'ADMIN');
  // Hold the first list answer back a moment to see the loading text.
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/varieties?*', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/dashboard/rice_varieties');
  await expect(table(page)).toContainText(VARIETIES.loading);
  release();
  await expect(table(page)).not.toContainText(VARIETIES.loading);
  await page.unroute('**/api/varieties?*');
  await expect(page.getByText(VARIETIES.subtitle)).toBeVisible();
  await expect(page.getByPlaceholder(VARIETIES.searchPlaceholder)).toBeVisible();
  await expect(page.getByRole('button', { name: VARIETIES.addNew })).toBeVisible();
  for (const h of Object.values(VARIETIES.columns)) await expect(table(page).getByRole('columnheader', { name: h })).toBeVisible();
  await search(page, 'no variety is called like this');
  await expect(table(page)).toContainText(VARIETIES.empty);
  await expect(page.getByRole('navigation', { name: 'Pagination' })).toHaveCount(0);
});

test('adding a variety: confirm, "Saved!", and it appears in a second browser without reload', async ({ page, browser, app }) => {
  const watcherPage = await (await browser.newContext()).newPage();
  await openVarieties(watcherPage, app, await app.account('ADMIN'));
  await openVarieties(page, app);
  const name = unique('NSIC Rc');

  await page.getByRole('button', { name: VARIETIES.addNew }).click();
  const form = page.getByRole('dialog', { name: VARIETIES.form.addTitle });
  await form.getByLabel('Variety name').fill(name);
  await form.getByLabel('Release name').fill('Tubigan 77');
  await form.getByLabel('Year release').selectOption('2021');
  await form.getByLabel('Breeding code').fill('PR41234-B-2');
  await form.getByLabel('Breeder origin').fill('PhilRice');
  await form.getByLabel('Maturity days').fill('112');
  await form.getByLabel('Plant height (cm)').fill('101');
  await form.getByLabel('Average yield (t/ha)').fill('5.6');
  await form.getByLabel('Maximum yield (t/ha)').fill('9');
  await form.getByLabel('Number of tillers').fill('17');
  await form.getByLabel('Planting method').selectOption('Direct Seed');
  await form.getByRole('group', { name: 'Season' }).getByLabel('Wet').check();
  await form.getByRole('group', { name: 'Environment' }).getByLabel('Rainfed Lowland').check();
  await form.getByLabel('Location').fill('Camiling');
  await form.getByLabel('Recommended in Tarlac').check();
  await form.getByRole('button', { name: VARIETIES.form.save }).click();

  const confirm = page.getByRole('dialog', { name: VARIETIES.confirmSave.title });
  await expect(confirm).toContainText(VARIETIES.confirmSave.addText(name));
  await confirm.getByRole('button', { name: VARIETIES.confirmSave.confirm }).click();
  const result = page.getByRole('dialog', { name: VARIETIES.result.savedTitle });
  await expect(result).toContainText(VARIETIES.result.saved(name));
  await result.getByRole('button', { name: VARIETIES.result.ok }).click();
  await expect(form).toBeHidden();

  await expect(row(page, name)).toContainText('Camiling');
  // The other browser shows it without a reload, with its Yes badge and dashes for nothing.
  await expect(row(watcherPage, name)).toBeVisible();
  await expect(row(watcherPage, name)).toContainText('Tubigan 77');
  await expect(row(watcherPage, name)).toContainText(VARIETIES.yes);

  // The view dialog shows every field with its unit.
  await row(page, name)
    .getByRole('button', { name: new RegExp(`^${VARIETIES.actions.view} `) })
    .click();
  const view = page.getByRole('dialog', { name: VARIETIES.view.title });
  for (const text of ['5.6 t/ha', '9 t/ha', '112 days', '101 cm', '17', 'Wet', 'Direct Seed', 'Rainfed Lowland', 'PR41234-B-2', '2021'])
    await expect(view).toContainText(text);
  await view.getByRole('button', { name: VARIETIES.view.close }).first().click();
  await watcherPage.context().close();
});

test('field errors show after touch or submit, and a submit with errors goes no further', async ({ page, app }) => {
  await openVarieties(page, app);
  // The selects stay disabled while the option lists load.
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/maintenance/options', async (route) => {
    await held;
    await route.continue();
  });
  await page.reload();
  await page.getByRole('button', { name: VARIETIES.addNew }).click();
  const form = page.getByRole('dialog', { name: VARIETIES.form.addTitle });
  await expect(form.getByLabel('Planting method')).toBeDisabled();
  await expect(form.getByLabel('Year release')).toBeDisabled();
  release();
  await expect(form.getByLabel('Planting method')).toBeEnabled();
  await page.unroute('**/api/maintenance/options');

  await form.getByLabel('Variety name').focus();
  await form.getByLabel('Release name').focus();
  await expect(form.getByText('Variety name is required.')).toBeVisible();
  await expect(form.getByText('Release name is required.')).toHaveCount(0);

  await form.getByLabel('Maturity days').fill('12.5');
  await form.getByLabel('Maturity days').blur();
  await expect(form.getByText(VARIETY_MESSAGES.wholeNumber)).toBeVisible();
  await form.getByLabel('Average yield (t/ha)').fill('-2');
  await form.getByLabel('Average yield (t/ha)').blur();
  await expect(form.getByText(VARIETY_MESSAGES.decimal)).toBeVisible();

  await form.getByRole('button', { name: VARIETIES.form.save }).click();
  for (const message of [
    'Release name is required.',
    'Year release is required.',
    'Location is required.',
    'Planting method is required.',
    VARIETY_MESSAGES.seasonRequired,
    VARIETY_MESSAGES.environmentRequired,
  ]) {
    await expect(form.getByText(message)).toBeVisible();
  }
  await expect(page.getByRole('dialog', { name: VARIETIES.confirmSave.title })).toHaveCount(0);

  // Fixing a field clears its message.
  await form.getByLabel('Maturity days').fill('115');
  await expect(form.getByText(VARIETY_MESSAGES.wholeNumber)).toHaveCount(0);
});

test('an option list change shows at once in an open form, and a save the server refuses ends in "Failed" with its reason', async ({
  page,
  app,
}) => {
  await openVarieties(page, app);
  await page.getByRole('button', { name: VARIETIES.addNew }).click();
  const form = page.getByRole('dialog', { name: VARIETIES.form.addTitle });
  const seasons = form.getByRole('group', { name: 'Season' });
  await expect(seasons.getByLabel('Dry')).toBeVisible();
  const option = unique('Ratoon');
  const admin = await app.fixtureApi();
  const added = await admin.post('/api/maintenance/documents/rice_varieties_enums/lists/seasons', { data: { value: option } });
  expect(added.ok()).toBe(true);
  await seasons.getByLabel(option).check();

  const name = unique('NSIC Rc');
  await form.getByLabel('Variety name').fill(name);
  await form.getByLabel('Release name').fill('Sahod Ulan 3');
  await form.getByLabel('Year release').selectOption('2015');
  await form.getByLabel('Breeding code').fill('PR39000-B-1');
  await form.getByLabel('Breeder origin').fill('IRRI');
  await form.getByLabel('Maturity days').fill('105');
  await form.getByLabel('Plant height (cm)').fill('95');
  await form.getByLabel('Average yield (t/ha)').fill('4');
  await form.getByLabel('Maximum yield (t/ha)').fill('6.5');
  await form.getByLabel('Number of tillers').fill('14');
  await form.getByLabel('Planting method').selectOption('Transplanting');
  await form.getByRole('group', { name: 'Environment' }).getByLabel('Upperland').check();
  await form.getByLabel('Location').fill('Mayantoc');
  await form.getByRole('button', { name: VARIETIES.form.save }).click();
  const confirm = page.getByRole('dialog', { name: VARIETIES.confirmSave.title });
  await expect(confirm).toBeVisible();

  // The option is removed while the user confirms: the server refuses with the field's message.
  const removed = await admin.delete(`/api/maintenance/documents/rice_varieties_enums/lists/seasons?value=${encodeURIComponent(option)}`);
  expect(removed.ok()).toBe(true);
  await confirm.getByRole('button', { name: VARIETIES.confirmSave.confirm }).click();
  const failed = page.getByRole('dialog', { name: VARIETIES.result.failedTitle });
  await expect(failed).toContainText(VARIETY_MESSAGES.seasonRequired);
  await failed.getByRole('button', { name: VARIETIES.result.ok }).click();
  await expect(failed).toBeHidden();
  // The form stays open with the reason on the field and the removed option marked.
  await expect(form).toBeVisible();
  await expect(form.getByText(VARIETY_MESSAGES.seasonRequired)).toBeVisible();
  await expect(seasons.getByLabel(`${option} ${VARIETIES.form.removedOption}`)).toBeChecked();
  // Unticked, a removed option disappears from the form.
  await seasons.getByLabel(`${option} ${VARIETIES.form.removedOption}`).click();
  await expect(seasons.getByLabel(`${option} ${VARIETIES.form.removedOption}`)).toHaveCount(0);
  await seasons.getByLabel('Dry').check();
  await expect(form.getByText(VARIETY_MESSAGES.seasonRequired)).toHaveCount(0);
  await form.getByRole('button', { name: VARIETIES.form.save }).click();
  await confirm.getByRole('button', { name: VARIETIES.confirmSave.confirm }).click();
  await expect(page.getByRole('dialog', { name: VARIETIES.result.savedTitle })).toContainText(VARIETIES.result.saved(name));
});

test('paging with 45 records: 20 a page, Previous/Next, "Page x of y", and the search survives paging', async ({ page, app }) => {
  const api = await app.fixtureApi();
  const tag = unique('Pagetown').replace(' ', '');
  for (let i = 0; i < 45; i += 1) {
    const res = await api.post('/api/varieties', { data: body({ location: `${tag} ${String(i).padStart(2, '0')}` }) });
    expect(res.status()).toBe(201);
  }
  await openVarieties(page, app);
  await search(page, tag.toLowerCase());
  const pager = page.getByRole('navigation', { name: 'Pagination' });
  await expect(pager).toContainText('Page 1 of 3');
  await expect(page.getByTestId('variety-row')).toHaveCount(20);
  await expect(pager.getByRole('button', { name: 'Previous' })).toBeDisabled();
  await expect(page.getByTestId('variety-row').first()).toContainText(`${tag} 44`);
  await pager.getByRole('button', { name: 'Next' }).click();
  await expect(pager).toContainText('Page 2 of 3');
  await expect(page.getByTestId('variety-row').first()).toContainText(`${tag} 24`);
  await pager.getByRole('button', { name: 'Next' }).click();
  await expect(pager).toContainText('Page 3 of 3');
  await expect(page.getByTestId('variety-row')).toHaveCount(5);
  await expect(pager.getByRole('button', { name: 'Next' })).toBeDisabled();
  await expect(page.getByRole('searchbox', { name: VARIETIES.searchLabel })).toHaveValue(tag.toLowerCase());
  await pager.getByRole('button', { name: 'Previous' }).click();
  await expect(pager).toContainText('Page 2 of 3');
  await search(page, `${tag} 07`);
  await expect(page.getByTestId('variety-row')).toHaveCount(1);
  await expect(pager).toHaveCount(0);
});

test('delete asks for the name typed exactly (trimmed), then shows the toast for about 1.2 s', async ({ page, app }) => {
  const api = await app.fixtureApi();
  const name = unique('PSB Rc');
  expect((await api.post('/api/varieties', { data: body({ varietyName: name }) })).status()).toBe(201);
  await openVarieties(page, app);
  await search(page, name);
  await row(page, name)
    .getByRole('button', { name: new RegExp(`^${VARIETIES.actions.delete} `) })
    .click();
  const dialog = page.getByRole('dialog', { name: VARIETIES.deleteDialog.title });
  const input = dialog.getByRole('textbox');
  const confirm = dialog.getByRole('button', { name: VARIETIES.deleteDialog.confirm });
  // It says where the record goes: an ADMIN cannot restore from the Trash, a super admin can.
  await expect(dialog).toContainText(TRASH.deleteNote(false));
  await expect(confirm).toBeDisabled();
  await input.fill(name.toLowerCase());
  await expect(dialog.getByText(VARIETY_MESSAGES.deleteMismatch)).toBeVisible();
  await expect(confirm).toBeDisabled();
  await input.fill(`  ${name}  `);
  await expect(dialog.getByText(VARIETY_MESSAGES.deleteMismatch)).toHaveCount(0);
  await confirm.click();
  const toast = page.getByRole('status').filter({ hasText: VARIETIES.deleted });
  await expect(toast).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(table(page)).toContainText(VARIETIES.empty);
  await expect(toast).toBeHidden({ timeout: 5000 });
});

test('an open edit form keeps touched fields when the record changes, detects the newer save, and offers reload or overwrite', async ({
  page,
  app,
}) => {
  const api = await app.fixtureApi();
  const name = unique('NSIC Rc');
  const created = await (await api.post('/api/varieties', { data: body({ varietyName: name }) })).json();
  await openVarieties(page, app);
  await search(page, name);
  await row(page, name)
    .getByRole('button', { name: new RegExp(`^${VARIETIES.actions.edit} `) })
    .click();
  const form = page.getByRole('dialog', { name: VARIETIES.form.editTitle });
  await expect(form.getByLabel('Location')).toHaveValue('Paniqui');

  // The user changes the location; someone else saves other values meanwhile.
  await form.getByLabel('Location').fill('Gerona');
  const theirs = await api.put(`/api/varieties/${created.id}`, {
    data: { ...body({ varietyName: name }), maturityDays: 121, location: 'Capas', version: created.version },
  });
  expect(theirs.ok()).toBe(true);
  await expect(form.getByLabel('Maturity days')).toHaveValue('121');
  await expect(form.getByLabel('Location')).toHaveValue('Gerona');

  // Saving over their newer version is detected: reload keeps the touched field.
  await form.getByRole('button', { name: VARIETIES.form.update }).click();
  await page
    .getByRole('dialog', { name: VARIETIES.confirmSave.title })
    .getByRole('button', { name: VARIETIES.confirmSave.confirm })
    .click();
  const conflict = page.getByRole('dialog', { name: 'Changed by someone else' });
  await expect(conflict).toBeVisible();
  await conflict.getByRole('button', { name: 'Reload their version' }).click();
  await expect(conflict).toBeHidden();
  await expect(form.getByLabel('Location')).toHaveValue('Gerona');
  await expect(form.getByLabel('Maturity days')).toHaveValue('121');
  await updateAndConfirm(page, form, name);
  await expect(form).toBeHidden();
  let stored = await (await api.get(`/api/varieties/${created.id}`)).json();
  expect(stored).toMatchObject({ location: 'Gerona', maturityDays: 121, version: 3 });

  // Again, and this time the user overwrites theirs.
  await row(page, name)
    .getByRole('button', { name: new RegExp(`^${VARIETIES.actions.edit} `) })
    .click();
  await expect(form.getByLabel('Location')).toHaveValue('Gerona');
  await form.getByLabel('Number of tillers').fill('22');
  expect(
    (
      await api.put(`/api/varieties/${created.id}`, {
        data: { ...body({ varietyName: name }), location: 'Bamban', tillers: 9, version: 3 },
      })
    ).ok(),
  ).toBe(true);
  await expect(form.getByLabel('Location')).toHaveValue('Bamban');
  await form.getByRole('button', { name: VARIETIES.form.update }).click();
  await page
    .getByRole('dialog', { name: VARIETIES.confirmSave.title })
    .getByRole('button', { name: VARIETIES.confirmSave.confirm })
    .click();
  await conflict.getByRole('button', { name: 'Overwrite' }).click();
  await expect(page.getByRole('dialog', { name: VARIETIES.result.updatedTitle })).toBeVisible();
  stored = await (await api.get(`/api/varieties/${created.id}`)).json();
  expect(stored).toMatchObject({ tillers: 22, location: 'Bamban', version: 5 });
});

test('a record imported with fields missing is fixed in one field and saved, keeping its 1997 release year', async ({ page, app }) => {
  const name = unique('PSB Rc');
  const id = `e2e-${Date.now().toString(36)}`;
  // As the old app's records are: no breeding code, height, tillers, yields, planting method or environment.
  await importVarietyDocs(app, {
    [id]: { varietyName: name, releaseName: 'Sahod Ulan 1', yearRelease: '1997', location: 'Paniqui', season: ['Wet'] },
  });
  await openVarieties(page, app);
  // Needs completing lists it with what it lacks, and opens it for editing.
  await page.getByRole('button', { name: /^Needs completing \(\d+\)$/ }).click();
  const needs = page.getByRole('dialog', { name: VARIETIES.needsCompleting.title });
  const listed = needs.getByTestId('incomplete-variety').filter({ hasText: name });
  await expect(listed).toContainText('Lacks: Breeding code, Breeder origin, Maturity days');
  await needs.screenshot({ path: '.tmp/screens/varieties-needs-completing.png' });
  expect(await axeViolations(page, 'needs completing')).toEqual([]);
  await listed.getByRole('button', { name: `${VARIETIES.needsCompleting.edit} ${name}` }).click();
  const form = page.getByRole('dialog', { name: VARIETIES.form.editTitle });
  await expect(form.getByRole('note')).toContainText('9 fields are missing');
  await form.screenshot({ path: '.tmp/screens/varieties-edit-missing.png' });
  expect(await axeViolations(page, 'edit form, fields missing')).toEqual([]);
  // The import put the record's year on the year list: it is a choice like any other.
  await expect(form.getByLabel(VARIETY_LABELS.yearRelease)).toHaveValue('1997');
  await expect(form.getByLabel(VARIETY_LABELS.yearRelease).locator('option:checked')).toHaveText('1997');
  await form.getByLabel('Location').fill('Gerona');
  await updateAndConfirm(page, form, name);
  const api = await app.fixtureApi();
  const stored = await (await api.get(`/api/varieties/${id}`)).json();
  expect(stored).toMatchObject({ location: 'Gerona', yearRelease: '1997', breedingCode: null, tillers: null, environment: [] });
});

test('Escape on a changed form asks "Discard changes?": keep editing keeps the typing, discard closes', async ({ page, app }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await openVarieties(page, app);
  await page.getByRole('button', { name: VARIETIES.addNew }).click();
  const form = page.getByRole('dialog', { name: VARIETIES.form.addTitle });
  await form.getByLabel('Location').fill('Camiling');
  await page.keyboard.press('Escape');
  const ask = page.getByRole('dialog', { name: VARIETIES.form.discard.title });
  await expect(ask).toContainText(VARIETIES.form.discard.text);
  await page.screenshot({ path: '.tmp/screens/varieties-discard-phone.png' });
  expect(await axeViolations(page, 'discard changes, 360 px')).toEqual([]);
  await ask.getByRole('button', { name: VARIETIES.form.discard.keep }).click();
  await expect(ask).toBeHidden();
  await expect(form.getByLabel('Location')).toHaveValue('Camiling');
  await page.keyboard.press('Escape');
  await ask.getByRole('button', { name: VARIETIES.form.discard.confirm }).click();
  await expect(form).toBeHidden();
  // An untouched form closes at once.
  await page.getByRole('button', { name: VARIETIES.addNew }).click();
  await expect(form).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(form).toBeHidden();
  await expect(ask).toBeHidden();
});

test('a name another variety has is named while typing, with a way to open it; saving it asks "Save anyway"', async ({ page, app }) => {
  const api = await app.fixtureApi();
  const first = await (await api.post('/api/varieties', { data: body() })).json();
  const second = await (await api.post('/api/varieties', { data: body() })).json();
  await openVarieties(page, app);
  await search(page, second.varietyName);
  await row(page, second.varietyName)
    .getByRole('button', { name: new RegExp(`^${VARIETIES.actions.edit} `) })
    .click();
  const form = page.getByRole('dialog', { name: VARIETIES.form.editTitle });
  const typed = first.varietyName.toLowerCase();
  await form.getByLabel(VARIETY_LABELS.varietyName).fill(typed);
  await expect(form.getByRole('status')).toHaveText(`${VARIETIES.duplicate.exists(first.varietyName)} ${VARIETIES.duplicate.open}`);
  await form.screenshot({ path: '.tmp/screens/varieties-name-taken.png' });
  expect(await axeViolations(page, 'name taken')).toEqual([]);
  await form.getByRole('button', { name: VARIETIES.form.update }).click();
  const confirm = page.getByRole('dialog', { name: VARIETIES.confirmSave.title });
  await expect(confirm).toContainText(VARIETIES.duplicate.confirm(typed));
  await confirm.getByRole('button', { name: VARIETIES.duplicate.saveAnyway }).click();
  const updated = page.getByRole('dialog', { name: VARIETIES.result.updatedTitle });
  await updated.getByRole('button', { name: VARIETIES.result.ok }).click();
  expect((await (await api.get(`/api/varieties/${second.id}`)).json()).varietyName).toBe(typed);

  // From the add form, "Open it" opens the record that has the name.
  await page.getByRole('button', { name: VARIETIES.addNew }).click();
  const add = page.getByRole('dialog', { name: VARIETIES.form.addTitle });
  await add.getByLabel(VARIETY_LABELS.varietyName).fill(first.varietyName);
  await add.getByRole('button', { name: VARIETIES.duplicate.open }).click();
  await expect(form.getByLabel(VARIETY_LABELS.varietyName)).toHaveValue(first.varietyName);
});

test('the list sorts by a column, filters, says which rows it shows, and deletes a selection to the Trash', async ({ page, app }) => {
  const api = await app.fixtureApi();
  const tag = unique('Sorttown').replace(' ', '');
  const made = [
    { varietyName: `${tag} Cc`, yearRelease: '2015', recommendedInTarlac: true },
    { varietyName: `${tag} Aa`, yearRelease: '2018', recommendedInTarlac: false },
    { varietyName: `${tag} Bb`, yearRelease: '2015', recommendedInTarlac: true },
  ];
  for (const v of made) expect((await api.post('/api/varieties', { data: body({ ...v, location: tag }) })).status()).toBe(201);
  await openVarieties(page, app, 'ADMIN', `?q=${tag.toLowerCase()}`);
  const names = () => page.getByTestId('variety-row').locator('td[data-label="Variety Name"]');
  await expect(names()).toHaveText([`${tag} Bb`, `${tag} Aa`, `${tag} Cc`]);
  await expect(page.getByText('Showing 1–3 of 3')).toBeVisible();

  const byName = table(page).getByRole('button', { name: VARIETIES.columns.varietyName });
  await byName.click();
  await expect(page).toHaveURL(/sort=name/);
  await expect(table(page).getByRole('columnheader', { name: VARIETIES.columns.varietyName })).toHaveAttribute('aria-sort', 'ascending');
  await expect(names()).toHaveText([`${tag} Aa`, `${tag} Bb`, `${tag} Cc`]);
  await byName.click();
  await expect(page).toHaveURL(/dir=desc/);
  await expect(names()).toHaveText([`${tag} Cc`, `${tag} Bb`, `${tag} Aa`]);
  // The order is in the address: a reload keeps it.
  await page.reload();
  await expect(names()).toHaveText([`${tag} Cc`, `${tag} Bb`, `${tag} Aa`]);

  await page.getByLabel(VARIETY_LABELS.recommendedInTarlac).selectOption('yes');
  await expect(page).toHaveURL(/tarlac=yes/);
  await expect(names()).toHaveText([`${tag} Cc`, `${tag} Bb`]);
  await page.getByLabel(VARIETY_LABELS.yearRelease, { exact: true }).selectOption('2015');
  await expect(page.getByText('Showing 1–2 of 2')).toBeVisible();
  expect(await axeViolations(page, 'varieties list, sorted and filtered')).toEqual([]);
  await page.getByRole('button', { name: VARIETIES.list.clear }).click();
  await expect(names()).toHaveCount(3);

  await page.getByRole('checkbox', { name: VARIETIES.list.select(`${tag} Aa`) }).check();
  await page.getByRole('checkbox', { name: VARIETIES.list.select(`${tag} Cc`) }).check();
  const bar = page.getByRole('region', { name: VARIETIES.list.selected(2) });
  await expect(bar).toBeVisible();
  await bar.getByRole('button', { name: VARIETIES.list.deleteSelected }).click();
  const dialog = page.getByRole('dialog', { name: VARIETIES.list.bulkDelete.title(2) });
  await expect(dialog).toContainText(`${tag} Aa`);
  await expect(dialog).toContainText(TRASH.deleteNote(false));
  await dialog.getByRole('textbox').fill(VARIETIES.list.bulkDelete.expected(2));
  await dialog.getByRole('button', { name: VARIETIES.deleteDialog.confirm }).click();
  await expect(page.getByText(VARIETIES.list.bulkDelete.done(2))).toBeVisible();
  await expect(names()).toHaveText([`${tag} Bb`]);
  await expect(bar).toHaveCount(0);

  // On a phone each row is a card with its actions in view, and the filters wait behind a button.
  await page.setViewportSize({ width: 360, height: 740 });
  const edit = page.getByRole('button', { name: `${VARIETIES.actions.edit} ${tag} Bb` });
  await edit.scrollIntoViewIfNeeded();
  const box = (await edit.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(360);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await expect(page.getByLabel(VARIETY_LABELS.season, { exact: true })).toBeHidden();
  await page.getByRole('button', { name: 'Filters' }).click();
  await expect(page.getByLabel(VARIETY_LABELS.season, { exact: true })).toBeVisible();
  expect(await axeViolations(page, 'varieties list, 360 px')).toEqual([]);
});

test('a changed variety form is kept as a draft: after a reload the edit offers Continue, and the saved edit drops it', async ({
  page,
  app,
}) => {
  const api = await app.fixtureApi();
  const created = await (await api.post('/api/varieties', { data: body({ location: 'Moncada' }) })).json();
  await openVarieties(page, app, 'ADMIN', `?q=${encodeURIComponent(created.varietyName.toLowerCase())}`);
  await page.getByRole('button', { name: `${VARIETIES.actions.edit} ${created.varietyName}` }).click();
  const form = page.getByRole('dialog', { name: VARIETIES.form.editTitle });
  await form.getByLabel(VARIETY_LABELS.location).fill('Moncada, Tarlac');
  // The draft is kept within a few seconds of the typing.
  await expect
    .poll(async () => (await (await page.request.get('/api/varieties/draft')).json())?.fields?.location ?? null, { timeout: 15_000 })
    .toBe('Moncada, Tarlac');
  await page.reload();
  await page.getByRole('button', { name: `${VARIETIES.actions.edit} ${created.varietyName}` }).click();
  const offer = form.getByRole('region', { name: VARIETIES.form.draft.editTitle });
  await expect(offer).toBeVisible();
  expect(await axeViolations(page, 'variety form, draft offered')).toEqual([]);
  await offer.getByRole('button', { name: VARIETIES.form.draft.continue }).click();
  await expect(form.getByLabel(VARIETY_LABELS.location)).toHaveValue('Moncada, Tarlac');
  await updateAndConfirm(page, form, created.varietyName);
  await expect(row(page, created.varietyName)).toContainText('Moncada, Tarlac');
  await expect.poll(async () => (await page.request.get('/api/varieties/draft')).json()).toBeNull();
});
