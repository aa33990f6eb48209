import crypto from 'node:crypto';
import fs from 'node:fs';
import { DATASET_TEXTS } from '../../common/dataset';
import { IMPORT_TEXTS } from '../../common/spreadsheets';
import type { Locator, Page } from '@playwright/test';
import sharp from 'sharp';
import { ACCOUNTS } from '../../common/accounts';
import { CATALOG_KINDS } from '../../common/catalog';
import { CATALOG_LABELS } from '../../common/catalog-texts';
import { MAINTENANCE } from '../../common/maintenance';
import { CROP, RECOVERY, SETTINGS } from '../../common/profile';
import { DASHBOARD, LOGIN, SHELL } from '../../common/texts';
import { VARIETIES } from '../../common/varieties';
import { E2E } from '../../playwright.config';
import { animationsSettled, axeViolations } from './axe';
import { expect, test, type E2EAccount, type E2EServer } from './fixtures';
import { importExport, signIn } from './support';

/**
 * Everyone can use the console: axe on every screen and dialog (any violation fails), a variety
 * added and an account restricted with the keyboard alone, and every screen at 360 px wide
 * (no sideways page scroll, main action visible; screenshots in .tmp/screens to look at).
 */
test.describe.configure({ mode: 'serial' });

const admin = E2E.admin;
const tag = Date.now().toString(36);
const varietyName = `NSIC Rc ${tag}`;
const savedVariety = `PSB Rc ${tag}`;

const entryNames = { pest: `Whorl maggot ${tag}`, disease: `Leaf smut ${tag}` } as const;
const entryIds = { pest: crypto.randomUUID(), disease: crypto.randomUUID() } as const;

/**
 * The file's fixtures, made by its first test on its server: a staff member to restrict, a saved
 * variety, and a pest and a disease with a photo each, so their view, edit and delete dialogs can be opened (a
 * new disease needs 800 photos through the form; the import takes existing records).
 */
let fixtures: Promise<{ member: E2EAccount }> | null = null;
function setUp(app: E2EServer) {
  fixtures ??= (async () => {
    fs.mkdirSync('.tmp/screens', { recursive: true });
    const member = await app.account('ADMIN', `Gabriela Silang ${tag}`);
    const variety = await (
      await app.fixtureApi()
    ).post('/api/varieties', {
      data: {
        varietyName: savedVariety,
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
        season: ['Dry'],
        environment: ['Low Irrigated Land'],
      },
    });
    expect(variety.status(), await variety.text()).toBe(201);
    const leaf = await sharp({ create: { width: 96, height: 64, channels: 3, background: { r: 60, g: 140, b: 70 } } })
      .jpeg()
      .toBuffer();
    const entry = (id: string, name: string) => ({
      [id]: {
        name,
        scientificName: 'Hydrellia philippina',
        description: 'Its larvae feed on the leaves.',
        createdAt: new Date().toISOString(),
        images: ['{{files}}/leaf.jpg'],
      },
    });
    await importExport(
      app,
      { rice_local_pests: entry(entryIds.pest, entryNames.pest), rice_local_diseases: entry(entryIds.disease, entryNames.disease) },
      { 'leaf.jpg': leaf },
    );
    return { member };
  })();
  return fixtures;
}

