import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { Page } from '@playwright/test';
import { DEFAULT_SECURITY_QUESTIONS } from '../../common/schemas/maintenance';
import { CHANGE_PASSWORD, CROP, RECOVERY, SETTINGS } from '../../common/profile';
import { axeViolations } from './axe';
import { expect, test } from './fixtures';
import { loginViaUi, setSecurityQuestion, signIn } from './support';

const QUESTION = DEFAULT_SECURITY_QUESTIONS[1]!;

/** A real photo-like JPEG: a landscape picture with a subject in the middle. */
async function samplePhoto(): Promise<Buffer> {
  const svg = `<svg width="1600" height="1000" xmlns="http://www.w3.org/2000/svg">
    <rect width="1600" height="1000" fill="#9ccc65"/><rect y="600" width="1600" height="400" fill="#33691e"/>
    <circle cx="800" cy="450" r="260" fill="#fbc02d"/><circle cx="800" cy="450" r="120" fill="#e65100"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer();
}

async function openSettings(page: Page) {
  await page.getByTestId('account-menu').click();
  await page.getByRole('menuitem', { name: 'Account Settings' }).click();
  const dialog = page.getByRole('dialog', { name: SETTINGS.title });
  await expect(dialog.getByLabel(SETTINGS.fullname)).not.toHaveValue('');
  return dialog;
}

test('forgot password: every step and message, then login with the new password', async ({ page, app }) => {
  const user = await app.account('ADMIN');
  await setSecurityQuestion(app, user, QUESTION, 'Bantay');
  await page.goto('/login');
  await page.getByRole('button', { name: 'Forgot password?' }).click();
  const dialog = page.getByRole('dialog', { name: RECOVERY.title });
  await expect(dialog).toContainText(RECOVERY.stepOf(1));

  // Step 1
  await dialog.getByRole('button', { name: RECOVERY.next }).click();
  await expect(dialog.getByText(RECOVERY.identifierRequired)).toBeVisible();
  await dialog.getByLabel(RECOVERY.identifier).fill('no_such_user_here');
  await expect(dialog.getByText(RECOVERY.identifierRequired)).toBeHidden();
  await dialog.getByRole('button', { name: RECOVERY.next }).click();
  await expect(dialog.getByText(RECOVERY.userNotFound)).toBeVisible();
  await dialog.getByLabel(RECOVERY.identifier).fill(user.email.toUpperCase());
  await expect(dialog.getByText(RECOVERY.userNotFound)).toBeHidden();
  await dialog.getByRole('button', { name: RECOVERY.next }).click();

  // Step 2
  await expect(dialog).toContainText(RECOVERY.stepOf(2));
  await dialog.getByRole('button', { name: RECOVERY.verify }).click();
  await expect(dialog.getByText(RECOVERY.questionRequired)).toBeVisible();
  await expect(dialog.getByText(RECOVERY.answerRequired)).toBeVisible();
  await dialog.getByLabel(RECOVERY.question).selectOption(DEFAULT_SECURITY_QUESTIONS[0]!);
  await dialog.getByLabel(RECOVERY.answer).fill('Bantay');
  await dialog.getByRole('button', { name: RECOVERY.verify }).click();
  await expect(dialog.getByText(RECOVERY.questionMismatch)).toBeVisible();
  await dialog.getByLabel(RECOVERY.question).selectOption(QUESTION);
  await dialog.getByLabel(RECOVERY.answer).fill('Brownie');
  await dialog.getByRole('button', { name: RECOVERY.verify }).click();
  await expect(dialog.getByText(RECOVERY.wrongAnswer)).toBeVisible();
  await dialog.getByLabel(RECOVERY.answer).fill('  bANTAY ');
  await dialog.getByRole('button', { name: RECOVERY.verify }).click();

  // Step 3, with the live checklist
  await expect(dialog).toContainText(RECOVERY.stepOf(3));
  const checklist = dialog.getByTestId('password-checklist');
  await dialog.getByLabel(RECOVERY.newPassword, { exact: true }).fill('short');
  await expect(checklist.locator('[data-met="true"]')).toHaveCount(0);
  await dialog.getByLabel(RECOVERY.confirmPassword).fill('short');
  await dialog.getByRole('button', { name: RECOVERY.reset }).click();
  await expect(dialog.getByText(RECOVERY.rulesNotMet)).toBeVisible();
  await dialog.getByLabel(RECOVERY.newPassword, { exact: true }).fill('Harvest#2025');
  await expect(checklist.locator('[data-met="true"]')).toHaveCount(4);
  await dialog.getByRole('button', { name: RECOVERY.reset }).click();
  await expect(dialog.getByText(RECOVERY.passwordsDontMatch)).toBeVisible();
  await dialog.getByLabel(RECOVERY.confirmPassword).fill('Harvest#2025');
  await dialog.getByRole('button', { name: RECOVERY.reset }).click();
  await expect(page.getByRole('status').filter({ hasText: RECOVERY.success })).toBeVisible();
  await expect(dialog).toBeHidden();

  // Reopened, it starts again at step 1; Cancel closes it.
  await page.getByRole('button', { name: 'Forgot password?' }).click();
  await expect(dialog).toContainText(RECOVERY.stepOf(1));
  await expect(dialog.getByLabel(RECOVERY.identifier)).toHaveValue('');
  await dialog.getByRole('button', { name: RECOVERY.cancel }).click();
  await expect(dialog).toBeHidden();

  await page.getByLabel('Username or email').fill(user.username);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByText('Invalid credentials. Please try again.')).toBeVisible();
  await loginViaUi(page, user.username, 'Harvest#2025');
  await expect(page.getByTestId('header-name')).toHaveText(user.fullname);
});

test('account settings: name, contact and a cropped picture update the header here and in another tab; a security question needs the password', async ({
  context,
  app,
}) => {
  const user = await app.account('ADMIN');
  const page = await context.newPage();
  await signIn(page, app, user);
  const other = await context.newPage();
  await other.goto('/dashboard');
  await expect(other.getByTestId('header-name')).toHaveText(user.fullname);

  const dialog = await openSettings(page);
  await expect(dialog.getByLabel(SETTINGS.contactNo)).toHaveAttribute('placeholder', SETTINGS.contactPlaceholder);
  await expect(dialog.getByLabel(SETTINGS.answer)).toBeDisabled();

  // Only images are accepted.
  await dialog.getByTestId('avatar-file').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') });
  await expect(dialog.getByText(SETTINGS.invalidImage)).toBeVisible();

  await dialog.getByTestId('avatar-file').setInputFiles({ name: 'field.jpg', mimeType: 'image/jpeg', buffer: await samplePhoto() });
  const crop = page.getByRole('dialog', { name: CROP.title });
  await expect(crop.locator('img')).toBeVisible();
  const zoom = crop.getByRole('slider', { name: CROP.zoom });
  await expect(zoom).toHaveAttribute('min', '1');
  await expect(zoom).toHaveAttribute('max', '3');
  await expect(zoom).toHaveAttribute('step', '0.1');
  await zoom.fill('1.8');
  await expect(crop.getByText('1.8×')).toBeVisible();
  await crop.getByRole('button', { name: CROP.apply }).click();
  await expect(crop).toBeHidden();
  await expect(dialog.getByTestId('avatar-pending')).toBeVisible();
  await expect(dialog.getByText(SETTINGS.invalidImage)).toBeHidden();

  await dialog.getByLabel(SETTINGS.fullname).fill('  Andres Bonifacio  ');
  await dialog.getByLabel(SETTINGS.contactNo).fill('09171234567');
  await dialog.getByLabel(SETTINGS.question, { exact: true }).selectOption(QUESTION);
  await expect(dialog.getByLabel(SETTINGS.answer)).toBeEnabled();
  await dialog.getByRole('button', { name: SETTINGS.save }).click();
  await expect(dialog.getByText(SETTINGS.answerRequired)).toBeVisible();
  await dialog.getByLabel(SETTINGS.answer).fill('Bantay');
  // A security question is a way back into the account: the current password confirms it.
  const confirm = dialog.getByTestId('settings-confirm');
  await expect(confirm).toContainText(SETTINGS.confirmIdentity);
  await dialog.getByRole('button', { name: SETTINGS.save }).click();
  await expect(confirm.getByText(SETTINGS.currentPasswordRequired)).toBeVisible();
  await confirm.getByLabel(SETTINGS.currentPassword).fill('Not#MyPassword1');
  await dialog.getByRole('button', { name: SETTINGS.save }).click();
  await expect(confirm.getByText(SETTINGS.wrongCurrentPassword)).toBeVisible();
  await confirm.getByLabel(SETTINGS.currentPassword).fill(user.password);
  await page.screenshot({ path: '.tmp/screenshots/settings-confirm-identity.png' });
  await dialog.getByRole('button', { name: SETTINGS.save }).click();
  await expect(dialog).toBeHidden();

  for (const tab of [page, other]) {
    await expect(tab.getByTestId('header-name')).toHaveText('Andres Bonifacio');
    const avatar = tab.getByTestId('account-menu').locator('img');
    await expect(avatar).toHaveAttribute('src', /^\/api\/files\/avatars\/[\w-]+\/avatar_\d+\.jpg$/);
    await expect.poll(() => avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  }
  // The stored picture is the cropped square, at most 512 px.
  const avatar = page.getByTestId('account-menu').locator('img');
  const size = await avatar.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight]);
  expect(size[0]).toBe(size[1]);
  expect(size[0]).toBeLessThanOrEqual(512);

  // Reopened, the modal shows what was saved.
  const again = await openSettings(page);
  await expect(again.getByLabel(SETTINGS.fullname)).toHaveValue('Andres Bonifacio');
  await expect(again.getByLabel(SETTINGS.contactNo)).toHaveValue('09171234567');
  await expect(again.getByLabel(SETTINGS.question, { exact: true })).toHaveValue(QUESTION);
  await expect(again.getByLabel(SETTINGS.answer)).toHaveValue('');
});

test('Escape closes the crop dialog first, then Account Settings; a backdrop click closes it too', async ({ page, app }) => {
  const user = await app.account('ADMIN');
  await signIn(page, app, user);
  const dialog = await openSettings(page);
  await dialog.getByTestId('avatar-file').setInputFiles({ name: 'field.jpg', mimeType: 'image/jpeg', buffer: await samplePhoto() });
  const crop = page.getByRole('dialog', { name: CROP.title });
  await expect(crop.locator('img')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(crop).toBeHidden();
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // Unsaved edits are dropped: the header and the account keep the old name.
  const reopened = await openSettings(page);
  await reopened.getByLabel(SETTINGS.fullname).fill('Not Saved');
  await page.mouse.click(20, 840);
  await expect(reopened).toBeHidden();
  await expect(page.getByTestId('header-name')).toHaveText(user.fullname);
});

test.describe('with every request logged', () => {
  // A server of its own that logs each request, to show no token reaches a log line.
  test.use({ serverEnv: { LOG_LEVEL: 'info' } });

  test('the password reset email: its link sets a new password once, and no token is logged', async ({ page, browser, app }) => {
    const user = await app.account('ADMIN');
    await signIn(page, app, user);
    const dialog = await openSettings(page);
    const outbox = path.join(app.dataDir, 'outbox');
    const before = new Set(fs.existsSync(outbox) ? fs.readdirSync(outbox) : []);
    await dialog.getByRole('button', { name: SETTINGS.sendResetEmail }).click();
    await expect(dialog.getByText(SETTINGS.resetEmailSent(user.email))).toBeVisible();

    // No SMTP_URL on the test server: the message is in DATA_DIR/outbox.
    const file = fs
      .readdirSync(outbox)
      .find((f) => !before.has(f) && fs.readFileSync(path.join(outbox, f), 'utf8').includes(`To: ${user.email}`));
    expect(file).toBeDefined();
    const raw = fs
      .readFileSync(path.join(outbox, file!), 'utf8')
      .replace(/=\r?\n/g, '')
      .replace(/=3D/g, '=');
    const link = raw.match(/http:\/\/127\.0\.0\.1:\d+\/reset-password#token=[\w%-]+/)![0];

    const stranger = await (await browser.newContext()).newPage();
    await stranger.goto(link);
    await expect(stranger.getByRole('heading', { name: RECOVERY.linkTitle })).toBeVisible();
    await stranger.getByLabel(RECOVERY.newPassword, { exact: true }).fill('Seedling#77');
    await stranger.getByLabel(RECOVERY.confirmPassword).fill('Seedling#77');
    await stranger.getByRole('button', { name: RECOVERY.reset }).click();
    await expect(stranger.getByText(RECOVERY.linkDone)).toBeVisible();
    // The signed-in tab's session ended with the password change.
    await expect(page).toHaveURL(/\/login$/);

    // Opened again from the email (a new page load: the same address differs only in its fragment).
    await stranger.goto('about:blank');
    await stranger.goto(link);
    await expect(stranger.getByText(RECOVERY.linkInvalid)).toBeVisible();
    await loginViaUi(stranger, user.username, 'Seedling#77');

    const token = decodeURIComponent(new URL(link).hash.slice('#token='.length));
    const log = app.log();
    expect(log).toContain('/api/recovery/email-link');
    expect(log).not.toContain(token);
    expect(log).not.toContain(encodeURIComponent(token));
  });
});

test('change password in Account Settings: the checklist, a wrong current password, then signing in with the new one; axe at 1280 and 360 px', async ({
  page,
  app,
}) => {
  const user = await app.account('SYSTEM_ADMIN');
  await signIn(page, app, user);
  for (const [width, height] of [
    [1280, 900],
    [360, 740],
  ] as const) {
    await page.setViewportSize({ width, height });
    const dialog = await openSettings(page);
    const section = dialog.getByTestId('change-password-section');
    await section.getByRole('button', { name: CHANGE_PASSWORD.open }).click();
    await section.getByLabel(CHANGE_PASSWORD.newPassword, { exact: true }).fill('harvesting');
    await expect(section.getByTestId('password-checklist').locator('[data-met="true"]')).toHaveCount(1);
    await section.getByLabel(CHANGE_PASSWORD.currentPassword).scrollIntoViewIfNeeded();
    expect(await axeViolations(page, `change password at ${width} px`, '[role="dialog"]')).toEqual([]);
    await page.screenshot({ path: `.tmp/screens/settings-change-password-${width}.png` });
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  }

  await page.setViewportSize({ width: 1280, height: 900 });
  const dialog = await openSettings(page);
  const section = dialog.getByTestId('change-password-section');
  await section.getByRole('button', { name: CHANGE_PASSWORD.open }).click();
  await section.getByLabel(CHANGE_PASSWORD.currentPassword).fill('Not#MyPassword1');
  await section.getByLabel(CHANGE_PASSWORD.newPassword, { exact: true }).fill('Harvest#2026');
  await section.getByLabel(CHANGE_PASSWORD.confirmPassword).fill('Harvest#2026');
  await section.getByRole('button', { name: CHANGE_PASSWORD.submit }).click();
  await expect(section.getByText(SETTINGS.wrongCurrentPassword)).toBeVisible();
  await section.getByLabel(CHANGE_PASSWORD.currentPassword).fill(user.password);
  await section.getByRole('button', { name: CHANGE_PASSWORD.submit }).click();
  await expect(page.getByText(CHANGE_PASSWORD.done)).toBeVisible();
  await expect(section.getByRole('button', { name: CHANGE_PASSWORD.open })).toBeVisible();
  // This session stays open.
  await page.keyboard.press('Escape');
  await page.reload();
  await expect(page.getByTestId('header-name')).toHaveText(user.fullname);

  await page.context().clearCookies();
  await loginViaUi(page, user.username, 'Harvest#2026');
  await expect(page).toHaveURL(/\/dashboard/);
});
