import crypto from 'node:crypto';
import fs from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import sharp from 'sharp';
import { CATALOG_KINDS } from '../../common/catalog';
import { CATALOG_LABELS, UPLOAD_TEXTS } from '../../common/catalog-texts';
import { MAINTENANCE } from '../../common/maintenance';
import { IMPORT_TEXTS } from '../../common/spreadsheets';
import { TRASH } from '../../common/trash';
import { VARIETIES } from '../../common/varieties';
import { VERSION_TEXTS } from '../../common/versions';
import { REVIEW_TEXTS } from '../../common/review';
import { APP_PREVIEW, REVIEW_SCREEN } from '../../common/review-screen-texts';
import { SHELL } from '../../common/texts';
import { leafPhoto } from '../fixtures/leaf-photos';
import { csvOf, VARIETY_HEADER, varietyRow } from '../fixtures/spreadsheets';
import { axeViolations as axe } from './axe';
import { expect, test, type E2EServer } from './fixtures';
import { importExport, signIn } from './support';

/**
 * Review before publishing in the browser: a super admin turns review on for diseases in File
 * Maintenance; an ADMIN's edit waits (the farmer app's API keeps the old treatment) until the
 * super admin approves it on the Review page, with the comparison and the app preview; then a
 * change is sent back with a comment, edited again by its author and approved. axe checks the
 * Review page at 1280 px and at 360 px (a phone gets cards), and a change's page: its changed
 * words marked, the decision beside the change (a bar at the foot of a phone's screen), the
 * actions behind "More actions", "Approve and go to next", and the change once decided.
 */
test.describe.configure({ mode: 'serial' });

const SHOTS = '.tmp/screens';
const disease = CATALOG_KINDS.disease.texts;

/** A disease of the file's import with three photos of its own, as the department's data arrives (the add form asks for 800). */
function diseaseRecord(name: string, treatments: string, photos: string[]) {
  return {
    name,
    scientificName: 'Magnaporthe oryzae',
    localName: 'Lapnos',
    affectedParts: ['leaf'],
    description: 'A fungal disease of the leaves.',
    cause: 'A fungus. Spread by wind and rain.',
    symptoms: 'Diamond-shaped lesions. Grey centres.',
    treatments,
    createdAt: new Date().toISOString(),
    images: photos.map((photo) => `{{files}}/${photo}`),
  };
}

const tag = crypto.randomUUID().slice(0, 6);
/** The records each test starts from, by the test that uses them: ids and names of this run. */
const records = {
  approved: { id: crypto.randomUUID(), name: `Rice blast ${tag}`, treatments: 'Spray 2 g per litre.' },
  previewed: { id: crypto.randomUUID(), name: `Brown spot ${tag}`, treatments: 'Use clean seed.' },
  trashed: { id: crypto.randomUUID(), name: `Sheath rot ${tag}`, treatments: 'Use clean seed.' },
  pest: { id: crypto.randomUUID(), name: `Rice bug ${tag}` },
};

/**
 * The file's diseases and pest, imported with the real import command by the first test that
 * needs them, in one run of it (each test works on records of its own).
 */
let imported: Promise<void> | null = null;
function importRecords(app: E2EServer): Promise<void> {
  imported ??= (async () => {
    const { approved, previewed, trashed, pest } = records;
    const files: Record<string, Buffer> = { 'pest.jpg': await leafPhoto(7) };
    const diseases: Record<string, ReturnType<typeof diseaseRecord>> = {};
    for (const [i, d] of [approved, previewed, trashed].entries()) {
      const photos = ['a', 'b', 'c'].map((letter) => `${i}${letter}.jpg`);
      for (const [n, photo] of photos.entries()) files[photo] = await leafPhoto(11 + 3 * i + n);
      diseases[d.id] = diseaseRecord(d.name, d.treatments, photos);
    }
    await importExport(
      app,
      {
        rice_local_diseases: diseases,
        rice_local_pests: {
          [pest.id]: {
            name: pest.name,
            description: 'A slender bug.',
            createdAt: new Date().toISOString(),
            images: ['{{files}}/pest.jpg'],
          },
        },
      },
      files,
    );
  })();
  return imported;
}

