import crypto from 'node:crypto';
import fs from 'node:fs';
import { request, type Locator } from '@playwright/test';
import { CATALOG_KINDS } from '../../common/catalog';
import { CATALOG_LABELS } from '../../common/catalog-texts';
import { LANGUAGE_TEXTS as L } from '../../common/languages';
import { MAINTENANCE } from '../../common/maintenance';
import { SHELL } from '../../common/texts';
import { TRANSLATE_TEXTS as T } from '../../common/translate-texts';
import { expect, test, type E2EServer } from './fixtures';
import { axeViolations } from './axe';
import { importExport, signIn } from './support';

/**
 * The farmers' languages end to end: a super admin adds Kapampangan; an admin translates a
 * disease's symptoms into Filipino, which the farmer app's API serves; an English edit marks the
 * translation "English changed since" until the translator updates it; the Translations screen
 * lists what is missing and takes a translator's XLIFF file back. axe on the editor, at 360 px too.
 */
test.describe.configure({ mode: 'serial' });

const SHOTS = '/tmp/lang-shots';
const disease = CATALOG_KINDS.disease.texts;
const tag = crypto.randomUUID().slice(0, 6);
const name = `Sheath blight ${tag}`;
const diseaseId = crypto.randomUUID();
const english = 'Oval lesions on the leaf sheath near the water line.';
const englishNow = 'Oval, grey-green lesions on the leaf sheath near the water line, later with brown edges.';
const filipino = 'Mga hugis-itlog na sugat sa kaluban ng dahon malapit sa tubig; ñ at é ay buo.';
const filipinoNow = 'Mga hugis-itlog, abuhing-berdeng sugat sa kaluban, kalaunan may kayumangging gilid; ñ, é at â.';

/** The farmer app's answer for the disease, as a phone asks it: no session. */
async function servedSymptoms(app: E2EServer, lang: string): Promise<string | undefined> {
  const phone = await request.newContext({ baseURL: app.url });
  try {
    const res = await phone.get(`/api/public/v1/diseases?lang=${lang}`);
    expect(res.status()).toBe(200);
    const body = (await res.json()) as { items: Array<{ id: string; symptoms: string }> };
    return body.items.find((d) => d.id === diseaseId)?.symptoms;
  } finally {
    await phone.dispose();
  }
}

const field = (editor: Locator, key: string) => editor.getByTestId('translation-field').and(editor.locator(`[data-field="${key}"]`));

test.beforeAll(() => {
  fs.mkdirSync(SHOTS, { recursive: true });
});

test('a super admin adds Kapampangan in File Maintenance, Languages; the code is checked by the shared schema', async ({ page, app }) => {
  await signIn(page, app, 'SYSTEM_ADMIN', '/dashboard/file_maintenance');
  await page
    .getByRole('main')
    .getByRole('link', { name: new RegExp(`^${L.title}`) })
    .click();
  await expect(page.getByRole('heading', { name: L.title, level: 1 })).toBeVisible();
  await expect(page.getByTestId('language-row')).toHaveCount(1);
  await expect(page.getByRole('switch', { name: `${L.enabled}: Filipino` })).toHaveAttribute('aria-checked', 'true');

  const form = page.getByRole('region', { name: L.add });
  await form.getByLabel(L.code).fill('p4');
  await form.getByLabel(L.name).fill('Kapampangan');
  await form.getByRole('button', { name: L.add }).click();
  await expect(form.getByText(L.errors.code)).toBeVisible();
  await form.getByLabel(L.code).fill('en');
  await form.getByRole('button', { name: L.add }).click();
  await expect(form.getByText(L.errors.english)).toBeVisible();

  // The suggestion fills both fields.
  await form.getByRole('button', { name: T.languages.suggest('Kapampangan', 'pam') }).click();
  await expect(form.getByLabel(L.code)).toHaveValue('pam');
  await form.getByRole('button', { name: L.add }).click();
  await expect(page.getByRole('status').filter({ hasText: T.languages.added('Kapampangan') })).toBeVisible();
  const row = page.getByTestId('language-row').filter({ hasText: 'Kapampangan' });
  await expect(row).toContainText('pam');
  // Not in use until turned on: the farmer app would offer it with nothing translated.
  await expect(row.getByRole('switch', { name: `${L.enabled}: Kapampangan` })).toHaveAttribute('aria-checked', 'false');
  // Offered no more once added.
  await expect(form.getByRole('button', { name: T.languages.suggest('Kapampangan', 'pam') })).toHaveCount(0);

  // Rename keeps the code; the new name shows at once, and back again.
  const pam = page.locator('[data-testid="language-row"][data-code="pam"]');
  for (const [from, to] of [
    ['Kapampangan', 'Kapampángan'],
    ['Kapampángan', 'Kapampangan'],
  ] as const) {
    await pam.getByRole('button', { name: T.languages.rename(from) }).click();
    await pam.getByLabel(`${L.name} (pam)`).fill(to);
    await pam.getByRole('button', { name: T.languages.saveName }).click();
    await expect(page.getByRole('status').filter({ hasText: T.languages.renamed(from, to) })).toBeVisible();
    await expect(pam.getByRole('switch', { name: `${L.enabled}: ${to}` })).toBeVisible();
  }
  expect(await axeViolations(page, 'languages')).toEqual([]);
  await page.screenshot({ path: `${SHOTS}/languages-section.png`, fullPage: true });

  // The option values open in the same editor.
  await page.getByRole('button', { name: T.languages.translateList(MAINTENANCE.tiles.riceVariety.label) }).click();
  const options = page.getByRole('dialog', { name: T.languages.translateList(MAINTENANCE.tiles.riceVariety.label) });
  await expect(options.getByLabel(T.language)).toHaveValue('fil');
  await expect(options.getByRole('option')).toHaveText(['Filipino', T.languages.notInUse('Kapampangan')]);
  await expect(options.getByLabel(T.fieldIn(`${MAINTENANCE.lists.seasons.title}: Dry`, 'Filipino'))).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(options).toBeHidden();
});

