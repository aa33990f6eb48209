import { generate } from 'otplib';
import type { Page } from '@playwright/test';
import { SETTINGS } from '../../common/profile';
import { LOGIN, SHELL } from '../../common/texts';
import { SECOND_FACTOR } from '../../common/second-factor';
import { expect, test } from './fixtures';
import { loginViaUi, signIn } from './support';

/** A code from the key shown on screen, `steps` 30-second steps from now (±1 is accepted by the server). */
const codeAt = (secret: string, steps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

async function openSettings(page: Page) {
  await page.getByTestId('account-menu').click();
  await page.getByRole('menuitem', { name: SHELL.accountSettings }).click();
  const dialog = page.getByRole('dialog', { name: SETTINGS.title });
  await expect(dialog.getByLabel(SETTINGS.fullname)).not.toHaveValue('');
  return dialog;
}

async function logout(page: Page) {
  await page.getByTestId('account-menu').click();
  await page.getByRole('menuitem', { name: SHELL.logout }).click();
  const dialog = page.getByRole('dialog', { name: SHELL.logout });
  await dialog.getByRole('button', { name: SHELL.logout }).click();
  await expect(page).toHaveURL(/\/login$/);
}

async function passwordStep(page: Page, username: string, password: string) {
  await page.goto('/login');
  await page.getByLabel(LOGIN.usernameLabel).fill(username);
  await page.getByLabel(LOGIN.passwordLabel, { exact: true }).fill(password);
  await page.getByLabel(LOGIN.passwordLabel, { exact: true }).press('Enter');
  await expect(page.getByRole('heading', { name: SECOND_FACTOR.verifyTitle })).toBeVisible();
}

test('a super admin turns on two-step sign-in, then signs in with password and a code from the app, and with a recovery code', async ({
  page,
  app,
}) => {
  test.setTimeout(150_000); // five sign-ins, each with the login page's 2 s redirect delay
  const user = await app.account('SYSTEM_ADMIN');
  await signIn(page, app, user);

  // Account Settings: turn on, scan (the test reads the key shown), confirm with a code.
  let dialog = await openSettings(page);
  const section = dialog.getByTestId('second-factor-section');
  await expect(section.getByTestId('second-factor-status')).toHaveText(SECOND_FACTOR.statusOff);
  await section.getByRole('button', { name: SECOND_FACTOR.turnOn }).click();
  // A session alone cannot enrol an authenticator: the password comes first.
  await expect(section).toContainText(SECOND_FACTOR.turnOnIntro);
  await section.getByLabel(SECOND_FACTOR.password).fill('Not#Mine2026');
  await section.getByRole('button', { name: SECOND_FACTOR.continueSetup }).click();
  await expect(section.getByText(SETTINGS.wrongCurrentPassword)).toBeVisible();
  await section.getByLabel(SECOND_FACTOR.password).fill(user.password);
  await section.getByRole('button', { name: SECOND_FACTOR.continueSetup }).click();
  await expect(section.getByRole('img', { name: SECOND_FACTOR.qrAlt })).toBeVisible();
  const secret = (await section.getByTestId('totp-secret').getAttribute('data-secret'))!;
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await section.scrollIntoViewIfNeeded();
  await section.screenshot({ path: `.tmp/screens/second-factor-setup.png` });
  await section.getByLabel(SECOND_FACTOR.confirmCode).fill('000000');
  await section.getByRole('button', { name: SECOND_FACTOR.confirm }).click();
  await expect(section.getByRole('alert')).toHaveText(SECOND_FACTOR.invalidCode);
  await section.getByLabel(SECOND_FACTOR.confirmCode).fill(await codeAt(secret));
  await section.getByRole('button', { name: SECOND_FACTOR.confirm }).click();
  const codes = section.getByTestId('recovery-codes').getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const recoveryCode = (await codes.nth(0).textContent())!;
  expect(recoveryCode).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
  await expect(section.getByTestId('second-factor-status')).toHaveText(SECOND_FACTOR.statusOn);
  await section.screenshot({ path: `.tmp/screens/second-factor-codes.png` });
  await section.getByRole('button', { name: SECOND_FACTOR.done }).click();
  await expect(section.getByTestId('second-factor-codes-left')).toContainText(SECOND_FACTOR.codesLeft(10));
  await section.screenshot({ path: `.tmp/screens/second-factor-on.png` });
  await dialog.getByRole('button', { name: SETTINGS.cancel }).click();

  // Sign out; the password alone no longer opens the session.
  await logout(page);
  await passwordStep(page, user.username, user.password);
  const code = page.getByLabel(SECOND_FACTOR.codeLabel);
  await expect(code).toHaveAttribute('autocomplete', 'one-time-code');
  await expect(code).toHaveAttribute('inputmode', 'numeric');
  await page.screenshot({ path: `.tmp/screens/second-factor-login.png` });
  await code.fill('000000');
  await page.getByRole('button', { name: SECOND_FACTOR.verify }).click();
  await expect(page.getByRole('alert')).toHaveText(SECOND_FACTOR.invalidCode);
  // The next step's code: never the one used to turn it on (a replay is refused).
  await code.fill(await codeAt(secret, 1));
  await page.getByRole('button', { name: SECOND_FACTOR.verify }).click();
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 15_000 });

  // Again, with a recovery code.
  await logout(page);
  await passwordStep(page, user.username, user.password);
  await page.getByRole('button', { name: SECOND_FACTOR.useRecoveryCode }).click();
  await page.getByLabel(SECOND_FACTOR.recoveryCodeLabel).fill(recoveryCode.toUpperCase());
  await page.getByRole('button', { name: SECOND_FACTOR.verify }).click();
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 15_000 });
  dialog = await openSettings(page);
  await expect(dialog.getByTestId('second-factor-codes-left')).toContainText(SECOND_FACTOR.codesLeft(9));
  await dialog.getByRole('button', { name: SETTINGS.cancel }).click();

  // The first super admin resets it from the Accounts screen; the account then signs in with the password.
  await logout(page);
  await signIn(page, app, 'SYSTEM_ADMIN');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: SHELL.nav.accounts }).click();
  await page.getByRole('searchbox').fill(user.username);
  const row = page.getByRole('row').filter({ hasText: user.fullname });
  await expect(row.getByText(SECOND_FACTOR.badge)).toBeVisible();
  await row.getByRole('button', { name: SECOND_FACTOR.reset }).click();
  const confirm = page.getByRole('dialog', { name: SECOND_FACTOR.reset });
  await expect(confirm).toContainText(SECOND_FACTOR.resetConfirm(user.fullname));
  await confirm.getByRole('button', { name: SECOND_FACTOR.reset }).click();
  await expect(confirm.getByText(SETTINGS.currentPasswordRequired)).toBeVisible();
  await confirm.getByLabel(SETTINGS.currentPassword).fill((await app.roleAccount('SYSTEM_ADMIN')).password);
  await confirm.getByRole('button', { name: SECOND_FACTOR.reset }).click();
  await expect(confirm).toBeHidden();
  await expect(row.getByText(SECOND_FACTOR.badge)).toHaveCount(0);
  await logout(page);
  await loginViaUi(page, user.username, user.password);
});