/** Waits until the disease's photos have their display sizes, made in the background after an import. */
async function photosShown(app: E2EServer, id: string): Promise<void> {
  const api = await app.fixtureApi();
  await expect
    .poll(
      async () =>
        ((await (await api.get(`/api/rice_diseases/${id}`)).json()) as { images: Array<{ displayUrl: string | null }> }).images.every(
          (i) => i.displayUrl,
        ),
      { timeout: 45_000 },
    )
    .toBe(true);
}

/** Turns review on or off for the collections named (each test starts from the state it needs). */
async function setReview(
  app: E2EServer,
  enabled: boolean,
  collections = ['rice_local_pests', 'rice_local_diseases', 'rice_seed_varieties', 'maintenance'],
): Promise<void> {
  const fixture = await app.fixtureApi();
  for (const collection of collections)
    expect((await fixture.put(`/api/review/settings/${collection}`, { data: { enabled } })).status()).toBe(200);
}

/** What the farmer app reads now (the public content API needs no session). */
async function publicTreatments(request: APIRequestContext, id: string): Promise<string | null | undefined> {
  const res = await request.get('/api/public/v1/diseases');
  expect(res.status()).toBe(200);
  return ((await res.json()) as { items: Array<{ id: string; treatments: string | null }> }).items.find((d) => d.id === id)?.treatments;
}

/** The ADMIN's edit of the treatment through the disease's Edit dialog. */
async function editTreatment(page: Page, name: string, treatments: string) {
  // The notice of an earlier save has gone, so the one awaited below is this save's.
  const sent = page.getByRole('status').filter({ hasText: REVIEW_TEXTS.sentForReview });
  await expect(sent).toHaveCount(0);
  await page
    .getByRole('article', { name })
    .getByRole('button', { name: `${CATALOG_LABELS.edit} ${name}` })
    .click();
  const dialog = page.getByRole('dialog', { name: disease.editTitle });
  await expect(dialog.getByTestId('current-image')).toHaveCount(3);
  await dialog.getByLabel(CATALOG_LABELS.treatments).fill(treatments);
  await dialog.getByRole('button', { name: CATALOG_LABELS.save }).click();
  await expect(sent).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
}

/** Opens the queue and the change to `name` in it. */
async function openChange(page: Page, name: string) {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: new RegExp(`^${SHELL.nav.review}`) })
    .click();
  await expect(page.getByRole('heading', { name: REVIEW_TEXTS.title, level: 1 })).toBeVisible();
  // The queue as the server has it now (not the rows kept from an earlier visit).
  await expect(page.locator('tbody[aria-busy="true"]')).toHaveCount(0);
  await page.getByRole('link', { name: REVIEW_SCREEN.open(name) }).click();
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
}

