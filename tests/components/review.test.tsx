import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { can } from '../../common/permissions';
import { REVIEW_TEXTS } from '../../common/review';
import { APP_PREVIEW, REVIEW_SCREEN } from '../../common/review-screen-texts';
import type { PendingChange, PendingChangeDetail } from '../../common/schemas/review';
import { SHELL } from '../../common/texts';
import { NAV } from '../../src/app/nav';
import { ToastProvider } from '../../src/components/ui/toast';
import { ReviewScreens } from '../../src/features/review/screens';
import { sentForReview } from '../../src/lib/review';
import { json, stubServer } from './network';

const change = (over: Partial<PendingChange> = {}): PendingChange => ({
  id: 'c-1',
  collection: 'rice_local_diseases',
  collectionLabel: 'Rice Diseases',
  action: 'update',
  recordId: 'd-1',
  recordName: 'Rice blast',
  baseVersion: 3,
  state: 'pending',
  version: 1,
  author: { id: 'u-2', name: 'Apolinario Mabini' },
  submittedAt: '2026-03-01T01:00:00.000Z',
  reviewer: null,
  reviewedAt: null,
  comment: null,
  scheduledAt: null,
  publishedAt: null,
  publishedBy: null,
  breakGlassReason: null,
  publishError: null,
  summary: null,
  ...over,
});

const blast = (treatments: string) => ({
  id: 'd-1',
  name: 'Rice blast',
  scientificName: 'Magnaporthe oryzae',
  localName: 'Lapnos',
  affectedParts: ['Leaf', 'Node'],
  description: 'A fungal disease.',
  cause: 'A fungus. Spread by wind',
  symptoms: 'Diamond-shaped lesions. Grey centres.',
  treatments,
  mainImage: { id: 'i-1', displayUrl: '/api/files/d1.jpg', thumbnailUrl: '/api/files/t1.jpg', width: 100, height: 80 },
  images: [{ id: 'i-1', displayUrl: '/api/files/d1.jpg', thumbnailUrl: '/api/files/t1.jpg', width: 100, height: 80 }],
  imageCount: 1,
  createdAt: '',
  updatedAt: null,
});

const NONE = {
  approve: false,
  reject: false,
  publish: false,
  breakGlass: false,
  withdraw: false,
  rebase: false,
  schedule: false,
  editable: false,
};

function detail(over: Partial<PendingChangeDetail> = {}, can: Partial<PendingChangeDetail['can']> = {}): PendingChangeDetail {
  return {
    change: change(),
    decided: null,
    publishedVersion: 3,
    comparison: {
      fields: [
        { key: 'name', label: 'Name', from: 'Rice blast', to: 'Rice blast', changed: false },
        { key: 'treatments', label: 'Treatments', from: 'Spray 2 g per litre.', to: 'Spray 20 g per litre.', changed: true },
      ],
      photos: { fromCount: 1, toCount: 1, added: { total: 0, items: [] }, removed: { total: 0, items: [] }, reordered: false },
    },
    preview: { published: blast('Spray 2 g per litre.'), proposed: blast('Spray 20 g per litre.') },
    importRows: null,
    importRowCount: null,
    can: { ...NONE, ...can },
    ...over,
  };
}

function renderDetail(data: PendingChangeDetail, handlers: Parameters<typeof stubServer>[0] = {}) {
  const server = stubServer({ 'GET /api/review/changes/c-1': () => json(data), ...handlers });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <ToastProvider>
        <MemoryRouter initialEntries={['/dashboard/review/c-1']}>
          <Routes>
            <Route path="/dashboard/review/*" element={<ReviewScreens />} />
          </Routes>
        </MemoryRouter>
      </ToastProvider>
    </QueryClientProvider>,
  );
  return server;
}

const decision = () => screen.getByRole('region', { name: REVIEW_SCREEN.actionsTitle });
// The dialog's code arrives when a dialog first opens (components/ui/dialog.tsx): more time on a busy machine.
const dialogNamed = (name: string) => screen.findByRole('dialog', { name }, { timeout: 5000 });

