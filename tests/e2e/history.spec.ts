import fs from 'node:fs';
import { AUDIT_TRAIL } from '../../common/audit-trail';
import { HISTORY } from '../../common/history';
import { VARIETY_LABELS } from '../../common/varieties';
import { E2E } from '../../playwright.config';
import { expect, test, type E2EServer } from './fixtures';
import { importAuditEntries, signIn } from './support';

const admin = E2E.admin;

interface Entry {
  userId?: string | null;
  userName?: string | null;
  timestamp: string;
  action: string;
  collection: string;
  documentName?: string | null;
  name?: string | null;
  description?: string | null;
  changes?: unknown;
  actorId?: string | null;
}

function insertEntries(app: E2EServer, entries: Entry[]): Promise<void> {
  return importAuditEntries(
    app,
    entries.map((e) => ({ ...e })),
  );
}

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
const tag = () => `zq${Date.now().toString(36)}`;

test('filters live in the URL, combine, survive a reload, and an entry opens as a field-by-field difference', async ({ page, app }) => {
  const t = tag();
  await insertEntries(app, [
    {
      userId: 'e2e-ramon',
      userName: 'Ramon Garcia',
      timestamp: minutesAgo(5),
      action: 'UPDATE',
      collection: 'rice_seed_varieties',
      documentName: `NSIC Rc 222 ${t}`,
      description: 'Updated rice variety',
      changes: {
        before: { averageYield: 5.1, location: 'Capas', season: ['Dry'] },
        after: { averageYield: 5.4, location: 'Capas', season: ['Dry', 'Wet'] },
      },
    },
    {
      userId: 'e2e-ramon',
      userName: 'Ramon Garcia',
      timestamp: minutesAgo(90),
      action: 'CREATE',
      collection: 'rice_local_pests',
      documentName: `Rice black bug ${t}`,
      description: 'Created pest',
    },
    {
      userId: 'e2e-joy',
      userName: 'Joy Castillo',
      timestamp: minutesAgo(3 * 60),
      action: 'DELETE',
      collection: 'rice_local_diseases',
      documentName: `Rice blast ${t}`,
      description: 'Deleted disease',
    },
    {
      actorId: 'e2e-ramon',
      timestamp: 'imported-without-date',
      action: 'UPDATE',
      collection: 'rice_seed_varieties',
      name: `Old import ${t}`,
      description: 'Imported entry',
    },
  ]);
  await signIn(page, app, 'SYSTEM_ADMIN');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'History Logs' }).click();
  await expect(page).toHaveURL(/\/dashboard\/history_logs$/);
  await expect(page.getByRole('heading', { name: HISTORY.title })).toBeVisible();

  await page.getByPlaceholder(HISTORY.searchPlaceholder).fill(t);
  const rows = page.getByTestId('history-row');
  await expect(rows).toHaveCount(4);
  await expect(page).toHaveURL(new RegExp(`q=${t}`));
  await expect(page.getByTestId('history-count')).toHaveText('4 entries');

  await page.getByLabel(HISTORY.filters.action).selectOption('UPDATE');
  await expect(rows).toHaveCount(2);
  await page.getByLabel(HISTORY.filters.collection).selectOption('rice_seed_varieties');
  await expect(rows).toHaveCount(2);
  await expect(page).toHaveURL(/action=UPDATE/);
  await expect(page).toHaveURL(/collection=rice_seed_varieties/);
  // The older entry names the document in `name` and the user only by actorId (no such
  // account here, so the id shows); its timestamp is not a date, so it sorts by its text.
  await expect(rows.nth(0)).toContainText(`Old import ${t}`);
  await expect(rows.nth(0)).toContainText('e2e-ramon');
  await expect(rows.nth(0).locator('time')).toHaveText(HISTORY.invalidRelative);
  await expect(rows.nth(0).locator('time')).toHaveAttribute('title', HISTORY.invalidDate);
  await expect(rows.nth(1)).toContainText(`NSIC Rc 222 ${t}`);
  await expect(rows.nth(1)).toContainText('Rice Varieties');
  await expect(rows.nth(1)).toContainText('5m');

  // The view is a bookmark: a reload shows the same filters and rows.
  await page.reload();
  await expect(page.getByLabel(HISTORY.filters.action)).toHaveValue('UPDATE');
  await expect(page.getByLabel(HISTORY.filters.collection)).toHaveValue('rice_seed_varieties');
  await expect(page.getByPlaceholder(HISTORY.searchPlaceholder)).toHaveValue(t);
  await expect(rows).toHaveCount(2);

  // The full date on hover is in Manila time.
  await expect(rows.nth(1).locator('time')).toHaveAttribute('title', /\(PHT\)$/);

  await rows.nth(1).click();
  const dialog = page.getByRole('dialog', { name: HISTORY.details });
  await expect(dialog).toContainText('Ramon Garcia');
  const changes = dialog.getByRole('table', { name: HISTORY.changesHeading });
  // Fields by the form's labels, not their stored names.
  await expect(changes.getByRole('row', { name: new RegExp(VARIETY_LABELS.averageYield) })).toContainText('5.1');
  await expect(changes.getByRole('row', { name: new RegExp(VARIETY_LABELS.averageYield) })).toContainText('5.4');
  await expect(changes.getByRole('row', { name: new RegExp(VARIETY_LABELS.season) })).toContainText('Dry, Wet');
  await expect(changes.getByRole('row', { name: new RegExp(VARIETY_LABELS.location) })).toHaveCount(0);
  await expect(changes).not.toContainText('averageYield');
  await dialog.getByText(/Unchanged fields \(1\)/).click();
  await expect(dialog.getByRole('table', { name: HISTORY.unchanged })).toContainText('Capas');
  await dialog.getByRole('button', { name: HISTORY.close }).first().click();
  await expect(dialog).toBeHidden();

  // A custom range asks for a date first: a step to take, not an error.
  await page.getByLabel(HISTORY.filters.date, { exact: true }).selectOption('custom');
  await expect(page.getByText(HISTORY.chooseDates)).toBeVisible();
  await expect(page.getByRole('table').getByRole('alert')).toHaveCount(0);
  await page.getByLabel(HISTORY.filters.date, { exact: true }).selectOption('today');
  await page.getByLabel(HISTORY.filters.action).selectOption('DELETE');
  await expect(page.getByText(HISTORY.empty)).toBeVisible();
  await page.getByRole('button', { name: HISTORY.clearFilters }).click();
  await expect(page).toHaveURL(/\/dashboard\/history_logs$/);
});