/** Presses Tab until `target` has the focus (keyboard only: no clicks, no .focus()). */
async function tabTo(page: Page, target: Locator, max = 80) {
  for (let i = 0; i < max; i += 1) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target}`);
}

async function type(page: Page, field: Locator, text: string) {
  await tabTo(page, field);
  await page.keyboard.type(text);
}

test('with the keyboard alone: sign in, add a variety, restrict an account', async ({ page, app }) => {
  test.setTimeout(120_000);
  const { member } = await setUp(app);
  // A super admin of its own: signing in here ends no other test's session.
  const operator = await app.account('SYSTEM_ADMIN');
  await page.goto('/login');
  await type(page, page.getByLabel(LOGIN.usernameLabel), operator.username);
  await type(page, page.getByLabel(LOGIN.passwordLabel, { exact: true }), operator.password);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 15_000 });

  // To Rice Varieties through the sidebar link.
  await tabTo(page, page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: SHELL.nav.varieties }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: VARIETIES.title })).toBeVisible();
  await tabTo(page, page.getByRole('button', { name: VARIETIES.addNew }));
  await page.keyboard.press('Enter');
  const form = page.getByRole('dialog', { name: VARIETIES.form.addTitle });
  await expect(form).toBeVisible();
  await type(page, form.getByLabel('Variety name'), varietyName);
  await type(page, form.getByLabel('Release name'), 'Keyboard 1');
  await tabTo(page, form.getByLabel('Year release'));
  await page.keyboard.press('ArrowDown');
  await type(page, form.getByLabel('Breeding code'), 'PR-KB-1');
  await type(page, form.getByLabel('Breeder origin'), 'PhilRice');
  await type(page, form.getByLabel('Maturity days'), '112');
  await type(page, form.getByLabel('Plant height (cm)'), '101');
  await type(page, form.getByLabel('Average yield (t/ha)'), '5.6');
  await type(page, form.getByLabel('Maximum yield (t/ha)'), '9');
  await type(page, form.getByLabel('Number of tillers'), '17');
  await tabTo(page, form.getByLabel('Planting method'));
  await page.keyboard.press('ArrowDown');
  await tabTo(page, form.getByRole('group', { name: 'Season' }).getByLabel('Wet'));
  await page.keyboard.press('Space');
  await tabTo(page, form.getByRole('group', { name: 'Environment' }).getByLabel('Rainfed Lowland'));
  await page.keyboard.press('Space');
  await type(page, form.getByLabel('Location'), 'Camiling');
  await tabTo(page, form.getByRole('button', { name: VARIETIES.form.save }));
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: VARIETIES.confirmSave.title });
  await tabTo(page, confirm.getByRole('button', { name: VARIETIES.confirmSave.confirm }));
  await page.keyboard.press('Enter');
  const result = page.getByRole('dialog', { name: VARIETIES.result.savedTitle });
  await expect(result).toContainText(VARIETIES.result.saved(varietyName));
  await page.keyboard.press('Enter'); // OK has the focus
  await expect(result).toBeHidden();
  await expect(page.getByRole('row').filter({ hasText: varietyName })).toBeVisible();

  // Accounts: find the member, restrict by typing the name.
  await tabTo(page, page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: SHELL.nav.accounts }));
  await page.keyboard.press('Enter');
  await type(page, page.getByRole('searchbox', { name: ACCOUNTS.searchLabel }), member.username);
  const row = page.getByRole('row').filter({ hasText: member.fullname });
  await expect(row).toHaveCount(1);
  await tabTo(page, row.getByRole('button', { name: ACCOUNTS.actions.restrict }));
  await page.keyboard.press('Enter');
  const restrict = page.getByRole('dialog', { name: ACCOUNTS.confirm.restrictTitle });
  await type(page, restrict.getByRole('textbox'), member.fullname);
  await tabTo(page, restrict.getByRole('button', { name: ACCOUNTS.confirm.restrictLabel }));
  await page.keyboard.press('Enter');
  await expect(row.getByText(ACCOUNTS.status.restricted)).toBeVisible();
});

/** axe on the page as it is, and on the dialogs opened from it; what it finds is collected, then asserted once. */
function axeChecker(page: Page) {
  const found: string[] = [];
  async function axe(what: string) {
    found.push(...(await axeViolations(page, what)));
  }
  async function dialogOf(name: string | RegExp, what: string, close: 'Escape' | Locator = 'Escape') {
    const dialog = page.getByRole('dialog', { name });
    await expect(dialog).toBeVisible();
    await axe(what);
    if (close === 'Escape') await page.keyboard.press('Escape');
    else await close.click();
    await expect(dialog).toBeHidden();
  }
  const nav = (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
  return { found, axe, dialogOf, nav };
}

type AxeSteps = (page: Page, checker: ReturnType<typeof axeChecker>, app: E2EServer) => Promise<void>;

/** A group of screens and dialogs checked by axe: each group has its own time, so a busy machine slows one, not all. */
function axeTest(title: string, as: 'signed out' | 'SYSTEM_ADMIN', steps: AxeSteps) {
  test(`axe finds no violation: ${title}`, async ({ page, app }) => {
    test.setTimeout(150_000);
    await setUp(app);
    const checker = axeChecker(page);
    if (as === 'SYSTEM_ADMIN') await signIn(page, app, as);
    await steps(page, checker, app);
    expect(checker.found, checker.found.join('\n')).toEqual([]);
  });
}

axeTest('sign-in screen', 'signed out', async (page, { axe, dialogOf }) => {
  await page.goto('/login');
  await expect(page.getByRole('button', { name: LOGIN.submit })).toBeVisible();
  await axe('login');
  await page.getByRole('button', { name: LOGIN.forgotPassword }).click();
  await dialogOf(RECOVERY.title, 'forgot password');
});

axeTest('dashboard, rice varieties and import', 'SYSTEM_ADMIN', async (page, { axe, dialogOf, nav }) => {
  // The account button's name is what it shows.
  await expect(page.getByRole('button', { name: new RegExp(`^${admin.fullname}`) })).toBeVisible();
  await expect(page.getByTestId('content-chart')).toBeVisible();
  await page.getByText(DASHBOARD.content.showNumbers).click();
  await expect(page.getByTestId('content-weekly').getByRole('row')).toHaveCount(13);
  await page.screenshot({ path: '.tmp/screens/desktop-dashboard.png', fullPage: true });
  await axe('dashboard');

  await nav(SHELL.nav.varieties);
  await expect(page.getByRole('row').filter({ hasText: savedVariety })).toBeVisible();
  await axe('rice varieties');
  await page.getByRole('button', { name: VARIETIES.addNew }).click();
  await dialogOf(VARIETIES.form.addTitle, 'add variety');
  const vrow = page.getByRole('row').filter({ hasText: savedVariety });
  await vrow.getByRole('button', { name: new RegExp(`^${VARIETIES.actions.view} `) }).click();
  await dialogOf(VARIETIES.view.title, 'view variety');
  await vrow.getByRole('button', { name: new RegExp(`^${VARIETIES.actions.edit} `) }).click();
  await dialogOf(VARIETIES.form.editTitle, 'edit variety');
  await vrow.getByRole('button', { name: new RegExp(`^${VARIETIES.actions.delete} `) }).click();
  await dialogOf(VARIETIES.deleteDialog.title, 'delete variety');
  await page.getByRole('button', { name: IMPORT_TEXTS.open, exact: true }).click();
  await dialogOf(IMPORT_TEXTS.title, 'import varieties');
});

axeTest('pests, rice diseases and dataset health', 'SYSTEM_ADMIN', async (page, { axe, dialogOf, nav }) => {
  for (const [kind, link] of [
    [CATALOG_KINDS.pest, SHELL.nav.pests],
    [CATALOG_KINDS.disease, SHELL.nav.diseases],
  ] as const) {
    await nav(link);
    await expect(page.getByRole('heading', { name: kind.texts.title })).toBeVisible();
    await axe(kind.texts.title);
    await page.getByRole('button', { name: kind.texts.addButton }).click();
    await dialogOf(kind.texts.addTitle, `${kind.texts.title}: add`);
    const name = entryNames[kind.kind];
    const entry = page.getByRole('article', { name });
    await entry.getByRole('button', { name: `${CATALOG_LABELS.view} ${name}` }).click();
    await dialogOf(name, `${kind.texts.title}: view`);
    await entry.getByRole('button', { name: `${CATALOG_LABELS.edit} ${name}` }).click();
    await dialogOf(kind.texts.editTitle, `${kind.texts.title}: edit`);
    await entry.getByRole('button', { name: `${CATALOG_LABELS.delete} ${name}` }).click();
    await dialogOf(kind.texts.deleteTitle, `${kind.texts.title}: delete`);
  }

  await page.getByRole('link', { name: DATASET_TEXTS.link }).click();
  await expect(page.getByRole('heading', { name: DATASET_TEXTS.balance.title })).toBeVisible();
  // Every photo checked (the screen refreshes as thumbnails are made), so its flags and buttons are there.
  await expect(page.getByTestId('total-fingerprinted')).toHaveText(await page.getByTestId('total-photos').innerText());
  await expect(page.getByTestId('flagged-photo').first()).toBeVisible();
  await axe('dataset health');
});

axeTest('accounts and history logs', 'SYSTEM_ADMIN', async (page, { axe, dialogOf, nav }, app) => {
  // An active member of its own (the keyboard test restricts the file's member).
  const member = await app.account('ADMIN', `Melchora Aquino ${tag}`);
  await nav(SHELL.nav.accounts);
  await page.getByRole('searchbox', { name: ACCOUNTS.searchLabel }).fill(member.username);
  const arow = page.getByRole('row').filter({ hasText: member.fullname });
  await expect(arow).toHaveCount(1);
  await axe('accounts');
  await page.getByRole('button', { name: ACCOUNTS.addNew }).click();
  await dialogOf(ACCOUNTS.form.addTitle, 'add account');
  await arow.getByRole('button', { name: ACCOUNTS.actions.edit }).click();
  await dialogOf(ACCOUNTS.form.editTitle, 'edit account');
  await arow.getByRole('button', { name: ACCOUNTS.actions.delete }).click();
  await dialogOf(ACCOUNTS.confirm.deleteTitle, 'delete account');
  await arow.getByRole('button', { name: ACCOUNTS.actions.restrict }).click();
  await dialogOf(ACCOUNTS.confirm.restrictTitle, 'restrict account');

  await nav(SHELL.nav.history);
  const hrow = page.getByTestId('history-row').first();
  await expect(hrow).toBeVisible();
  await axe('history');
  await hrow.click();
  await dialogOf(/./, 'history entry');
});

axeTest('file maintenance, account settings and logout', 'SYSTEM_ADMIN', async (page, { axe, dialogOf, nav }) => {
  await nav(SHELL.nav.maintenance);
  await expect(page.getByRole('heading', { name: MAINTENANCE.title })).toBeVisible();
  await axe('file maintenance');
  for (const sub of ['rice_variety', 'accounts', 'rice_disease']) {
    await page.goto(`/dashboard/file_maintenance/${sub}`);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    await axe(`file maintenance: ${sub}`);
  }

  await page.getByTestId('account-menu').click();
  await page.getByRole('menuitem', { name: SHELL.accountSettings }).click();
  const settings = page.getByRole('dialog', { name: SETTINGS.title });
  await expect(settings.getByLabel(SETTINGS.fullname)).not.toHaveValue('');
  await axe('account settings');
  const photo = await sharp({ create: { width: 600, height: 400, channels: 3, background: { r: 60, g: 140, b: 60 } } })
    .jpeg()
    .toBuffer();
  await settings.getByTestId('avatar-file').setInputFiles({ name: 'me.jpg', mimeType: 'image/jpeg', buffer: photo });
  await expect(page.getByRole('dialog', { name: CROP.title }).locator('img')).toBeVisible();
  await dialogOf(CROP.title, 'crop', page.getByRole('dialog', { name: CROP.title }).getByRole('button', { name: CROP.cancel }));
  await page.keyboard.press('Escape');
  await page.getByTestId('account-menu').click();
  await page.getByRole('menuitem', { name: SHELL.logout }).click();
  await dialogOf(SHELL.logout, 'logout');
});

test('at 360 px every screen fits: no sideways scroll, main action visible, dialogs on screen', async ({ browser, app }) => {
  test.setTimeout(150_000); // every screen and dialog in turn, as the axe walks above
  await setUp(app);
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const problems: string[] = [];
  async function check(name: string, main?: Locator) {
    if (main) await main.waitFor({ state: 'visible', timeout: 10_000 }).catch(() => undefined);
    await page.waitForLoadState('networkidle');
    const { scroll, client } = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
    }));
    if (scroll > client) problems.push(`${name}: page is ${scroll} px wide in a ${client} px screen`);
    if (main && !(await main.isVisible())) problems.push(`${name}: main action not visible`);
    if (main && (await main.isVisible())) {
      const box = await main.boundingBox();
      if (box && (box.x < 0 || box.x + box.width > client)) problems.push(`${name}: main action off screen`);
    }
    await page.screenshot({ path: `.tmp/screens/phone-${name.replace(/\W+/g, '-')}.png`, fullPage: true });
  }
  async function checkDialog(name: string, dialog: Locator) {
    await expect(dialog).toBeVisible();
    await animationsSettled(page);
    const box = (await dialog.boundingBox())!;
    const vw = 360;
    const vh = 740;
    if (box.x < 0 || box.y < 0 || box.x + box.width > vw || box.y + box.height > vh)
      problems.push(
        `${name}: dialog ${Math.round(box.width)}×${Math.round(box.height)} at ${Math.round(box.x)},${Math.round(box.y)} leaves the screen`,
      );
    await page.screenshot({ path: `.tmp/screens/phone-dialog-${name.replace(/\W+/g, '-')}.png` });
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  }

  await page.goto('/login');
  await check('login', page.getByRole('button', { name: LOGIN.submit }));
  await signIn(page, app, 'SYSTEM_ADMIN');
  await expect(page.getByTestId('content-chart')).toBeVisible();
  await check('dashboard');
  // The sidebar is a slide-over behind the menu button.
  await page.getByRole('button', { name: SHELL.openMenu }).click();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: SHELL.nav.varieties })).toBeVisible();
  await page.screenshot({ path: '.tmp/screens/phone-sidebar.png' });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: SHELL.nav.varieties }).click();
  await check('rice varieties', page.getByRole('button', { name: VARIETIES.addNew }));
  await page.getByRole('button', { name: VARIETIES.addNew }).click();
  await checkDialog('add variety', page.getByRole('dialog', { name: VARIETIES.form.addTitle }));
  await page.goto('/dashboard/rice_pests');
  await check('rice pests', page.getByRole('button', { name: CATALOG_KINDS.pest.texts.addButton }));
  await page.getByRole('button', { name: CATALOG_KINDS.pest.texts.addButton }).click();
  await checkDialog('add pest', page.getByRole('dialog', { name: CATALOG_KINDS.pest.texts.addTitle }));
  await page.goto('/dashboard/rice_diseases');
  await check('rice diseases', page.getByRole('button', { name: CATALOG_KINDS.disease.texts.addButton }));
  await page.goto('/dashboard/rice_diseases/health');
  await check('dataset health', page.getByRole('heading', { name: DATASET_TEXTS.balance.title }));
  await page.goto('/dashboard/accounts');
  await check('accounts', page.getByRole('button', { name: ACCOUNTS.addNew }));
  await page.getByRole('button', { name: ACCOUNTS.addNew }).click();
  await checkDialog('add account', page.getByRole('dialog', { name: ACCOUNTS.form.addTitle }));
  await page.goto('/dashboard/history_logs');
  await check('history');
  await page.getByTestId('history-row').first().click();
  await checkDialog('history entry', page.getByRole('dialog'));
  await page.goto('/dashboard/file_maintenance');
  await check('file maintenance');
  await page.goto('/dashboard/file_maintenance/rice_variety');
  await check('file maintenance lists');
  await page.getByTestId('account-menu').click();
  await page.getByRole('menuitem', { name: SHELL.accountSettings }).click();
  await checkDialog('account settings', page.getByRole('dialog', { name: SETTINGS.title }));
  await context.close();
  expect(problems, problems.join('\n')).toEqual([]);
});
