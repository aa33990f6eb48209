import type { Page } from '@playwright/test';
import { ACCOUNTS } from '../../common/accounts';
import { COLLECTIONS } from '../../common/collections';
import { SESSIONS } from '../../common/sessions';
import { LOGIN, SHELL } from '../../common/texts';
import { TRASH } from '../../common/trash';
import { E2E } from '../../playwright.config';
import { expect, test, uniqueTag } from './fixtures';
import { loginViaUi, signIn } from './support';

const admin = E2E.admin;

async function openAccounts(page: Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: SHELL.nav.accounts }).click();
  await expect(page.getByRole('heading', { name: ACCOUNTS.title })).toBeVisible();
}

test("a super admin signs out a staff member's session from another browser: their tab leaves for /login at once", async ({
  page,
  browser,
  app,
}) => {
  const user = await app.account('ADMIN', `Melchora Aquino ${uniqueTag()}`);
  const theirs = await (await browser.newContext()).newPage();
  await loginViaUi(theirs, user.username, user.password);
  await expect(theirs.getByTestId('header-name')).toHaveText(user.fullname);

  // Their own Account Settings lists this session, marked, with nothing to sign out.
  await theirs.getByTestId('header-name').click();
  await theirs.getByRole('menuitem', { name: 'Account Settings' }).click();
  const settings = theirs.getByRole('dialog');
  const own = settings.getByTestId('sessions-list');
  await expect(own.getByRole('listitem')).toHaveCount(1);
  await expect(own.getByRole('listitem')).toContainText(SESSIONS.thisSession);
  await expect(own.getByRole('listitem')).toContainText('Chrome on');
  await expect(own.getByRole('button', { name: SESSIONS.signOut })).toHaveCount(0);
  await settings.getByRole('button', { name: 'Cancel' }).click();

  await signIn(page, app, 'SYSTEM_ADMIN');
  await openAccounts(page);
  await page.getByRole('searchbox', { name: ACCOUNTS.searchLabel }).fill(user.username);
  const row = page.getByRole('row').filter({ hasText: user.fullname });
  await row.getByRole('button', { name: SESSIONS.viewSessionsLabel(user.fullname) }).click();
  const dialog = page.getByRole('dialog', { name: SESSIONS.adminHeading(user.fullname) });
  const item = dialog.getByRole('listitem');
  await expect(item).toHaveCount(1);
  await expect(item).not.toContainText(SESSIONS.thisSession);
  await page.screenshot({ path: '.tmp/screenshots/account-sessions.png' });
  await item.getByRole('button', { name: /^Sign out / }).click();
  await expect(page.getByText(SESSIONS.signedOutOne)).toBeVisible();
  await expect(dialog.getByText(SESSIONS.none)).toBeVisible();

  // Their open tab is signed out without them doing anything, and told why.
  await expect(theirs).toHaveURL(/\/login$/, { timeout: 15_000 });
  await expect(theirs.getByRole('dialog', { name: LOGIN.autoLogoutTitle })).toContainText(LOGIN.autoLogoutSignedOut);
  await theirs.context().close();
});

test('a deleted account waits in the Accounts trash and comes back restricted with Restore', async ({ page, app }) => {
  const user = await app.account('ADMIN', `Gregoria de Jesus ${uniqueTag()}`);
  await signIn(page, app, 'SYSTEM_ADMIN');
  await openAccounts(page);
  await page.getByRole('searchbox', { name: ACCOUNTS.searchLabel }).fill(user.username);
  const row = page.getByRole('row').filter({ hasText: user.fullname });
  await row.getByRole('button', { name: ACCOUNTS.actions.delete }).click();
  const confirm = page.getByRole('dialog', { name: ACCOUNTS.confirm.deleteTitle });
  await confirm.getByRole('textbox').fill(user.fullname);
  await confirm.getByRole('button', { name: ACCOUNTS.confirm.deleteLabel }).click();
  await expect(row).toBeHidden();

  await page.getByRole('link', { name: TRASH.tab }).click();
  await expect(page.getByRole('heading', { name: COLLECTIONS.accounts.trash.heading })).toBeVisible();
  await expect(page.getByText(TRASH.explanation)).toBeVisible();
  await expect(page.getByText(TRASH.accountsExplanation)).toBeVisible();
  await page.getByRole('searchbox', { name: TRASH.searchPlaceholder }).fill(user.username);
  const trashed = page.getByRole('row').filter({ hasText: user.fullname });
  await expect(trashed).toContainText(admin.fullname);
  await page.screenshot({ path: '.tmp/screenshots/accounts-trash.png' });
  await trashed.getByRole('button', { name: TRASH.restoreLabel(user.fullname) }).click();
  await expect(page.getByText(TRASH.restored(user.fullname))).toBeVisible();
  await expect(trashed).toBeHidden();

  await page.getByRole('link', { name: TRASH.liveTab }).click();
  await page.getByRole('searchbox', { name: ACCOUNTS.searchLabel }).fill(user.username);
  await expect(page.getByRole('row').filter({ hasText: user.fullname })).toContainText(ACCOUNTS.status.restricted);
});
