import type { Page } from '@playwright/test';
import { ACCOUNTS, INVITATION, roleAbilities } from '../../common/accounts';
import { SESSIONS } from '../../common/sessions';
import { SETTINGS } from '../../common/profile';
import { LOGIN, SHELL } from '../../common/texts';
import { E2E } from '../../playwright.config';
import { expect, test, uniqueTag, type E2EAccount, type E2EServer } from './fixtures';
import { axeViolations } from './axe';
import { importAuditEntries, loginViaUi, signIn } from './support';

const admin = E2E.admin;
const M = ACCOUNTS.messages;
/** Gives the account an audit entry as its actor (imported, so it joins the audit chain). */
async function giveActivity(app: E2EServer, account: E2EAccount): Promise<void> {
  await importAuditEntries(app, [
    {
      userId: account.id,
      userName: account.fullname,
      timestamp: new Date().toISOString(),
      action: 'CREATE',
      collection: 'rice_local_pests',
      documentId: 'pest-1',
      documentName: 'Rice black bug',
      description: `Added a pest ${uniqueTag()}`,
    },
  ]);
}

async function openAccounts(page: Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: SHELL.nav.accounts }).click();
  await expect(page).toHaveURL(/\/dashboard\/accounts$/);
  await expect(page.getByRole('heading', { name: ACCOUNTS.title })).toBeVisible();
}

const rowOf = (page: Page, name: string) => page.getByRole('row').filter({ hasText: name });

async function search(page: Page, text: string) {
  await page.getByRole('searchbox', { name: ACCOUNTS.searchLabel }).fill(text);
}

test('a super admin adds an admin who then signs in without Accounts or File Maintenance', async ({ page, browser, app }) => {
  const tag = uniqueTag();
  const person = { fullname: `Juan Luna ${tag}`, email: `juan.${tag}@da.example`, username: `juan_${tag}`, password: 'Spoliarium#1884' };
  await signIn(page, app, 'SYSTEM_ADMIN');
  await openAccounts(page);
  await page.getByRole('button', { name: ACCOUNTS.addNew }).click();
  const dialog = page.getByRole('dialog', { name: ACCOUNTS.form.addTitle });
  const save = dialog.getByRole('button', { name: ACCOUNTS.form.save });
  await expect(save).toBeDisabled();

  await dialog.getByLabel('Full Name').fill(person.fullname);
  await dialog.getByLabel('Email').fill(person.email);
  await dialog.getByLabel('Username').fill(person.username);
  await dialog.getByLabel('Password', { exact: true }).fill('weak');
  // The live checklist follows the typing.
  const checklist = dialog.getByTestId('password-checklist');
  await expect(checklist.locator('[data-met="true"]')).toHaveCount(0);
  await dialog.getByLabel('Password', { exact: true }).fill(person.password);
  await expect(checklist.locator('[data-met="true"]')).toHaveCount(4);
  await expect(dialog.getByTestId('username-availability')).toHaveText(M.usernameAvailable);
  await expect(dialog.getByTestId('email-availability')).toHaveText(M.emailAvailable);
  await expect(dialog.getByLabel('Role')).toHaveValue('ADMIN');
  await expect(save).toBeEnabled();
  await save.click();
  await expect(page.getByText(M.created)).toBeVisible();
  await expect(dialog).toBeHidden();
  const row = rowOf(page, person.fullname);
  await expect(row).toContainText(person.username);
  await expect(row).toContainText(person.email);
  await expect(row.getByText('admin', { exact: true })).toBeVisible();
  await expect(row.getByText(ACCOUNTS.status.active)).toBeVisible();

  // The new admin signs in elsewhere: no Accounts, no File Maintenance, and the route redirects.
  const other = await (await browser.newContext()).newPage();
  await loginViaUi(other, person.username, person.password);
  await expect(other.getByTestId('header-role')).toHaveText('admin');
  const nav = other.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: SHELL.nav.dashboard })).toBeVisible();
  await expect(nav.getByRole('link', { name: SHELL.nav.accounts })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: SHELL.nav.maintenance })).toHaveCount(0);
  await other.goto('/dashboard/accounts');
  await expect(other).toHaveURL(/\/dashboard$/);
  await other.context().close();

  // Their last login now shows in the super admin's table (live refresh or reload).
  await page.reload();
  await search(page, person.username);
  await expect(rowOf(page, person.fullname).locator('time')).toHaveCount(2);
});

