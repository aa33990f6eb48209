import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { HISTORY } from '../../common/history';
import type { AuditTrailStatus } from '../../common/schemas/audit-trail';
import type { HistoryCount, HistoryPage as HistoryPageData, HistoryUsers } from '../../common/schemas/history';
import { ToastProvider } from '../../src/components/ui/toast';
import { HistoryPage } from '../../src/features/history/history-page';
import { SessionProvider } from '../../src/lib/session';
import { holdSession, json, sessionInfo, stubServer } from './network';

function Where() {
  const location = useLocation();
  return <output data-testid="location">{location.search}</output>;
}

/** The History screen as the app mounts it, at `search`, with the server stubbed. */
function renderHistory(search: string, role: 'SYSTEM_ADMIN' | 'ADMIN' = 'SYSTEM_ADMIN') {
  holdSession();
  const server = stubServer({
    'GET /api/auth/session': () => json(sessionInfo(role)),
    'GET /api/history': () => json({ items: [], nextCursor: null } satisfies HistoryPageData),
    'GET /api/history/count': () => json({ count: 0, exact: true } satisfies HistoryCount),
    'GET /api/history/users': () => json({ items: [{ id: 'u-7', name: 'Andres Bonifacio' }] } satisfies HistoryUsers),
    'GET /api/audit-trail': () =>
      json({
        head: { index: 0, hash: '0'.repeat(64), baseIndex: 0, entries: 0 },
        last: null,
        lastAnchor: null,
        retentionDays: null,
        archives: [],
      } satisfies AuditTrailStatus),
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <SessionProvider>
        <ToastProvider>
          <MemoryRouter initialEntries={[`/dashboard/history_logs${search}`]}>
            <Routes>
              <Route
                path="/dashboard/history_logs"
                element={
                  <>
                    <HistoryPage />
                    <Where />
                  </>
                }
              />
            </Routes>
          </MemoryRouter>
        </ToastProvider>
      </SessionProvider>
    </QueryClientProvider>,
  );
  const listQueries = () =>
    server.calls.filter((c) => c.url.pathname === '/api/history').map((c) => Object.fromEntries(c.url.searchParams));
  return { server, listQueries };
}

describe('History filters from the address bar', () => {
  it('reads every valid filter into the controls and the list query', async () => {
    const { listQueries } = renderHistory(
      '?range=custom&from=2026-01-05&to=2026-01-31&action=UPDATE&collection=rice_local_pests&user=u-7&q=blast',
    );
    await waitFor(() => expect(listQueries()).toHaveLength(1));
    expect(listQueries()[0]).toEqual({
      range: 'custom',
      from: '2026-01-05',
      to: '2026-01-31',
      action: 'UPDATE',
      collection: 'rice_local_pests',
      user: 'u-7',
      q: 'blast',
      limit: '50',
    });
    expect((screen.getByLabelText(HISTORY.filters.date) as HTMLSelectElement).value).toBe('custom');
    expect((screen.getByLabelText(HISTORY.filters.from) as HTMLInputElement).value).toBe('2026-01-05');
    expect((screen.getByLabelText(HISTORY.filters.to) as HTMLInputElement).value).toBe('2026-01-31');
    expect((screen.getByLabelText(HISTORY.filters.action) as HTMLSelectElement).value).toBe('UPDATE');
    expect((screen.getByLabelText(HISTORY.filters.collection) as HTMLSelectElement).value).toBe('rice_local_pests');
    await waitFor(() => expect((screen.getByLabelText(HISTORY.filters.user) as HTMLSelectElement).value).toBe('u-7'));
  });

  it('leaves out what is not valid instead of failing, and keeps the rest', async () => {
    const { listQueries } = renderHistory('?range=someday&action=EXPLODE&collection=rice_local_pests&from=2026-13-45&q=%20%20');
    await waitFor(() => expect(listQueries()).toHaveLength(1));
    // An unknown range falls back to all time; a blank search is no search.
    expect(listQueries()[0]).toEqual({ collection: 'rice_local_pests', limit: '50' });
    expect((screen.getByLabelText(HISTORY.filters.date) as HTMLSelectElement).value).toBe('all');
    expect((screen.getByLabelText(HISTORY.filters.action) as HTMLSelectElement).value).toBe('');
    expect(screen.queryByLabelText(HISTORY.filters.from)).toBeNull();
  });

  it('Clear filters empties the address bar and asks for everything', async () => {
    const { listQueries } = renderHistory('?action=DELETE');
    await waitFor(() => expect(listQueries()).toHaveLength(1));
    screen.getByRole('button', { name: HISTORY.clearFilters }).click();
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe(''));
    await waitFor(() => expect(listQueries().at(-1)).toEqual({ limit: '50' }));
  });
});