describe('Review', () => {
  it('has a sidebar entry for every staff member, named as the screen names itself', () => {
    const entry = NAV.find((e) => e.path === '/dashboard/review')!;
    expect(entry.label).toBe(REVIEW_TEXTS.title);
    expect(SHELL.nav.review).toBe(REVIEW_TEXTS.title);
    expect(can('ADMIN', entry.permission)).toBe(true);
    expect(can('SYSTEM_ADMIN', entry.permission)).toBe(true);
  });

  it('tells a save sent for review (202) from one that was applied', () => {
    const submitted = { review: change(), message: REVIEW_TEXTS.sentForReview };
    expect(sentForReview(submitted)).toBe(submitted);
    expect(sentForReview({ id: 'd-1', name: 'Rice blast', version: 4 })).toBeNull();
    expect(sentForReview(undefined)).toBeNull();
    expect(sentForReview({ review: null, message: 'x' })).toBeNull();
  });

  it('offers a reviewer what `can` allows, and sends a change back only with a comment', async () => {
    const server = renderDetail(detail({}, { approve: true, reject: true, breakGlass: true, rebase: true }), {
      'POST /api/review/changes/c-1/reject': () =>
        json(detail({ change: change({ state: 'rejected', version: 2, comment: 'Dose is per hectare.' }) })),
    });
    await screen.findByRole('heading', { name: 'Rice blast', level: 1 });
    const panel = decision();
    expect(within(panel).getByRole('button', { name: REVIEW_TEXTS.approve })).toBeTruthy();
    // Approving at a time and publishing without review wait behind "More actions".
    expect(within(panel).queryByRole('button', { name: REVIEW_TEXTS.breakGlass })).toBeNull();
    const more = within(panel).getByRole('button', { name: REVIEW_SCREEN.moreActions });
    expect(more.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(more);
    expect(more.getAttribute('aria-expanded')).toBe('true');
    expect(document.getElementById(more.getAttribute('aria-controls')!)).toBe(screen.getByTestId('danger-zone').parentElement);
    expect(within(panel).getByRole('button', { name: REVIEW_TEXTS.approveSchedule })).toBeTruthy();
    expect(within(panel).getByRole('button', { name: REVIEW_TEXTS.breakGlass })).toBeTruthy();
    expect(within(panel).queryByRole('button', { name: REVIEW_TEXTS.withdraw })).toBeNull();
    expect(within(panel).queryByRole('button', { name: REVIEW_TEXTS.publishNow })).toBeNull();
    // The record has not moved since the change was made: no rebase offered.
    expect(within(panel).queryByRole('button', { name: REVIEW_TEXTS.rebase })).toBeNull();

    fireEvent.click(within(panel).getByRole('button', { name: REVIEW_TEXTS.reject }));
    const dialog = await dialogNamed(REVIEW_TEXTS.reject);
    fireEvent.click(within(dialog).getByRole('button', { name: REVIEW_SCREEN.confirmReject }));
    expect(await within(dialog).findByText(REVIEW_TEXTS.errors.commentRequired)).toBeTruthy();
    expect(server.calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText(REVIEW_TEXTS.comment), { target: { value: 'Dose is per hectare.' } });
    fireEvent.click(within(dialog).getByRole('button', { name: REVIEW_SCREEN.confirmReject }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: REVIEW_TEXTS.reject })).toBeNull());
    expect(server.calls.find((c) => c.method === 'POST')).toMatchObject({
      url: expect.objectContaining({ pathname: '/api/review/changes/c-1/reject' }),
      body: { version: 1, comment: 'Dose is per hectare.' },
    });
    expect(await screen.findByText(REVIEW_SCREEN.done.reject)).toBeTruthy();
    expect(await screen.findByTestId('review-comment')).toHaveProperty('textContent', `${REVIEW_SCREEN.commentLabel} Dose is per hectare.`);
  });

  it('offers the author withdrawal and a new edit, never approval', async () => {
    renderDetail(
      detail({ change: change({ state: 'rejected', comment: 'Dose is per hectare.' }) }, { withdraw: true, editable: true, rebase: true }),
    );
    await screen.findByRole('heading', { name: 'Rice blast', level: 1 });
    const panel = decision();
    expect(within(panel).getByRole('button', { name: REVIEW_TEXTS.withdraw })).toBeTruthy();
    expect(within(panel).queryByRole('button', { name: REVIEW_TEXTS.approve })).toBeNull();
    expect(within(panel).queryByRole('button', { name: REVIEW_TEXTS.reject })).toBeNull();
    expect(within(panel).queryByRole('button', { name: REVIEW_TEXTS.breakGlass })).toBeNull();
    expect(within(panel).getByText(REVIEW_SCREEN.authorHelp, { exact: false })).toBeTruthy();
    expect(within(panel).getByRole('link', { name: REVIEW_SCREEN.openRecord }).getAttribute('href')).toBe(
      '/dashboard/rice_diseases?open=d-1',
    );
    expect(screen.getByText(REVIEW_TEXTS.states.rejected)).toBeTruthy();
  });

  it("shows a refused publish's message and offers the rebase when the published record moved", async () => {
    const server = renderDetail(detail({}, { approve: true, reject: true, rebase: true }), {
      'POST /api/review/changes/c-1/approve': () =>
        json({ error: { code: 'CONFLICT', message: REVIEW_TEXTS.errors.baseMoved, changeId: 'c-1', rebase: true } }, 409),
      'POST /api/review/changes/c-1/rebase': () =>
        json(detail({ change: change({ version: 2, baseVersion: 4 }), publishedVersion: 4 }, { approve: true })),
    });
    await screen.findByRole('heading', { name: 'Rice blast', level: 1 });
    fireEvent.click(within(decision()).getByRole('button', { name: REVIEW_TEXTS.approve }));
    const dialog = await dialogNamed(REVIEW_TEXTS.approve);
    fireEvent.click(within(dialog).getByRole('button', { name: REVIEW_SCREEN.confirmApprove }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(within(decision()).getByRole('alert').textContent).toBe(REVIEW_TEXTS.errors.baseMoved);
    fireEvent.click(within(screen.getByTestId('rebase-box')).getByRole('button', { name: REVIEW_TEXTS.rebase }));
    await waitFor(() => expect(server.calls.some((c) => c.url.pathname.endsWith('/rebase'))).toBe(true));
    expect(server.calls.find((c) => c.url.pathname.endsWith('/rebase'))!.body).toEqual({ version: 1 });
    expect(await screen.findByText(REVIEW_SCREEN.done.rebase)).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('rebase-box')).toBeNull());
  });

  it('schedules a publish at a Manila time, sent with its +08:00 offset', async () => {
    const server = renderDetail(detail({}, { approve: true }), {
      'POST /api/review/changes/c-1/approve': () =>
        json(detail({ change: change({ state: 'approved', version: 2, scheduledAt: '2030-01-01T00:00:00.000Z' }) }, { schedule: true })),
    });
    await screen.findByRole('heading', { name: 'Rice blast', level: 1 });
    fireEvent.click(within(decision()).getByRole('button', { name: REVIEW_SCREEN.moreActions }));
    fireEvent.click(within(decision()).getByRole('button', { name: REVIEW_TEXTS.approveSchedule }));
    const dialog = await dialogNamed(REVIEW_TEXTS.approveSchedule);
    // Manila's wall clock two days from now, as the date-time box holds it.
    const local = new Date(Date.now() + 8 * 3_600_000 + 2 * 86_400_000).toISOString().slice(0, 16);
    fireEvent.change(within(dialog).getByLabelText(REVIEW_TEXTS.publishAt), { target: { value: local } });
    fireEvent.click(within(dialog).getByRole('button', { name: REVIEW_SCREEN.confirmSchedule }));
    await waitFor(() =>
      expect(server.calls.find((c) => c.method === 'POST')?.body).toEqual({ version: 1, publishAt: `${local}:00+08:00` }),
    );
    expect(await within(decision()).findByRole('button', { name: REVIEW_TEXTS.unschedule })).toBeTruthy();
  });

  it('asks a reason of at least 10 characters before publishing without review', async () => {
    const server = renderDetail(detail({}, { breakGlass: true }), {
      'POST /api/review/changes/c-1/publish': () =>
        json(detail({ change: change({ state: 'published', breakGlassReason: 'Wrong dose, offices are calling.' }) })),
    });
    await screen.findByRole('heading', { name: 'Rice blast', level: 1 });
    fireEvent.click(within(decision()).getByRole('button', { name: REVIEW_SCREEN.moreActions }));
    fireEvent.click(within(screen.getByTestId('danger-zone')).getByRole('button', { name: REVIEW_TEXTS.breakGlass }));
    const dialog = await dialogNamed(REVIEW_TEXTS.breakGlass);
    fireEvent.change(within(dialog).getByLabelText(REVIEW_TEXTS.reason), { target: { value: 'typo' } });
    fireEvent.click(within(dialog).getByRole('button', { name: REVIEW_SCREEN.confirmBreakGlass }));
    expect(await within(dialog).findByText(REVIEW_TEXTS.errors.reasonRequired)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText(REVIEW_TEXTS.reason), { target: { value: 'Wrong dose, offices are calling.' } });
    fireEvent.click(within(dialog).getByRole('button', { name: REVIEW_SCREEN.confirmBreakGlass }));
    await waitFor(() =>
      expect(server.calls.find((c) => c.method === 'POST')?.body).toEqual({ version: 1, reason: 'Wrong dose, offices are calling.' }),
    );
    expect(await screen.findByTestId('break-glass-reason')).toBeTruthy();
  });

  it("previews the farmer app's disease screen, published beside proposed, with the changed part marked", async () => {
    renderDetail(detail());
    const published = await screen.findByRole('figure', { name: APP_PREVIEW.phone(REVIEW_TEXTS.published) });
    const proposed = screen.getByRole('figure', { name: APP_PREVIEW.phone(REVIEW_TEXTS.proposed) });
    for (const phone of [published, proposed]) {
      // The app's headings, in its order.
      const headings = within(phone)
        .getAllByRole('heading', { level: 4 })
        .map((h) => h.textContent);
      expect(headings).toEqual([
        APP_PREVIEW.description,
        APP_PREVIEW.symptoms,
        APP_PREVIEW.cause,
        APP_PREVIEW.treatments,
        APP_PREVIEW.allImages,
      ]);
      expect(within(phone).getByText(APP_PREVIEW.diseaseName)).toBeTruthy();
      expect(within(phone).getByText(APP_PREVIEW.localName).nextSibling?.textContent).toBe('Lapnos');
      expect(within(phone).getByText(APP_PREVIEW.affectedParts).nextSibling?.textContent).toBe('• Leaf\n• Node');
      // The app's bullet list: one line per sentence.
      expect(within(phone).getByText(/Diamond-shaped/).textContent).toBe('• Diamond-shaped lesions\n• Grey centres');
      expect(within(phone).getByRole('img', { name: 'Rice blast' }).getAttribute('src')).toBe('/api/files/d1.jpg');
    }
    expect(within(published).getByText('• Spray 2 g per litre')).toBeTruthy();
    expect(within(proposed).getByText('• Spray 20 g per litre')).toBeTruthy();
    const marked = proposed.querySelectorAll('[data-changed]');
    expect(marked).toHaveLength(1);
    expect(within(marked[0] as HTMLElement).getByRole('heading').textContent).toBe(APP_PREVIEW.treatments);
    expect(within(marked[0] as HTMLElement).getByText(APP_PREVIEW.changed)).toBeTruthy();
    expect(published.querySelectorAll('[data-changed]')).toHaveLength(0);
    // The comparison's table names its sides.
    const table = screen.getByRole('table', { name: REVIEW_SCREEN.comparisonTable });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Field', REVIEW_TEXTS.published, REVIEW_TEXTS.proposed]);
  });

  it('shows a new entry as not in the app yet', async () => {
    renderDetail(
      detail({
        change: change({ action: 'create', recordId: null, baseVersion: null }),
        publishedVersion: null,
        preview: { published: null, proposed: blast('Rest.') },
      }),
    );
    const published = await screen.findByRole('figure', { name: APP_PREVIEW.phone(REVIEW_TEXTS.published) });
    expect(within(published).getByText(REVIEW_TEXTS.previewNone)).toBeTruthy();
    expect(screen.getByRole('figure', { name: APP_PREVIEW.phone(REVIEW_TEXTS.proposed) }).querySelectorAll('[data-changed]')).toHaveLength(
      0,
    );
  });

  it('marks the words a field change removes and adds, not only by colour', async () => {
    renderDetail(detail());
    const table = await screen.findByRole('table', { name: REVIEW_SCREEN.comparisonTable });
    const row = within(table).getByRole('row', { name: /Treatments/ });
    const [published, proposed] = within(row).getAllByRole('cell');
    // The published side keeps its words and marks the one it loses; the proposed side, the one it gains.
    expect(published!.querySelector('del')?.textContent).toBe('2');
    expect(published!.querySelector('ins')).toBeNull();
    expect(proposed!.querySelector('ins')?.textContent).toBe('20');
    expect(proposed!.querySelector('del')).toBeNull();
    expect(published!.textContent).toBe(`Spray [${REVIEW_SCREEN.words.removed}: 2] g per litre.`);
    expect(proposed!.textContent).toBe(`Spray [${REVIEW_SCREEN.words.added}: 20] g per litre.`);
  });

  it('shows a decided change as it was decided, and says so when that was not kept', async () => {
    renderDetail(
      detail({
        change: change({ state: 'published', version: 2, publishedAt: '2026-03-02T01:00:00.000Z' }),
        decided: { decision: 'approved', at: '2026-03-02T01:00:00.000Z', kept: true },
      }),
    );
    expect(await screen.findByRole('heading', { name: REVIEW_SCREEN.decidedTitle.approved, level: 2 })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: REVIEW_SCREEN.comparisonTitle })).toBeNull();
    const table = screen.getByRole('table', { name: REVIEW_SCREEN.decidedTable });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Field', REVIEW_SCREEN.publishedThen, REVIEW_TEXTS.proposed]);
    expect(screen.getByRole('figure', { name: APP_PREVIEW.phone(REVIEW_SCREEN.publishedThen) })).toBeTruthy();
    cleanup();

    renderDetail(
      detail({
        change: change({ state: 'published', version: 2 }),
        decided: { decision: 'publishedWithoutReview', at: '2026-03-02T01:00:00.000Z', kept: false },
        comparison: null,
        preview: null,
      }),
    );
    expect(await screen.findByRole('heading', { name: REVIEW_SCREEN.decidedTitle.publishedWithoutReview })).toBeTruthy();
    expect(screen.getByText(REVIEW_SCREEN.decidedNotKept)).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('approves and opens the next change waiting, or the queue when none is left', async () => {
    const next = detail({ change: change({ id: 'c-2', recordName: 'Brown spot', recordId: 'd-2' }) }, { approve: true });
    let left: { id: string; recordName: string } | null = { id: 'c-2', recordName: 'Brown spot' };
    const server = renderDetail(detail({}, { approve: true }), {
      'POST /api/review/changes/c-1/approve': () => json(detail({ change: change({ state: 'published', version: 2 }) })),
      'POST /api/review/changes/c-2/approve': () => json(next),
      'GET /api/review/next': () => json({ next: left }),
      'GET /api/review/changes/c-2': () => json(next),
      'GET /api/review/changes': () => json({ items: [], next: null, total: 0 }),
    });
    await screen.findByRole('heading', { name: 'Rice blast', level: 1 });
    fireEvent.click(within(decision()).getByRole('button', { name: REVIEW_TEXTS.approve }));
    let dialog = await dialogNamed(REVIEW_TEXTS.approve);
    fireEvent.change(within(dialog).getByLabelText(REVIEW_SCREEN.commentOptional), { target: { value: 'Checked.' } });
    fireEvent.click(within(dialog).getByRole('button', { name: REVIEW_SCREEN.confirmApproveNext }));
    expect(await screen.findByRole('heading', { name: 'Brown spot', level: 1 })).toBeTruthy();
    expect(await screen.findByText(REVIEW_SCREEN.done.approveNext('Brown spot'))).toBeTruthy();
    expect(server.calls.find((c) => c.method === 'POST')?.body).toEqual({ version: 1, comment: 'Checked.' });
    expect(server.calls.find((c) => c.url.pathname === '/api/review/next')?.url.searchParams.get('after')).toBe('c-1');

    left = null;
    fireEvent.click(within(decision()).getByRole('button', { name: REVIEW_TEXTS.approve }));
    dialog = await dialogNamed(REVIEW_TEXTS.approve);
    fireEvent.click(within(dialog).getByRole('button', { name: REVIEW_SCREEN.confirmApproveNext }));
    expect(await screen.findByText(REVIEW_SCREEN.done.noneLeft)).toBeTruthy();
    expect(await screen.findByRole('heading', { name: REVIEW_TEXTS.title, level: 1 })).toBeTruthy();
  });
});