test('restricting a signed-in admin sends their tab to /login at once; unrestrict lets them back', async ({ page, browser, app }) => {
  const user = await app.account('ADMIN', `Teresa Magbanua ${uniqueTag()}`);
  const theirs = await (await browser.newContext()).newPage();
  await signIn(theirs, app, user);
  await expect(theirs.getByTestId('header-name')).toHaveText(user.fullname);

  await signIn(page, app, 'SYSTEM_ADMIN');
  await openAccounts(page);
  await search(page, user.username);
  const row = rowOf(page, user.fullname);
  await row.getByRole('button', { name: ACCOUNTS.actions.restrict }).click();
  const confirm = page.getByRole('dialog', { name: ACCOUNTS.confirm.restrictTitle });
  const restrictButton = confirm.getByRole('button', { name: ACCOUNTS.confirm.restrictLabel });
  await expect(restrictButton).toBeDisabled();
  await confirm.getByRole('textbox').fill(user.fullname.slice(0, 6));
  await expect(confirm.getByText(M.nameMismatch)).toBeVisible();
  await expect(restrictButton).toBeDisabled();
  await confirm.getByRole('textbox').fill(`  ${user.fullname}  `);
  await restrictButton.click();
  await expect(page.getByText(M.restricted)).toBeVisible();
  await expect(row.getByText(ACCOUNTS.status.restricted)).toBeVisible();

  // Their open tab is signed out without them doing anything.
  await expect(theirs).toHaveURL(/\/login$/, { timeout: 15_000 });
  await expect(theirs.getByRole('dialog', { name: LOGIN.autoLogoutTitle })).toContainText(LOGIN.autoLogoutSessionEnded);
  await theirs.getByRole('button', { name: LOGIN.ok }).click();
  await theirs.getByLabel('Username or email').fill(user.username);
  await theirs.getByLabel('Password', { exact: true }).fill(user.password);
  await theirs.getByRole('button', { name: LOGIN.submit }).click();
  await expect(theirs.getByRole('dialog', { name: LOGIN.blockedTitle })).toContainText(LOGIN.restrictedAccount);
  await theirs.getByRole('button', { name: LOGIN.ok }).click();

  // Unrestrict needs no confirmation.
  await row.getByRole('button', { name: ACCOUNTS.actions.unrestrict }).click();
  await expect(page.getByText(M.unrestricted)).toBeVisible();
  await expect(row.getByText(ACCOUNTS.status.active)).toBeVisible();
  await loginViaUi(theirs, user.username, user.password);
  await expect(theirs.getByTestId('header-name')).toHaveText(user.fullname);
  await theirs.context().close();
});

test('the form checks username and email uniqueness as the user types', async ({ page, app }) => {
  const existing = await app.account('ADMIN');
  await signIn(page, app, 'SYSTEM_ADMIN');
  await openAccounts(page);
  await page.getByRole('button', { name: ACCOUNTS.addNew }).click();
  const dialog = page.getByRole('dialog', { name: ACCOUNTS.form.addTitle });
  const save = dialog.getByRole('button', { name: ACCOUNTS.form.save });
  await dialog.getByLabel('Full Name').fill('Emilio Jacinto');
  await dialog.getByLabel('Password', { exact: true }).fill('Kartilya#1896');

  await dialog.getByLabel('Username').fill('short');
  await dialog.getByLabel('Email').click();
  await expect(dialog.getByText(M.usernameMin)).toBeVisible();

  await dialog.getByLabel('Username').fill(existing.username.toUpperCase());
  await expect(dialog.getByTestId('username-availability')).toHaveText(M.usernameTaken);
  await dialog.getByLabel('Email').fill('not-an-email');
  await dialog.getByLabel('Full Name').click();
  await expect(dialog.getByText(M.emailInvalid)).toBeVisible();
  await dialog.getByLabel('Email').fill(existing.email);
  await expect(dialog.getByTestId('email-availability')).toHaveText(M.emailTaken);
  await expect(save).toBeDisabled();

  const tag = uniqueTag();
  await dialog.getByLabel('Username').fill(`emilio_${tag}`);
  await expect(dialog.getByTestId('username-availability')).toHaveText(M.usernameAvailable);
  await expect(save).toBeDisabled();
  await dialog.getByLabel('Email').fill(`emilio.${tag}@da.example`);
  await expect(dialog.getByTestId('email-availability')).toHaveText(M.emailAvailable);
  await expect(save).toBeEnabled();

  // When the check cannot reach the server, the form says so and Save stays off.
  await page.route('**/api/accounts/availability?**', (route) => route.abort());
  await dialog.getByLabel('Username').fill(`emilio_${tag}_x`);
  await expect(dialog.getByTestId('username-availability')).toHaveText(M.usernameUnverified);
  await expect(save).toBeDisabled();
  await page.unroute('**/api/accounts/availability?**');
  await dialog.getByLabel('Username').fill(`emilio_${tag}`);
  await expect(dialog.getByTestId('username-availability')).toHaveText(M.usernameAvailable);
  await save.click();
  await expect(page.getByText(M.created)).toBeVisible();
});