test("an admin translates a disease's symptoms into Filipino; the farmer app serves them; an English edit marks them until the translator updates them", async ({
  page,
  app,
}) => {
  await importExport(app, {
    rice_local_diseases: { [diseaseId]: { name, symptoms: english, treatments: 'Drain the field.', createdAt: new Date().toISOString() } },
  });
  const translator = await signIn(page, app, 'ADMIN', '/dashboard/rice_diseases');
  const card = page.getByRole('article', { name });
  await card.getByRole('button', { name: `${CATALOG_LABELS.view} ${name}` }).click();
  const view = page.getByRole('dialog', { name });
  await view.getByRole('tab', { name: T.tab }).click();
  const editor = view.getByTestId('translation-editor');
  await expect(editor.getByLabel(T.language)).toHaveValue('fil');
  await expect(field(editor, 'symptoms').getByTestId('english-source')).toHaveText(english);
  await editor.getByLabel(T.fieldIn(CATALOG_LABELS.symptoms, 'Filipino')).fill(filipino);
  await editor.getByRole('button', { name: T.save }).click();
  await expect(editor.getByRole('status')).toHaveText(T.saved('Filipino'));
  await expect(field(editor, 'symptoms')).toContainText(`by ${translator.fullname}`);
  expect(await servedSymptoms(app, 'fil')).toBe(filipino);
  expect(await servedSymptoms(app, 'en')).toBe(english);
  await view.getByRole('button', { name: CATALOG_LABELS.close }).last().click();

  // The English changes in the edit dialog.
  await card.getByRole('button', { name: `${CATALOG_LABELS.edit} ${name}` }).click();
  let edit = page.getByRole('dialog', { name: disease.editTitle });
  await edit.getByLabel(CATALOG_LABELS.symptoms, { exact: true }).fill(englishNow);
  await edit.getByRole('button', { name: CATALOG_LABELS.save }).click();
  await expect(page.getByText(disease.updateSuccess)).toBeVisible();

  // The edit dialog's Translate leads to the editor: the Filipino is marked, what changed is shown.
  await card.getByRole('button', { name: `${CATALOG_LABELS.edit} ${name}` }).click();
  edit = page.getByRole('dialog', { name: disease.editTitle });
  await edit.getByRole('button', { name: T.button, exact: true }).click();
  await expect(edit).toBeHidden();
  const again = page.getByRole('dialog', { name }).getByTestId('translation-editor');
  const symptoms = field(again, 'symptoms');
  await expect(symptoms.getByTestId('stale-badge')).toHaveText(L.stale);
  const diff = symptoms.getByTestId('english-diff');
  await expect(diff.locator('ins').filter({ hasText: 'grey-green' })).toHaveCount(1);
  await expect(diff.locator('del').filter({ hasText: 'line.' })).toHaveCount(1);
  await expect(symptoms.getByTestId('english-source')).toHaveText(englishNow);
  await expect(again.getByTestId('translation-progress')).toHaveText(T.progress(1, 3, 1));
  // Still served until it is updated or confirmed.
  expect(await servedSymptoms(app, 'fil')).toBe(filipino);

  const found = await axeViolations(page, 'editor, stale field, 1280 px');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByRole('dialog', { name }).screenshot({ path: `${SHOTS}/editor-stale-1280.png` });
  await page.setViewportSize({ width: 360, height: 780 });
  await expect(symptoms.getByTestId('stale-badge')).toBeVisible();
  found.push(...(await axeViolations(page, 'editor, stale field, 360 px')));
  const dialog = page.getByRole('dialog', { name });
  // Nothing wider than the phone: the page, the dialog and its scrolling body.
  expect(
    await dialog.evaluate((el) =>
      [document.documentElement, el, el.querySelector('.overflow-y-auto')!].map((e) => e.scrollWidth - e.clientWidth),
    ),
  ).toEqual([0, 0, 0]);
  // At 360 px the English and the translation stack: the box sits below the English.
  const source = await symptoms.getByTestId('english-source').boundingBox();
  const box = await symptoms.getByRole('textbox').boundingBox();
  expect(box!.y).toBeGreaterThan(source!.y + source!.height - 1);
  await symptoms.evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await page.screenshot({ path: `${SHOTS}/editor-stale-360.png` });
  expect(found, found.join('\n')).toEqual([]);
  await page.setViewportSize({ width: 1366, height: 860 });

  // The translator updates it: the mark clears, the farmer app gets the new text.
  await symptoms.getByRole('textbox').fill(filipinoNow);
  await again.getByRole('button', { name: T.save }).click();
  await expect(again.getByRole('status')).toHaveText(T.saved('Filipino'));
  await expect(symptoms.getByTestId('stale-badge')).toHaveCount(0);
  await expect(symptoms.getByRole('textbox')).toHaveValue(filipinoNow);
  expect(await servedSymptoms(app, 'fil')).toBe(filipinoNow);
});