test("an ADMIN's edit reaches the farmer app only once a super admin approves it; a change sent back is edited and approved", async ({
  page,
  browser,
  app,
}) => {
  test.setTimeout(120_000);
  fs.mkdirSync(SHOTS, { recursive: true });
  await setReview(app, false);
  // Its photos' display sizes are not awaited: the axe spec looks at a preview with them.
  await importRecords(app);
  const { id, name } = records.approved;

  // The super admin turns review on for diseases (File Maintenance).
  const reviewerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const reviewer = await reviewerContext.newPage();
  await signIn(reviewer, app, 'SYSTEM_ADMIN', '/dashboard/file_maintenance');
  const section = reviewer.getByRole('region', { name: REVIEW_SCREEN.settingsTitle });
  const diseases = section.getByRole('switch', { name: /^Rice Diseases/ });
  await expect(diseases).toHaveAttribute('aria-checked', 'false');
  await diseases.click();
  await expect(diseases).toHaveAttribute('aria-checked', 'true');
  await expect(reviewer.getByRole('status').filter({ hasText: REVIEW_TEXTS.settingOn('Rice Diseases') })).toBeVisible();
  await section.screenshot({ path: `${SHOTS}/review-maintenance-switches.png` });

  // The ADMIN edits the treatment: it waits; the record and the app keep the published one.
  await signIn(page, app, 'ADMIN', '/dashboard/rice_diseases');
  await editTreatment(page, name, 'Spray 20 g per litre.');
  const card = page.getByRole('article', { name });
  await expect(card.getByRole('link', { name: REVIEW_TEXTS.badge })).toBeVisible();
  await card.screenshot({ path: `${SHOTS}/review-badge-card.png` });
  await expect(card).not.toContainText('Spray 20 g');
  expect(await publicTreatments(page.request, id)).toBe('Spray 2 g per litre.');

  // The super admin: the count, the queue, the comparison and the app preview; approve.
  await expect(reviewer.getByTestId('review-count')).toHaveAttribute('title', SHELL.reviewCount(1));
  await openChange(reviewer, name);
  const treatments = reviewer
    .getByRole('table', { name: REVIEW_SCREEN.comparisonTable })
    .getByRole('row', { name: new RegExp(CATALOG_LABELS.treatments) });
  await expect(treatments).toHaveAttribute('data-changed', 'true');
  // The words that change are marked inside the field: "2" removed, "20" added (named for a screen reader).
  const [before, after] = [treatments.getByRole('cell').first(), treatments.getByRole('cell').last()];
  await expect(before).toHaveText(`Spray [${REVIEW_SCREEN.words.removed}: 2] g per litre.`);
  await expect(after).toHaveText(`Spray [${REVIEW_SCREEN.words.added}: 20] g per litre.`);
  await expect(before.locator('del')).toHaveText('2');
  await expect(after.locator('ins')).toHaveText('20');
  const proposed = reviewer.getByRole('figure', { name: APP_PREVIEW.phone(REVIEW_TEXTS.proposed) });
  const published = reviewer.getByRole('figure', { name: APP_PREVIEW.phone(REVIEW_TEXTS.published) });
  await expect(proposed.getByText('• Spray 20 g per litre')).toBeVisible();
  await expect(published.getByText('• Spray 2 g per litre')).toBeVisible();
  await expect(proposed.locator('[data-changed]').filter({ hasText: APP_PREVIEW.treatments })).toHaveCount(1);
  await reviewer.getByRole('button', { name: REVIEW_TEXTS.approve, exact: true }).click();
  const approve = reviewer.getByRole('dialog', { name: REVIEW_TEXTS.approve, exact: true });
  await approve.getByLabel(REVIEW_SCREEN.commentOptional).fill('Dose checked against the label.');
  await approve.getByRole('button', { name: REVIEW_SCREEN.confirmApprove }).click();
  await expect(reviewer.getByRole('status').filter({ hasText: REVIEW_SCREEN.done.approve })).toBeVisible();
  await expect(reviewer.getByTestId('review-state').first()).toHaveText(REVIEW_TEXTS.states.published);
  await expect.poll(() => publicTreatments(page.request, id)).toBe('Spray 20 g per litre.');
  await expect(card.getByRole('link', { name: REVIEW_TEXTS.badge })).toBeHidden();
  // Published, the page still shows what was approved: the old treatment against the new, not the record against itself.
  await expect(reviewer.getByRole('heading', { name: REVIEW_SCREEN.decidedTitle.approved, level: 2 })).toBeVisible();
  const decided = reviewer
    .getByRole('table', { name: REVIEW_SCREEN.decidedTable })
    .getByRole('row', { name: new RegExp(CATALOG_LABELS.treatments) });
  await expect(decided.locator('del')).toHaveText('2');
  await expect(decided.locator('ins')).toHaveText('20');

  // Round two: sent back with a comment, the author sees it came back, edits again, approved.
  await editTreatment(page, name, 'Spray 5 kg.');
  await openChange(reviewer, name);
  await reviewer.getByRole('button', { name: REVIEW_TEXTS.reject }).click();
  const reject = reviewer.getByRole('dialog', { name: REVIEW_TEXTS.reject });
  await reject.getByRole('button', { name: REVIEW_SCREEN.confirmReject }).click();
  await expect(reject.getByText(REVIEW_TEXTS.errors.commentRequired)).toBeVisible();
  await reject.getByLabel(REVIEW_TEXTS.comment).fill('The dose is per hectare: say so.');
  await reject.getByRole('button', { name: REVIEW_SCREEN.confirmReject }).click();
  await expect(reject).toBeHidden();
  await expect(reviewer.getByTestId('review-state').first()).toHaveText(REVIEW_TEXTS.states.rejected);

  const returned = card.getByRole('link', { name: REVIEW_TEXTS.badgeRejected });
  await expect(returned).toBeVisible();
  await expect(page.getByTestId('review-count')).toHaveAttribute('title', SHELL.reviewCount(1));
  await returned.click();
  await expect(page.getByTestId('review-comment')).toContainText('The dose is per hectare: say so.');
  await expect(page.getByRole('button', { name: REVIEW_TEXTS.approve, exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: REVIEW_TEXTS.withdraw })).toBeVisible();
  await page.getByRole('link', { name: REVIEW_SCREEN.openRecord }).click();
  await expect(page.getByRole('dialog', { name })).toBeVisible();
  await page.keyboard.press('Escape');
  await editTreatment(page, name, 'Spray 5 kg per hectare.');
  expect(await publicTreatments(page.request, id)).toBe('Spray 20 g per litre.');

  // The reviewer's page follows the resubmission live; approve it.
  const approveAgain = reviewer.getByRole('button', { name: REVIEW_TEXTS.approve, exact: true });
  await expect(approveAgain).toBeVisible();
  await expect(
    reviewer.getByRole('figure', { name: APP_PREVIEW.phone(REVIEW_TEXTS.proposed) }).getByText('• Spray 5 kg per hectare'),
  ).toBeVisible();
  await approveAgain.click();
  await reviewer
    .getByRole('dialog', { name: REVIEW_TEXTS.approve, exact: true })
    .getByRole('button', { name: REVIEW_SCREEN.confirmApprove })
    .click();
  await expect(reviewer.getByTestId('review-state').first()).toHaveText(REVIEW_TEXTS.states.published);
  await expect.poll(() => publicTreatments(page.request, id)).toBe('Spray 5 kg per hectare.');
  await expect(page.getByTestId('review-count')).toHaveCount(0);
  await reviewerContext.close();
});

