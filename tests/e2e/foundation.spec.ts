import { DASHBOARD_PATHS, SESSION_PATH } from '../../common/first-visit';
import { HELP_TEXTS } from '../../common/help-texts';
import { LOGIN, SHELL } from '../../common/texts';
import { axeViolations } from './axe';
import { E2E } from '../../playwright.config';
import { expect, test } from './fixtures';
import { blockAccount, loginViaUi, signIn } from './support';

const admin = E2E.admin;

test('the root and every dashboard route without a session lead to the login screen', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/dashboard/rice_varieties');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByLabel('Username or email')).toBeVisible();
  await expect(page.getByLabel('Password', { exact: true })).toBeVisible();
  await expect(page.getByTestId('login-clock')).toBeVisible();
  await expect(page.getByText('© 2025')).toBeVisible();
  await expect(page.getByRole('button', { name: LOGIN.forgotPassword })).toBeVisible();
});

test('login shows the SPEC validation and error texts', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByText(LOGIN.usernameRequired)).toBeVisible();
  await expect(page.getByText(LOGIN.passwordRequired)).toBeVisible();
  await page.getByLabel('Username or email').fill(admin.username);
  await page.getByLabel('Password', { exact: true }).fill('not-the-password');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByText(LOGIN.invalidCredentials)).toBeVisible();
  // The show/hide toggle reveals the typed password.
  await page.getByRole('button', { name: 'Show password' }).click();
  await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('type', 'text');
});

test('a super admin signs in, waits about 2 s, and reaches the dashboard with the whole menu', async ({ page, app }) => {
  // By email; a super admin of its own, so the file's shared sign-in stays open.
  const admin = await app.account('SYSTEM_ADMIN');
  await page.goto('/login');
  await page.getByLabel('Username or email').fill(admin.email);
  await page.getByLabel('Password', { exact: true }).fill(admin.password);
  const started = Date.now();
  await page.getByLabel('Username or email').press('Enter');
  await expect(page.getByRole('button', { name: LOGIN.submitting })).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 15_000 });
  expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
  await expect(page.getByTestId('header-name')).toHaveText(admin.fullname);
  await expect(page.getByTestId('header-role')).toHaveText('super admin');
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const label of Object.values(SHELL.nav)) await expect(nav.getByRole('link', { name: label })).toBeVisible();
  await expect(page.getByText('Version 1.0.0')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Recent Activities' })).toBeVisible();
  await expect(page.getByTestId('count-Admin Users')).not.toHaveText('–');
});

test('a deleted or restricted account sees the Login blocked modal', async ({ page, app }) => {
  const restricted = await app.account();
  await blockAccount(app, restricted, 'restrict');
  await page.goto('/login');
  await page.getByLabel('Username or email').fill(restricted.username);
  await page.getByLabel('Password', { exact: true }).fill(restricted.password);
  await page.getByRole('button', { name: 'Login' }).click();
  const modal = page.getByRole('dialog', { name: LOGIN.blockedTitle });
  await expect(modal).toContainText(LOGIN.restrictedAccount);
  await modal.getByRole('button', { name: 'OK' }).click();
  await expect(modal).toBeHidden();

  const deleted = await app.account();
  await blockAccount(app, deleted, 'delete');
  await page.getByLabel('Username or email').fill(deleted.username);
  await page.getByLabel('Password', { exact: true }).fill(deleted.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('dialog', { name: LOGIN.blockedTitle })).toContainText(LOGIN.deletedAccount);
});

test('an ADMIN does not see Accounts or File Maintenance and is redirected from them', async ({ page, app }) => {
  await signIn(page, app, 'ADMIN');
  await expect(page.getByTestId('header-role')).toHaveText('admin');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: SHELL.nav.history })).toBeVisible();
  await expect(nav.getByRole('link', { name: SHELL.nav.accounts })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: SHELL.nav.maintenance })).toHaveCount(0);
  await page.goto('/dashboard/accounts');
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/dashboard/file_maintenance');
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('logout asks first, shows Logging out..., and ends on /login for every tab of the browser', async ({ context, app }) => {
  const user = await app.account('ADMIN');
  const page = await context.newPage();
  await loginViaUi(page, user.username, user.password);
  const other = await context.newPage();
  await other.goto('/dashboard/rice_pests');
  await expect(other.getByRole('heading', { name: SHELL.nav.pests })).toBeVisible();

  await page.getByTestId('account-menu').click();
  await page.getByRole('menuitem', { name: SHELL.logout }).click();
  const dialog = page.getByRole('dialog', { name: SHELL.logout });
  await expect(dialog).toContainText(SHELL.logoutConfirm);
  // The logout request waits until "Logging out..." has been seen: on a busy machine its short
  // pause could pass before the check looks.
  let seen!: () => void;
  const shown = new Promise<void>((resolve) => (seen = resolve));
  await page.route('**/api/auth/logout', async (route) => {
    await shown;
    await route.continue();
  });
  await dialog.getByRole('button', { name: SHELL.logout }).click();
  await expect(dialog.getByRole('button', { name: SHELL.loggingOut })).toBeVisible();
  seen();
  await expect(page).toHaveURL(/\/login$/);
  await expect(other).toHaveURL(/\/login$/);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login$/);
});