test('an ADMIN has no two-step sign-in section in Account Settings', async ({ page, app }) => {
  await signIn(page, app, 'ADMIN');
  const dialog = await openSettings(page);
  await expect(dialog.getByTestId('second-factor-section')).toHaveCount(0);
});

test.describe('REQUIRE_2FA_FOR=SYSTEM_ADMIN', () => {
  // A server of its own with the setting.
  test.use({ serverEnv: { REQUIRE_2FA_FOR: 'SYSTEM_ADMIN' } });

  test('a super admin without two-step sign-in sets it up at the next login, keeps the recovery codes and reaches the dashboard', async ({
    page,
    app,
  }) => {
    test.setTimeout(120_000);
    const user = await app.account('SYSTEM_ADMIN');
    await page.goto('/login');
    await page.getByLabel(LOGIN.usernameLabel).fill(user.username);
    await page.getByLabel(LOGIN.passwordLabel, { exact: true }).fill(user.password);
    await page.getByLabel(LOGIN.passwordLabel, { exact: true }).press('Enter');
    await expect(page.getByRole('heading', { name: SECOND_FACTOR.enrollTitle })).toBeVisible();
    await expect(page.getByRole('img', { name: SECOND_FACTOR.qrAlt })).toBeVisible();
    await expect(page.getByRole('button', { name: SECOND_FACTOR.useRecoveryCode })).toHaveCount(0);
    const secret = (await page.getByTestId('totp-secret').getAttribute('data-secret'))!;
    await page.screenshot({ path: `.tmp/screens/second-factor-enroll.png` });
    await page.getByLabel(SECOND_FACTOR.codeLabel).fill(await codeAt(secret));
    await page.getByRole('button', { name: SECOND_FACTOR.verify }).click();
    await expect(page.getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10);
    await page.getByRole('button', { name: SECOND_FACTOR.continue }).click();
    await expect(page).toHaveURL(/\/dashboard$/, { timeout: 15_000 });

    // Account Settings shows it on and required: no Turn off.
    const dialog = await openSettings(page);
    const section = dialog.getByTestId('second-factor-section');
    await expect(section.getByTestId('second-factor-status')).toHaveText(SECOND_FACTOR.statusOn);
    await expect(section).toContainText(SECOND_FACTOR.requiredForRole);
    await expect(section.getByRole('button', { name: SECOND_FACTOR.turnOff })).toHaveCount(0);
  });
});