test('axe finds no violation on the Review page and a change with its app preview, at 1280 px and at 360 px', async ({
  page,
  browser,
  app,
}) => {
  test.setTimeout(120_000);
  fs.mkdirSync(SHOTS, { recursive: true });
  await importRecords(app);
  const { id, name } = records.previewed;
  await photosShown(app, id);
  // Review on, and a change waiting: sent by an ADMIN of this test's own, through the API.
  await setReview(app, false);
  await setReview(app, true, ['rice_local_diseases']);
  const author = await app.signedInApi(await app.account('ADMIN'));
  const entry = (await (await author.get(`/api/rice_diseases/${id}`)).json()) as { version: number; images: Array<{ id: string }> };
  const sent = await author.put(`/api/rice_diseases/${id}`, {
    data: {
      name,
      scientificName: 'Bipolaris oryzae',
      localName: 'Lapnos',
      affectedParts: ['leaf'],
      description: 'A fungal disease of the leaves.',
      cause: 'A fungus.',
      symptoms: 'Brown oval spots.',
      treatments: 'Use clean seed. Spray a fungicide at booting.',
      imageIds: entry.images.map((i) => i.id).slice(0, 2),
      version: entry.version,
    },
  });
  expect(sent.status(), await sent.text()).toBe(202);
  await author.dispose();

  const found: string[] = [];
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, app, 'SYSTEM_ADMIN', '/dashboard/review');
  await expect(page.getByRole('link', { name: REVIEW_SCREEN.open(name) })).toBeVisible();
  found.push(...(await axe(page, 'review list')));
  await page.screenshot({ path: `${SHOTS}/review-list.png`, fullPage: true });
  await page.getByRole('link', { name: REVIEW_SCREEN.open(name) }).click();
  const proposed = page.getByRole('figure', { name: APP_PREVIEW.phone(REVIEW_TEXTS.proposed) });
  await expect(proposed.getByText('• Spray a fungicide at booting')).toBeVisible();
  await expect(proposed.getByRole('img', { name, exact: true })).toBeVisible();
  // The field's changed words are marked within it.
  const treatmentsRow = page
    .getByRole('table', { name: REVIEW_SCREEN.comparisonTable })
    .getByRole('row', { name: new RegExp(CATALOG_LABELS.treatments) });
  await expect(treatmentsRow.locator('ins')).toContainText('Spray a fungicide at booting.');
  await expect(treatmentsRow.locator('del')).toHaveCount(0);
  // Approve is the decision offered; publishing without review waits behind "More actions", beside the change.
  const bar = page.getByRole('region', { name: REVIEW_SCREEN.actionsTitle });
  await expect(bar.getByRole('button', { name: REVIEW_TEXTS.breakGlass })).toHaveCount(0);
  const sideBySide = await page.evaluate(() => {
    const bar = document.querySelector('[data-testid="decision-bar"]')!.getBoundingClientRect();
    const table = document.querySelector('table')!.getBoundingClientRect();
    return bar.left >= table.right && bar.top < table.bottom;
  });
  expect(sideBySide, 'the decision beside the change at 1280 px').toBe(true);
  found.push(...(await axe(page, 'review detail')));
  await page.screenshot({ path: `${SHOTS}/review-detail-1280.png`, fullPage: true });
  await bar.getByRole('button', { name: REVIEW_SCREEN.moreActions }).click();
  await expect(bar.getByRole('button', { name: REVIEW_SCREEN.moreActions })).toHaveAttribute('aria-expanded', 'true');
  await expect(bar.getByRole('button', { name: REVIEW_TEXTS.breakGlass })).toBeVisible();
  found.push(...(await axe(page, 'review detail, more actions open')));
  await page.screenshot({ path: `${SHOTS}/review-detail-1280-more.png`, fullPage: true });
  for (const [button, dialog] of [
    [REVIEW_TEXTS.reject, REVIEW_TEXTS.reject],
    [REVIEW_TEXTS.approveSchedule, REVIEW_TEXTS.approveSchedule],
    [REVIEW_TEXTS.breakGlass, REVIEW_TEXTS.breakGlass],
    [REVIEW_TEXTS.approve, REVIEW_TEXTS.approve],
  ] as const) {
    await page.getByRole('button', { name: button, exact: true }).click();
    await expect(page.getByRole('dialog', { name: dialog, exact: true })).toBeVisible();
    found.push(...(await axe(page, `dialog: ${dialog}`)));
    if (dialog === REVIEW_TEXTS.breakGlass)
      await page.getByRole('dialog', { name: dialog }).screenshot({ path: `${SHOTS}/review-break-glass.png` });
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog', { name: dialog, exact: true })).toBeHidden();
  }

  // A phone: the list shows the changes as cards where a wider screen has the table, so axe looks
  // at it again. The change's page shows the same elements at any width: at 360 px it fits (no
  // sideways scroll) and its phones stack.
  const phone = await browser.newContext({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const small = await phone.newPage();
  await signIn(small, app, 'SYSTEM_ADMIN', '/dashboard/review');
  await expect(small.getByRole('link', { name: REVIEW_SCREEN.open(name) })).toBeVisible();
  found.push(...(await axe(small, 'review list at 360 px')));
  await small.screenshot({ path: `${SHOTS}/review-list-360.png`, fullPage: true });
  await small.getByRole('link', { name: REVIEW_SCREEN.open(name) }).click();
  const smallProposed = small.getByRole('figure', { name: APP_PREVIEW.phone(REVIEW_TEXTS.proposed) });
  await expect(smallProposed.getByRole('img', { name, exact: true })).toBeVisible();
  const widths = await small.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(widths.scroll, 'no sideways scroll at 360 px').toBeLessThanOrEqual(widths.client);
  const [first, second] = await small
    .getByTestId('phone')
    .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect));
  expect(second!.top).toBeGreaterThan(first!.bottom);
  expect(first!.right).toBeLessThanOrEqual(360);
  // The change comes first; the decision is a bar held at the foot of the screen, Approve in it.
  await small.evaluate(() => window.scrollTo(0, 0));
  const smallBar = small.getByRole('region', { name: REVIEW_SCREEN.actionsTitle });
  const layout = await small.evaluate(() => {
    const bar = document.querySelector('[data-testid="decision-bar"]')!.getBoundingClientRect();
    const comparison = document.getElementById('comparison-title')!.getBoundingClientRect();
    return { barBottom: bar.bottom, barTop: bar.top, comparisonTop: comparison.top, height: window.innerHeight };
  });
  expect(layout.comparisonTop, 'the change above the decision').toBeLessThan(layout.barTop);
  expect(Math.round(layout.barBottom), 'the decision bar at the foot of the screen').toBe(layout.height);
  expect(layout.height - layout.barTop, 'the bar leaves the screen to the change').toBeLessThan(layout.height / 3);
  await expect(smallBar.getByRole('button', { name: REVIEW_TEXTS.approve, exact: true })).toBeInViewport();
  found.push(...(await axe(small, 'review detail at 360 px')));
  await small.screenshot({ path: `${SHOTS}/review-detail-360.png` });
  await small.screenshot({ path: `${SHOTS}/review-detail-360-full.png`, fullPage: true });
  await smallBar.getByRole('button', { name: REVIEW_SCREEN.moreActions }).click();
  await expect(smallBar.getByRole('button', { name: REVIEW_TEXTS.breakGlass })).toBeVisible();
  found.push(...(await axe(small, 'review detail at 360 px, more actions open')));
  await small.screenshot({ path: `${SHOTS}/review-detail-360-more.png` });
  await smallBar.getByRole('button', { name: REVIEW_SCREEN.moreActions }).click();

  // Approve and go to next: nothing else waits, so back to the queue, which says so.
  await smallBar.getByRole('button', { name: REVIEW_TEXTS.approve, exact: true }).click();
  const approve = small.getByRole('dialog', { name: REVIEW_TEXTS.approve, exact: true });
  found.push(...(await axe(small, 'approve dialog at 360 px')));
  await approve.getByRole('button', { name: REVIEW_SCREEN.confirmApproveNext }).click();
  await expect(small.getByRole('status').filter({ hasText: REVIEW_SCREEN.done.noneLeft })).toBeVisible();
  await expect(small.getByRole('heading', { name: REVIEW_TEXTS.title, level: 1 })).toBeVisible();
  await expect(small).toHaveURL(/\/dashboard\/review$/);

  // The decided change, at both widths: what was approved, as it was approved.
  await small.goto('/dashboard/review?state=all');
  await small.getByRole('link', { name: REVIEW_SCREEN.open(name) }).click();
  await expect(small.getByRole('heading', { name: REVIEW_SCREEN.decidedTitle.approved })).toBeVisible();
  found.push(...(await axe(small, 'decided change at 360 px')));
  await small.screenshot({ path: `${SHOTS}/review-decided-360.png`, fullPage: true });
  await phone.close();
  await page.reload();
  await expect(page.getByRole('heading', { name: REVIEW_SCREEN.decidedTitle.approved })).toBeVisible();
  await expect(
    page
      .getByRole('table', { name: REVIEW_SCREEN.decidedTable })
      .getByRole('row', { name: new RegExp(CATALOG_LABELS.treatments) })
      .locator('ins'),
  ).toContainText('Spray a fungicide at booting.');
  found.push(...(await axe(page, 'decided change')));
  await page.screenshot({ path: `${SHOTS}/review-decided-1280.png`, fullPage: true });
  expect(found, found.join('\n')).toEqual([]);
});