test('editing keeps the role locked and the password unless a new one is typed', async ({ page, browser, app }) => {
  const user = await app.account('ADMIN', `Diego Silang ${uniqueTag()}`);
  await signIn(page, app, 'SYSTEM_ADMIN');
  await openAccounts(page);
  await search(page, user.username);
  await rowOf(page, user.fullname).getByRole('button', { name: ACCOUNTS.actions.edit }).click();
  const dialog = page.getByRole('dialog', { name: ACCOUNTS.form.editTitle });
  await expect(dialog.getByLabel('Role')).toBeDisabled();
  await expect(dialog.getByLabel('Username')).toHaveValue(user.username);
  await expect(dialog.getByLabel('Password', { exact: true })).toHaveValue('');
  const renamed = `${user.fullname} Jr`;
  await dialog.getByLabel('Full Name').fill(renamed);
  await dialog.getByRole('button', { name: ACCOUNTS.form.save }).click();
  await expect(page.getByText(M.updated)).toBeVisible();
  await expect(rowOf(page, renamed)).toBeVisible();
  // The password was left blank: the old one still works.
  const theirs = await (await browser.newContext()).newPage();
  await loginViaUi(theirs, user.username, user.password);
  await theirs.context().close();
});

test("a new password for an admin asks for the super admin's own password first", async ({ page, browser, app }) => {
  const user = await app.account('ADMIN', `Melchora Aquino ${uniqueTag()}`);
  await signIn(page, app, 'SYSTEM_ADMIN');
  await openAccounts(page);
  await search(page, user.username);
  await rowOf(page, user.fullname).getByRole('button', { name: ACCOUNTS.actions.edit }).click();
  const dialog = page.getByRole('dialog', { name: ACCOUNTS.form.editTitle });
  await expect(dialog.getByTestId('accounts-confirm')).toHaveCount(0);
  await dialog.getByLabel('Password', { exact: true }).fill('Tandang#Sora1812');
  const confirm = dialog.getByTestId('accounts-confirm');
  await expect(confirm).toContainText(SETTINGS.confirmChange);
  await dialog.getByRole('button', { name: ACCOUNTS.form.save }).click();
  await expect(confirm.getByText(SETTINGS.currentPasswordRequired)).toBeVisible();
  await page.screenshot({ path: '.tmp/screens/accounts-confirm-change.png' });
  await confirm.getByLabel(SETTINGS.currentPassword).fill(admin.password);
  await dialog.getByRole('button', { name: ACCOUNTS.form.save }).click();
  await expect(page.getByText(M.updated)).toBeVisible();
  const theirs = await (await browser.newContext()).newPage();
  await loginViaUi(theirs, user.username, 'Tandang#Sora1812');
  await theirs.context().close();
});

test("delete asks for the full name; an account with activities offers Restrict instead; one's own row has neither", async ({
  page,
  app,
}) => {
  const plain = await app.account('ADMIN', `Gregorio del Pilar ${uniqueTag()}`);
  const busy = await app.account('ADMIN', `Antonio Luna ${uniqueTag()}`);
  await giveActivity(app, busy);
  await signIn(page, app, 'SYSTEM_ADMIN');
  await openAccounts(page);

  const own = rowOf(page, admin.fullname);
  await expect(own.getByRole('button', { name: ACCOUNTS.actions.edit })).toBeVisible();
  await expect(own.getByRole('button', { name: ACCOUNTS.actions.restrict })).toHaveCount(0);
  await expect(own.getByRole('button', { name: ACCOUNTS.actions.delete })).toHaveCount(0);

  await search(page, busy.username);
  await rowOf(page, busy.fullname).getByRole('button', { name: ACCOUNTS.actions.delete }).click();
  const refusal = page.getByRole('dialog', { name: ACCOUNTS.confirm.deleteTitle });
  await expect(refusal).toContainText(M.cannotDeleteHasActivities);
  await refusal.getByRole('button', { name: ACCOUNTS.confirm.restrictInstead }).click();
  const confirmRestrict = page.getByRole('dialog', { name: ACCOUNTS.confirm.restrictTitle });
  await confirmRestrict.getByRole('textbox').fill(busy.fullname);
  await confirmRestrict.getByRole('button', { name: ACCOUNTS.confirm.restrictLabel }).click();
  await expect(rowOf(page, busy.fullname).getByText(ACCOUNTS.status.restricted)).toBeVisible();

  await search(page, plain.username);
  await rowOf(page, plain.fullname).getByRole('button', { name: ACCOUNTS.actions.delete }).click();
  const confirmDelete = page.getByRole('dialog', { name: ACCOUNTS.confirm.deleteTitle });
  await confirmDelete.getByRole('textbox').fill(plain.fullname.toUpperCase());
  await expect(confirmDelete.getByRole('button', { name: ACCOUNTS.confirm.deleteLabel })).toBeDisabled();
  await confirmDelete.getByRole('textbox').fill(plain.fullname);
  await confirmDelete.getByRole('button', { name: ACCOUNTS.confirm.deleteLabel }).click();
  await expect(page.getByText(M.deleted)).toBeVisible();
  await expect(page.getByText(ACCOUNTS.empty)).toBeVisible();
});