test('a second login elsewhere ends the first tab at once', async ({ browser, app }) => {
  const user = await app.account('ADMIN');
  const first = await (await browser.newContext()).newPage();
  const second = await (await browser.newContext()).newPage();
  await loginViaUi(first, user.username, user.password);
  await loginViaUi(second, user.username, user.password);
  await expect(first).toHaveURL(/\/login$/, { timeout: 5000 });
  await expect(first.getByRole('dialog', { name: LOGIN.autoLogoutTitle })).toContainText(LOGIN.autoLogoutSessionEnded);
  await first.getByRole('button', { name: 'OK' }).click();
  await expect(second.getByTestId('header-name')).toHaveText(user.fullname);
});

test.describe('on a server whose sessions end after 6 s idle', () => {
  test.use({ serverEnv: E2E.shortIdle });
  test('inactivity logs the user out with the inactivity reason', async ({ page, app }) => {
    const user = await app.account('ADMIN');
    await loginViaUi(page, user.username, user.password);
    await expect(page).toHaveURL(/\/login$/, { timeout: Number(E2E.shortIdle.SESSION_IDLE_TIMEOUT_MS) + 8000 });
    await expect(page.getByRole('dialog', { name: LOGIN.autoLogoutTitle })).toContainText(LOGIN.autoLogoutInactivity);
  });
});

test('the sidebar collapses to 64 px and becomes a slide-over on small screens', async ({ page, app }) => {
  await signIn(page, app, 'SYSTEM_ADMIN');
  const sidebar = page.getByTestId('sidebar');
  await expect.poll(async () => (await sidebar.boundingBox())?.width).toBe(256);
  await page.getByRole('button', { name: SHELL.collapseSidebar }).click();
  await expect.poll(async () => (await sidebar.boundingBox())?.width).toBe(64);
  await page.getByRole('button', { name: SHELL.expandSidebar }).click();
  await page.setViewportSize({ width: 420, height: 800 });
  await expect(sidebar).toBeHidden();
  await page.getByRole('button', { name: SHELL.openMenu }).click();
  const drawer = page.getByRole('dialog', { name: 'Navigation' });
  await drawer.getByRole('link', { name: SHELL.nav.history }).click();
  await expect(page).toHaveURL(/history_logs$/);
  await expect(drawer).toBeHidden();
});

test('a signed-in visit to the dashboard has its code and data preloaded by the page, and uses them', async ({ page, app }) => {
  const who = await app.account('SYSTEM_ADMIN');
  await loginViaUi(page, who.username, who.password);
  const asked = new Map<string, number>();
  page.on('request', (r) => {
    const { pathname } = new URL(r.url());
    asked.set(pathname, (asked.get(pathname) ?? 0) + 1);
  });
  const unused: string[] = [];
  page.on('console', (m) => {
    if (m.text().includes('preloaded using link preload but not used')) unused.push(m.text());
  });
  await page.addInitScript(() =>
    document.addEventListener('DOMContentLoaded', () => {
      document.head.append(
        Object.assign(document.createElement('link'), {
          rel: 'preload',
          as: 'fetch',
          crossOrigin: 'anonymous',
          href: '/api/health?unused-preload-control',
        }),
      );
    }),
  );
  const res = await page.goto('/dashboard');
  const html = await res!.text();
  const data = [SESSION_PATH, ...Object.values(DASHBOARD_PATHS)];
  for (const url of data) expect(html).toContain(`<link rel="preload" as="fetch" crossorigin href="${url}">`);
  const modules = [...html.matchAll(/rel="modulepreload" crossorigin href="([^"]+)"/g)].map((m) => m[1]!);
  expect(modules.some((file) => /\/assets\/shell-/.test(file))).toBe(true);
  await expect(page.getByTestId('count-Rice Varieties')).toHaveText(/^\d+$/);
  await expect(page.getByTestId('content-chart')).toBeVisible();
  // Each chunk came once: the imports took the preloaded files.
  for (const file of modules) expect(asked.get(file), file).toBe(1);
  // The data may be asked again later (a live change elsewhere refreshes the dashboard), but the
  // preloaded answers were taken: Chromium warns a few seconds after load about any that were not.
  // The control preload (added before load, never used) shows the check has run however slow the
  // machine, and it must have named nothing else.
  for (const url of data) expect(asked.get(url), url).toBeGreaterThanOrEqual(1);
  await expect.poll(() => unused.some((text) => text.includes('unused-preload-control')), { timeout: 20_000 }).toBe(true);
  expect(unused.filter((text) => !text.includes('unused-preload-control'))).toEqual([]);

  // Signed out, the same address gets the plain page, which preloads nothing of the shell.
  await page.context().clearCookies();
  const plain = await (await page.request.get('/dashboard')).text();
  expect(plain).not.toContain('as="fetch"');
  expect(plain).not.toMatch(/\/assets\/shell-/);
});

test('Help in the header answers the usual questions, at 1280 px and on a phone', async ({ page, app }) => {
  await signIn(page, app, 'ADMIN', '/dashboard/rice_varieties');
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: 800 });
    await page.getByRole('button', { name: SHELL.help, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: HELP_TEXTS.title });
    await expect(dialog).toBeVisible();
    for (const topic of HELP_TEXTS.topics) await expect(dialog.getByText(topic.title, { exact: true })).toBeAttached();
    expect(await axeViolations(page, `help, ${width} px`)).toEqual([]);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  }
});