test('export downloads the current filter as history-logs-{date}.csv with safe cells', async ({ page, app }) => {
  const t = tag();
  await insertEntries(app, [
    {
      userName: 'Grace Aquino',
      userId: 'e2e-grace',
      timestamp: minutesAgo(2),
      action: 'UPDATE',
      collection: 'rice_local_pests',
      documentName: `Armyworm ${t}`,
      description: '=HYPERLINK("http://example.test")',
    },
    {
      userName: 'Grace Aquino',
      userId: 'e2e-grace',
      timestamp: minutesAgo(4),
      action: 'UPDATE',
      collection: 'rice_seed_varieties',
      documentName: `NSIC Rc 160 ${t}`,
      description: 'Yield, "average" changed',
    },
    {
      userName: 'Grace Aquino',
      userId: 'e2e-grace',
      timestamp: minutesAgo(6),
      action: 'CREATE',
      collection: 'rice_seed_varieties',
      documentName: `Not exported ${t}`,
      description: 'x',
    },
  ]);
  await signIn(page, app, 'SYSTEM_ADMIN');
  await page.goto(`/dashboard/history_logs?action=UPDATE&q=${t}`);
  await expect(page.getByTestId('history-row')).toHaveCount(2);
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: HISTORY.export }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^history-logs-\d{4}-\d{2}-\d{2}\.csv$/);
  const file = await download.path();
  const text = fs.readFileSync(file!, 'utf8').replace(/^\ufeff/, '');
  const lines = text.trim().split('\r\n');
  expect(lines[0]).toBe('Timestamp,User,Action,Collection,Document,Description');
  expect(lines).toHaveLength(3);
  expect(lines[1]).toContain(`Grace Aquino,UPDATE,Rice Pests,Armyworm ${t},"'=HYPERLINK(""http://example.test"")"`);
  expect(lines[2]).toContain(`Grace Aquino,UPDATE,Rice Varieties,NSIC Rc 160 ${t},"Yield, ""average"" changed"`);
  expect(text).not.toContain('Not exported');
  await expect(page.getByRole('button', { name: HISTORY.export })).toBeEnabled();
});

