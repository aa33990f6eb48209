import crypto from 'node:crypto';
import fs from 'node:fs';
import { request } from '@playwright/test';
import { REVIEW_TEXTS } from '../../common/review';
import { REVIEW_SCREEN } from '../../common/review-screen-texts';
import { TRANSLATE_TEXTS as T } from '../../common/translate-texts';
import { expect, test, type E2EServer } from './fixtures';
import { axeViolations } from './axe';
import { importExport, signIn } from './support';

/**
 * A translators' file while review is on for diseases: the import says its disease changes will
 * wait, sends them as one pending change, and the reviewer reads the English, the published and
 * the proposed translation side by side before publishing. axe on the review page.
 */

const SHOTS = '/tmp/lang-shots';
const tag = crypto.randomUUID().slice(0, 6);
const name = `Brown spot ${tag}`;
const diseaseId = crypto.randomUUID();
const cause = 'A fungus, on plants short of potassium.';
const filipino = 'Isang fungus, sa mga halamang kulang sa potasa; ñ at é ay buo.';

/** The disease's cause as the farmer app reads it in Filipino (no session). */
async function servedCause(app: E2EServer): Promise<string | undefined> {
  const phone = await request.newContext({ baseURL: app.url });
  try {
    const body = (await (await phone.get('/api/public/v1/diseases?lang=fil')).json()) as { items: Array<{ id: string; cause: string }> };
    return body.items.find((d) => d.id === diseaseId)?.cause;
  } finally {
    await phone.dispose();
  }
}

test("a translators' file waits for review where review is on, and reaches the farmer app once approved", async ({
  page,
  browser,
  app,
}) => {
  fs.mkdirSync(SHOTS, { recursive: true });
  await importExport(app, {
    rice_local_diseases: { [diseaseId]: { name, cause, symptoms: 'Oval brown spots on the leaves.', createdAt: new Date().toISOString() } },
  });
  const fixture = await app.fixtureApi();
  expect((await fixture.put('/api/review/settings/rice_local_diseases', { data: { enabled: true } })).status()).toBe(200);

  // The ADMIN exports Filipino, a translator fills in the cause, the ADMIN imports it back.
  await signIn(page, app, 'ADMIN', '/dashboard/translations');
  const files = page.getByTestId('language-files').and(page.locator('[data-code="fil"]'));
  const [download] = await Promise.all([page.waitForEvent('download'), files.getByRole('link', { name: T.files.formats.xliff }).click()]);
  const xml = fs.readFileSync((await download.path())!, 'utf8');
  const unit = Buffer.from(`rice_local_diseases/${diseaseId}/cause`, 'utf8').toString('base64url');
  const translated = xml.replace(
    new RegExp(`(<unit id="${unit}"[\\s\\S]*?<source>[^<]*</source>)(\\s*<target>[^<]*</target>)?`),
    `$1<target>${filipino}</target>`,
  );
  expect(translated).not.toBe(xml);
  await files.getByRole('button', { name: T.files.importLabel('Filipino') }).click();
  const dialog = page.getByRole('dialog', { name: T.files.importLabel('Filipino') });
  await dialog
    .getByTestId('translation-file')
    .setInputFiles({ name: 'palayan-fil.xlf', mimeType: 'application/xliff+xml', buffer: Buffer.from(translated, 'utf8') });
  await expect(dialog.getByTestId('import-for-review')).toHaveText(T.files.forReview('Rice Diseases'));
  await dialog.screenshot({ path: `${SHOTS}/import-for-review.png` });
  await dialog.getByRole('button', { name: T.files.importButton(1) }).click();
  await expect(dialog.getByRole('status')).toContainText(T.files.sentForReview('Rice Diseases', 1));
  expect(await servedCause(app)).toBe(cause);

  // The reviewer opens the change from the link the author shares, and publishes it.
  await dialog.getByRole('link', { name: T.files.openReview }).click();
  await expect(page.getByRole('heading', { name: 'palayan-fil.xlf (fil)', level: 1 })).toBeVisible();
  const changePath = new URL(page.url()).pathname;
  const reviewerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const reviewer = await reviewerContext.newPage();
  await signIn(reviewer, app, 'SYSTEM_ADMIN', changePath);
  const rows = reviewer.getByRole('region', { name: REVIEW_SCREEN.translationsTitle });
  const row = rows.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText(cause);
  await expect(row).toContainText(REVIEW_SCREEN.noTranslation);
  await expect(row).toContainText(filipino);
  const violations = await axeViolations(reviewer, "a translators' file under review");
  await reviewer.screenshot({ path: `${SHOTS}/review-translations-file.png`, fullPage: true });
  expect(violations, violations.join('\n')).toEqual([]);
  await reviewer.getByRole('button', { name: REVIEW_TEXTS.approve, exact: true }).click();
  await reviewer
    .getByRole('dialog', { name: REVIEW_TEXTS.approve, exact: true })
    .getByRole('button', { name: REVIEW_SCREEN.confirmApprove })
    .click();
  await expect(reviewer.getByTestId('review-state').first()).toHaveText(REVIEW_TEXTS.states.published);
  await expect.poll(() => servedCause(app)).toBe(filipino);
  await reviewerContext.close();
  expect((await fixture.put('/api/review/settings/rice_local_diseases', { data: { enabled: false } })).status()).toBe(200);
});