test("a variety's change shows the app's variety screen, the changed yield marked", async ({ page, app }) => {
  fs.mkdirSync(SHOTS, { recursive: true });
  const name = `NSIC Rc ${crypto.randomUUID().slice(0, 6)}`;
  await setReview(app, false);
  const fixture = await app.fixtureApi();
  const fields = {
    varietyName: name,
    releaseName: 'Tubigan 36',
    yearRelease: '2020',
    breedingCode: 'PR12345',
    breederOrigin: 'PhilRice',
    maturityDays: 112,
    averageYield: 5.1,
    maxYield: 8.2,
    plantHeight: 98,
    tillers: 14,
    location: 'Province-wide',
    plantingMethod: 'Transplanting',
    season: ['Dry'],
    environment: ['Low Irrigated Land'],
    recommendedInTarlac: true,
  };
  const created = await fixture.post('/api/varieties', { data: fields });
  expect(created.status(), await created.text()).toBe(201);
  const { id, version } = (await created.json()) as { id: string; version: number };
  await setReview(app, true, ['rice_seed_varieties']);
  const author = await app.signedInApi(await app.account('ADMIN'));
  const sent = await author.put(`/api/varieties/${id}`, { data: { ...fields, averageYield: 5.6, season: ['Dry', 'Wet'], version } });
  expect(sent.status(), await sent.text()).toBe(202);
  await author.dispose();

  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, app, 'SYSTEM_ADMIN', '/dashboard/rice_varieties');
  // The list shows the variety waiting; its badge opens the change.
  await page.getByRole('row').filter({ hasText: name }).getByRole('link', { name: REVIEW_TEXTS.badge }).click();
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  const proposed = page.getByRole('figure', { name: APP_PREVIEW.phone(REVIEW_TEXTS.proposed) });
  await expect(proposed.getByRole('heading', { name: APP_PREVIEW.yieldData })).toBeVisible();
  await expect(proposed.locator('[data-changed]')).toHaveCount(2);
  await expect(proposed.locator('[data-changed]').first()).toContainText('5.6');
  await expect(proposed.locator('[data-changed]').last()).toContainText('Dry, Wet');
  await expect(
    page.getByRole('figure', { name: APP_PREVIEW.phone(REVIEW_TEXTS.published) }).getByText('5.1', { exact: true }),
  ).toBeVisible();
  const found = await axe(page, 'variety change');
  await page.screenshot({ path: `${SHOTS}/review-variety-1280.png`, fullPage: true });
  expect(found, found.join('\n')).toEqual([]);
});