test('a super admin invites an admin, who sets a password from the link shown once and signs in; axe at 1280 and 360 px', async ({
  page,
  browser,
  app,
}) => {
  const I = ACCOUNTS.invite;
  const tag = uniqueTag();
  const person = { fullname: `Teresa Magbanua ${tag}`, email: `teresa.${tag}@da.example`, username: `teresa_${tag}` };
  await signIn(page, app, 'SYSTEM_ADMIN');
  await openAccounts(page);
  await page.getByRole('button', { name: ACCOUNTS.addNew }).click();
  const dialog = page.getByRole('dialog', { name: ACCOUNTS.form.addTitle });
  await dialog.getByLabel('Full Name').fill(person.fullname);
  await dialog.getByLabel('Email').fill(person.email);
  await dialog.getByLabel('Username').fill(person.username);
  // The typed password is the first way; the invitation replaces the password field.
  await expect(dialog.getByLabel(I.typed)).toBeChecked();
  await dialog.getByLabel(I.byLink).check();
  await expect(dialog.getByLabel('Password', { exact: true })).toHaveCount(0);

  // The chosen role's abilities, from the role table.
  const abilities = dialog.getByTestId('role-abilities');
  await expect(abilities).toContainText(I.abilitiesTitle('admin'));
  for (const line of roleAbilities('ADMIN').can) await expect(abilities).toContainText(line);
  await expect(abilities).toContainText(I.cannotTitle);
  await dialog.getByLabel('Role').selectOption('SYSTEM_ADMIN');
  await expect(abilities).toContainText(I.abilitiesTitle('super admin'));
  for (const line of roleAbilities('SYSTEM_ADMIN').can) await expect(abilities).toContainText(line);
  await expect(abilities).not.toContainText(I.cannotTitle);
  await dialog.getByLabel('Role').selectOption('ADMIN');
  await expect(dialog.getByTestId('username-availability')).toHaveText(M.usernameAvailable);
  await expect(dialog.getByTestId('email-availability')).toHaveText(M.emailAvailable);

  for (const [width, height] of [
    [1280, 900],
    [360, 740],
  ] as const) {
    await page.setViewportSize({ width, height });
    await dialog.getByLabel(I.byLink).scrollIntoViewIfNeeded();
    expect(await axeViolations(page, `add admin by invitation at ${width} px`, '[role="dialog"]')).toEqual([]);
    await page.screenshot({ path: `.tmp/screens/accounts-invite-form-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  await dialog.getByRole('button', { name: I.submit }).click();
  const shown = page.getByRole('dialog', { name: I.linkTitle });
  await expect(shown).toBeVisible();
  const link = await shown.getByLabel(I.linkLabel).inputValue();
  expect(link).toMatch(/\/invitation#token=[\w%-]{40,}$/);
  expect(await axeViolations(page, 'invitation link shown', '[role="dialog"]')).toEqual([]);
  await page.screenshot({ path: '.tmp/screens/accounts-invite-link-1280.png' });
  await shown.getByRole('button', { name: I.done }).click();
  await expect(shown).toBeHidden();
  const row = rowOf(page, person.fullname);
  await expect(row).toContainText(person.username);
  await expect(row.getByTestId('account-no-password')).toHaveText(ACCOUNTS.noPasswordBadge);

  // The link went astray: a new one, and the first stops working.
  await row.getByRole('button', { name: ACCOUNTS.actionOn(ACCOUNTS.actions.reinvite, person.fullname) }).click();
  const renew = page.getByRole('dialog', { name: I.resendTitle });
  await expect(renew).toContainText(I.resendBody(person.fullname));
  expect(await axeViolations(page, 'new invitation link', '[role="dialog"]')).toEqual([]);
  await renew.getByRole('button', { name: I.resendSubmit }).click();
  const shownAgain = page.getByRole('dialog', { name: I.linkTitle });
  const link2 = await shownAgain.getByLabel(I.linkLabel).inputValue();
  expect(link2).not.toBe(link);
  await shownAgain.getByRole('button', { name: I.done }).click();

  // The invitee opens the link in a browser of their own, on a phone.
  const other = await (await browser.newContext({ viewport: { width: 360, height: 740 } })).newPage();
  const first = new URL(link);
  await other.goto(`${first.pathname}${first.hash}`);
  await expect(other.getByText(INVITATION.invalid)).toBeVisible();
  const { pathname, hash } = new URL(link2);
  await other.goto('about:blank');
  await other.goto(`${pathname}${hash}`);
  await expect(other.getByRole('heading', { name: INVITATION.title })).toBeVisible();
  await expect(other.getByText(INVITATION.intro(person.fullname, person.username))).toBeVisible();
  await other.getByLabel(INVITATION.newPassword, { exact: true }).fill('weakpass');
  await expect(other.getByTestId('password-checklist').locator('[data-met="true"]')).toHaveCount(1);
  expect(await axeViolations(other, 'invitation page at 360 px')).toEqual([]);
  await other.screenshot({ path: '.tmp/screens/invitation-page-360.png', fullPage: true });
  await other.getByLabel(INVITATION.newPassword, { exact: true }).fill('Iloilo#1898');
  await other.getByLabel(INVITATION.confirmPassword).fill('Iloilo#1898');
  await other.getByRole('button', { name: INVITATION.submit }).click();
  await expect(other.getByText(INVITATION.done)).toBeVisible();
  await other.setViewportSize({ width: 1280, height: 900 });
  expect(await axeViolations(other, 'invitation page done at 1280 px')).toEqual([]);
  await other.screenshot({ path: '.tmp/screens/invitation-page-done-1280.png' });
  await other.getByRole('link', { name: INVITATION.toLogin }).click();
  await loginViaUi(other, person.username, 'Iloilo#1898');
  await expect(other.getByTestId('header-name')).toHaveText(person.fullname);
  // The super admin's list follows: the account has a password now.
  await expect(row.getByTestId('account-no-password')).toHaveCount(0);

  // The link worked once.
  await other.goto(`${pathname}${hash}`);
  await expect(other.getByText(INVITATION.invalid)).toBeVisible();
});

test('the accounts list at 360 px: each account a card with its actions visible, named for the account; axe at 1280 and 360 px', async ({
  page,
  app,
}) => {
  const member = await app.account('ADMIN', `Gabriela Silang ${uniqueTag()}`);
  await signIn(page, app, 'SYSTEM_ADMIN');
  for (const [width, height] of [
    [1280, 900],
    [360, 740],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto('/dashboard/accounts');
    await search(page, member.username);
    const row = page.getByTestId('account-row').filter({ hasText: member.fullname });
    await expect(row).toHaveCount(1);
    for (const action of [ACCOUNTS.actions.edit, ACCOUNTS.actions.restrict, ACCOUNTS.actions.delete]) {
      const button = row.getByRole('button', { name: ACCOUNTS.actionOn(action, member.fullname), exact: true });
      await expect(button).toHaveAttribute('title', ACCOUNTS.actionOn(action, member.fullname));
      // In view as the page opens: pinned to the table's right edge on wide screens, on the card on phones.
      if (width === 360) await button.scrollIntoViewIfNeeded();
      await expect(button).toBeInViewport({ ratio: 1 });
      if (width === 360) await expect(button).toContainText(action);
    }
    const sessions = row.getByRole('button', { name: SESSIONS.viewSessionsLabel(member.fullname), exact: true });
    await expect(sessions).toBeVisible();
    if (width === 360) {
      await expect(sessions).toContainText(ACCOUNTS.actions.sessions);
      // A card: the column names stand beside the values, and nothing is wider than the screen.
      await expect(row.locator('td[data-label="Username"]')).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    }
    await row.scrollIntoViewIfNeeded();
    expect(await axeViolations(page, `accounts list at ${width} px`)).toEqual([]);
    await page.screenshot({ path: `.tmp/screens/accounts-list-${width}.png` });
  }
});