test("the Translations screen lists what is missing in a language, opens the editor, and takes a translator's XLIFF file back", async ({
  page,
  app,
}) => {
  await signIn(page, app, 'ADMIN');
  const completeness = page.getByTestId('translations-completeness');
  await expect(completeness.getByRole('region', { name: 'Kapampangan' })).toBeVisible();
  await expect(completeness.getByTestId('completeness-fil-rice_local_diseases').getByRole('img')).toBeVisible();
  await completeness.screenshot({ path: `${SHOTS}/dashboard-completeness.png` });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: SHELL.nav.translations }).click();
  await expect(page.getByRole('heading', { name: T.screen.title, level: 1 })).toBeVisible();
  await page.getByLabel(T.screen.collection).selectOption('rice_local_diseases');
  await page.getByRole('button', { name: L.filters.missing('Filipino') }).click();
  const row = page.getByTestId('status-row').filter({ hasText: name });
  await expect(row).toBeVisible();
  await page.getByRole('button', { name: L.filters.stale('Filipino') }).click();
  await expect(page.getByText(T.screen.empty.stale('Filipino'))).toBeVisible();
  await page.getByRole('button', { name: L.filters.missing('Filipino') }).click();
  await page.screenshot({ path: `${SHOTS}/translations-screen.png`, fullPage: true });
  const found = await axeViolations(page, 'translations screen');
  // At 360 px nothing scrolls the page sideways (the table scrolls in its frame).
  await page.setViewportSize({ width: 360, height: 780 });
  await expect(row).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
  found.push(...(await axeViolations(page, 'translations screen, 360 px')));
  await page.screenshot({ path: `${SHOTS}/translations-screen-360.png`, fullPage: true });
  await page.setViewportSize({ width: 1366, height: 860 });
  expect(found, found.join('\n')).toEqual([]);
  await row.getByRole('button', { name: T.screen.translate(name) }).click();
  const editorDialog = page.getByRole('dialog', { name });
  await expect(field(editorDialog, 'symptoms').getByRole('textbox')).toHaveValue(filipinoNow);
  await editorDialog.getByRole('button', { name: T.languages.close }).last().click();

  // Export Filipino as XLIFF, translate the treatments, import it back: the dry run, then Import.
  const files = page.getByTestId('language-files').and(page.locator('[data-code="fil"]'));
  const [download] = await Promise.all([page.waitForEvent('download'), files.getByRole('link', { name: T.files.formats.xliff }).click()]);
  const xml = fs.readFileSync((await download.path())!, 'utf8');
  const unit = Buffer.from(`rice_local_diseases/${diseaseId}/treatments`, 'utf8').toString('base64url');
  const translated = xml.replace(
    new RegExp(`(<unit id="${unit}"[\\s\\S]*?<source>[^<]*</source>)(\\s*<target>[^<]*</target>)?`),
    '$1<target>Patuyuin ang palayan.</target>',
  );
  expect(translated).not.toBe(xml);
  await files.getByRole('button', { name: T.files.importLabel('Filipino') }).click();
  const dialog = page.getByRole('dialog', { name: T.files.importLabel('Filipino') });
  await dialog
    .getByTestId('translation-file')
    .setInputFiles({ name: 'palayan-fil.xlf', mimeType: 'application/xliff+xml', buffer: Buffer.from(translated, 'utf8') });
  await expect(dialog.getByTestId('import-count-changed')).toHaveText(`${T.files.counts.changed} 1`);
  await expect(dialog.getByTestId('import-count-error')).toHaveText(`${T.files.counts.error} 0`);
  await expect(dialog.getByTestId('import-row').filter({ hasText: name })).toContainText(T.files.statuses.new);
  await dialog.getByRole('button', { name: T.files.importButton(1) }).click();
  await expect(dialog.getByRole('status')).toContainText(T.files.done(1));
  await dialog.getByRole('button', { name: 'Close' }).last().click();
  const res = await page.request.get(`/api/translations/rice_local_diseases/${diseaseId}`);
  const treatments = (
    (await res.json()) as { fields: Array<{ field: string; translations: Record<string, { text: string }> }> }
  ).fields.find((f) => f.field === 'treatments');
  expect(treatments?.translations.fil?.text).toBe('Patuyuin ang palayan.');
});