test('with review on, every other save closes as after a save, says it was sent, and leaves the record as published', async ({
  page,
  app,
}) => {
  test.setTimeout(180_000);
  await setReview(app, false);
  const fixture = await app.fixtureApi();
  // A pest with two versions, a disease in the trash and a variety, all saved before review is on.
  await importRecords(app);
  const { id: pestId, name: pestName } = records.pest;
  const pest = (await (await fixture.get(`/api/rice_pests/${pestId}`)).json()) as { version: number; images: Array<{ id: string }> };
  const edited = await fixture.put(`/api/rice_pests/${pestId}`, {
    data: {
      name: pestName,
      scientificName: '',
      localName: '',
      description: 'A slender bug of the grains.',
      cause: '',
      symptoms: '',
      treatments: '',
      affectedParts: [],
      imageIds: pest.images.map((i) => i.id),
      version: pest.version,
    },
  });
  expect(edited.status(), await edited.text()).toBe(200);
  const { id: trashedId, name: trashedName } = records.trashed;
  expect((await fixture.delete(`/api/rice_diseases/${trashedId}`)).status()).toBe(204);
  const varietyName = `PSB Rc ${tag}`;
  const variety = await fixture.post('/api/varieties', {
    data: {
      varietyName,
      releaseName: 'Tubigan',
      yearRelease: '2020',
      breedingCode: 'PR1',
      breederOrigin: 'PhilRice',
      maturityDays: 110,
      averageYield: 5,
      maxYield: 8,
      plantHeight: 95,
      tillers: 12,
      location: 'Tarlac',
      plantingMethod: 'Transplanting',
      season: ['Dry'],
      environment: ['Low Irrigated Land'],
    },
  });
  expect(variety.status(), await variety.text()).toBe(201);
  await setReview(app, true);
  const sent = page.getByRole('status').filter({ hasText: REVIEW_TEXTS.sentForReview });
  const sentAgain = async () => {
    await expect(sent).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(sent).toHaveCount(0);
  };
  await signIn(page, app, 'SYSTEM_ADMIN', '/dashboard/rice_pests');

  // A new pest: its draft (kept while typing) goes, as after a save; the list says one waits.
  await page.getByRole('button', { name: CATALOG_KINDS.pest.texts.addButton }).click();
  const add = page.getByRole('dialog', { name: CATALOG_KINDS.pest.texts.addTitle });
  await add.getByLabel(CATALOG_LABELS.name, { exact: true }).fill(`Stem borer ${tag}`);
  await expect
    .poll(
      async () => ((await (await page.request.get('/api/rice_pests/draft')).json()) as { fields: { name: string } } | null)?.fields.name,
      { timeout: 20_000 },
    )
    .toBe(`Stem borer ${tag}`);
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 90, g: 140, b: 60 } } })
    .png()
    .toBuffer();
  await add.getByTestId('upload-input').setInputFiles({ name: 'borer.png', mimeType: 'image/png', buffer: png });
  await expect(add.getByTestId('upload-total')).toHaveText(UPLOAD_TEXTS.total(1, 1));
  await add.getByRole('button', { name: CATALOG_LABELS.save }).click();
  await sentAgain();
  await expect(page.getByTestId('new-waiting')).toHaveText(REVIEW_TEXTS.newWaiting(1));
  expect(await (await page.request.get('/api/rice_pests/draft')).json()).toBeNull();
  await expect(page.getByRole('article', { name: `Stem borer ${tag}` })).toHaveCount(0);

  // A version restore: no new version yet.
  await page
    .getByRole('article', { name: pestName })
    .getByRole('button', { name: `${CATALOG_LABELS.view} ${pestName}` })
    .click();
  const view = page.getByRole('dialog', { name: pestName });
  await view.getByRole('tab', { name: VERSION_TEXTS.tab }).click();
  const versions = view.getByTestId('versions-list').getByRole('button');
  await expect(versions).toHaveCount(2);
  await versions.last().click();
  await view.getByRole('button', { name: VERSION_TEXTS.restore }).click();
  await page
    .getByRole('dialog', { name: VERSION_TEXTS.restoreTitle(1) })
    .getByRole('button', { name: VERSION_TEXTS.restoreConfirm, exact: true })
    .click();
  await expect(sent).toBeVisible();
  await expect(versions).toHaveCount(2);
  await view.getByRole('tab', { name: VERSION_TEXTS.details }).click();
  await expect(view.getByRole('link', { name: REVIEW_TEXTS.badge })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(sent).toHaveCount(0);

  // A restore from the trash: it stays in the trash until approved.
  await page.goto('/dashboard/rice_diseases?view=trash');
  await page.getByRole('button', { name: TRASH.restoreLabel(trashedName) }).click();
  await expect(sent).toBeVisible();
  await expect(page.getByRole('button', { name: TRASH.restoreLabel(trashedName) })).toBeVisible();
  await expect(sent).toHaveCount(0);

  // A variety's delete: it stays, marked.
  await page.goto('/dashboard/rice_varieties');
  const row = page.getByRole('row').filter({ hasText: varietyName });
  await row.getByRole('button', { name: `${VARIETIES.actions.delete} ${varietyName}` }).click();
  const confirm = page.getByRole('dialog', { name: VARIETIES.deleteDialog.title });
  await confirm.getByRole('textbox').fill(varietyName);
  await confirm.getByRole('button', { name: VARIETIES.deleteDialog.confirm, exact: true }).click();
  await sentAgain();
  await expect(row.getByRole('link', { name: REVIEW_TEXTS.badge })).toBeVisible();

  // A spreadsheet import: nothing imported until approved; its page lists the rows.
  await page.getByRole('button', { name: IMPORT_TEXTS.open, exact: true }).click();
  const importer = page.getByRole('dialog', { name: IMPORT_TEXTS.title });
  await importer.locator('input[type=file]').setInputFiles({
    name: 'nsic.csv',
    mimeType: 'text/csv',
    buffer: csvOf([VARIETY_HEADER, varietyRow({ 'Variety name': `Imported ${tag}` })]),
  });
  await expect(importer.getByTestId('import-count-new')).toHaveText(`${IMPORT_TEXTS.counts.new} 1`);
  await importer.getByRole('button', { name: IMPORT_TEXTS.importButton(1) }).click();
  await sentAgain();
  await page.getByRole('searchbox', { name: VARIETIES.searchLabel }).fill(`Imported ${tag}`);
  await expect(page.getByTestId('variety-row')).toHaveCount(0);

  // An option added to a list the farmer app reads: not in the list until approved.
  await page.goto('/dashboard/file_maintenance/rice_variety');
  const seasons = page.getByTestId('list-seasons');
  await seasons.getByLabel(MAINTENANCE.lists.seasons.addLabel).fill(`Ratoon ${tag}`);
  await seasons.getByRole('button', { name: `${MAINTENANCE.add} ${MAINTENANCE.lists.seasons.title}` }).click();
  await expect(sent).toBeVisible();
  await expect(seasons.getByLabel(MAINTENANCE.lists.seasons.addLabel)).toHaveValue('');
  await expect(seasons.getByTestId('option').filter({ hasText: `Ratoon ${tag}` })).toHaveCount(0);

  // All six wait, as this account's changes.
  await page.goto('/dashboard/review?mine=1');
  await expect(page.getByTestId('review-row')).toHaveCount(6);
  await page.getByRole('link', { name: REVIEW_SCREEN.open('nsic.csv') }).click();
  const rows = page.getByRole('region', { name: REVIEW_SCREEN.importTitle }).getByRole('row');
  await expect(rows.filter({ hasText: `Imported ${tag}` })).toContainText(IMPORT_TEXTS.counts.new);
});