test('a new entry appears at the top while the list is open', async ({ page, app }) => {
  const t = tag();
  await signIn(page, app, 'SYSTEM_ADMIN');
  await page.goto(`/dashboard/history_logs?q=${t}`);
  await expect(page.getByText(HISTORY.empty)).toBeVisible();
  // Someone adds an option in File Maintenance: the write's change event refreshes this list.
  const res = await page.request.post('/api/maintenance/documents/rice_varieties_enums/lists/seasons', { data: { value: `Ratoon ${t}` } });
  expect(res.ok()).toBe(true);
  const rows = page.getByTestId('history-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(admin.fullname);
  await expect(rows.first()).toContainText(`Ratoon ${t}`);
});

test('an ADMIN sees only their own entries and no security actions', async ({ page, app }) => {
  const plain = await app.account('ADMIN');
  const t = tag();
  const { id } = plain;
  await insertEntries(app, [
    {
      userId: id,
      userName: plain.fullname,
      timestamp: minutesAgo(1),
      action: 'CREATE',
      collection: 'rice_local_pests',
      documentName: `Mine ${t}`,
    },
    {
      userId: id,
      userName: plain.fullname,
      timestamp: minutesAgo(2),
      action: 'LOGIN',
      collection: 'accounts',
      documentName: `Blocked ${t}`,
    },
    {
      userId: 'someone-else',
      userName: 'Someone Else',
      timestamp: minutesAgo(3),
      action: 'CREATE',
      collection: 'rice_local_pests',
      documentName: `Theirs ${t}`,
    },
  ]);
  await signIn(page, app, plain, `/dashboard/history_logs?q=${t}`);
  const rows = page.getByTestId('history-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(`Mine ${t}`);
  await expect(page.getByLabel(HISTORY.filters.user)).toHaveCount(0);
  await expect(page.getByLabel(HISTORY.filters.action).locator('option', { hasText: 'LOGIN' })).toHaveCount(0);
});

test('a super admin verifies the audit trail from History and writes an anchor; an ADMIN sees no such panel', async ({ page, app }) => {
  await insertEntries(app, [
    {
      userName: 'Legacy User',
      timestamp: minutesAgo(30),
      action: 'UPDATE',
      collection: 'rice_seed_varieties',
      documentName: `Chained ${tag()}`,
    },
  ]);
  await signIn(page, app, 'SYSTEM_ADMIN');
  await page.goto('/dashboard/history_logs');
  const panel = page.getByTestId('integrity-panel');
  await expect(panel.getByRole('heading', { name: AUDIT_TRAIL.heading })).toBeVisible();
  await panel.getByRole('button', { name: AUDIT_TRAIL.verifyNow }).click();
  const status = page.getByTestId('integrity-status');
  // The check runs in the background over every entry the e2e files wrote: on a loaded machine it takes a while.
  await expect(status).toContainText(/Verified .*: all [\d,]+ entries are intact and in order\./, { timeout: 60_000 });
  await panel.getByRole('button', { name: AUDIT_TRAIL.anchorNow }).click();
  await expect(page.getByText(/Checkpoint saved: the history up to entry #[\d,]+ is sealed\./)).toBeVisible();
  await expect(panel).toContainText(/last checkpoint .* at #[\d,]+/);
  await page.screenshot({ path: '.tmp/screenshots/history-integrity.png', fullPage: false });

  const plain = await app.account('ADMIN');
  await page.context().clearCookies();
  await signIn(page, app, plain, '/dashboard/history_logs');
  await expect(page.getByRole('table', { name: HISTORY.title })).toBeVisible();
  await expect(page.getByTestId('integrity-panel')).toHaveCount(0);
});
