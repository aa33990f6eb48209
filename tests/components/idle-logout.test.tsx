import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionProvider, useSession } from '../../src/lib/session';
import { AUTO_LOGOUT_REASON, rememberReturnTo, takeReturnTo } from '../../src/lib/storage';
import { IdleWarning } from '../../src/app/shell/idle-warning';
import { SHELL } from '../../common/texts';
import { SIGNED_IN_HINT_COOKIE } from '../../common/sessions';
import { holdSession, json, sessionInfo, stubServer } from './network';

const IDLE_MS = 2500;
let otherTab: BroadcastChannel;
let heard: unknown[];

beforeEach(() => {
  localStorage.clear();
  holdSession();
  // Another tab of the same browser: the same channel name, a separate object.
  otherTab = new BroadcastChannel('palayan-session');
  heard = [];
  otherTab.onmessage = (e: MessageEvent) => {
    heard.push(e.data);
  };
});
afterEach(() => {
  otherTab.close();
});

function Status() {
  const { status } = useSession();
  return <p data-testid="status">{status}</p>;
}

function renderTab(idleMs = IDLE_MS) {
  const server = stubServer({
    'GET /api/auth/session': () => json(sessionInfo('ADMIN', idleMs)),
    'POST /api/auth/logout': () => new Response(null, { status: 204 }),
    'POST /api/auth/activity': () => new Response(null, { status: 204 }),
  });
  render(
    <SessionProvider>
      <Status />
      <IdleWarning />
    </SessionProvider>,
  );
  return server;
}

const status = () => screen.getByTestId('status').textContent;
/** Moves the page's clock and timers on by `ms` at once (they also run at the real pace meanwhile). */
const pass = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

describe('idle logout across tabs', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('stays signed in while another tab is in use, then signs every tab out after the idle time', async () => {
    const server = renderTab();
    await waitFor(() => expect(status()).toBe('authenticated'));
    // Input in the other tab only, past the idle time of this one.
    for (let waited = 0; waited < IDLE_MS + 1500; waited += 700) {
      otherTab.postMessage({ type: 'activity', at: Date.now() });
      await pass(700);
    }
    expect(status()).toBe('authenticated');
    expect(server.calls.some((c) => c.url.pathname === '/api/auth/logout')).toBe(false);

    // Nobody touches anything: the idle time passes and the tab signs out, telling the others.
    await pass(IDLE_MS + 1000);
    await waitFor(() => expect(status()).toBe('anonymous'));
    expect(server.calls.filter((c) => c.method === 'POST' && c.url.pathname === '/api/auth/logout')).toHaveLength(1);
    expect(localStorage.getItem(AUTO_LOGOUT_REASON)).toBe('inactivity');
    await waitFor(() => expect(heard).toContainEqual({ type: 'logout', reason: 'inactivity' }));
  }, 20_000);

  it('input in this tab counts too, and is shared with the other tabs', async () => {
    renderTab();
    await waitFor(() => expect(status()).toBe('authenticated'));
    for (let waited = 0; waited < IDLE_MS + 1000; waited += 700) {
      fireEvent.keyDown(window, { key: 'a' });
      await pass(700);
    }
    expect(status()).toBe('authenticated');
    expect(heard.some((m) => (m as { type: string }).type === 'activity')).toBe(true);
  }, 20_000);

  it('signs out at once when another tab signs out', async () => {
    const server = renderTab();
    await waitFor(() => expect(status()).toBe('authenticated'));
    otherTab.postMessage({ type: 'logout', reason: 'inactivity' });
    await waitFor(() => expect(status()).toBe('anonymous'));
    // The other tab already ended the session on the server.
    expect(server.calls.some((c) => c.url.pathname === '/api/auth/logout')).toBe(false);
    expect(localStorage.getItem(AUTO_LOGOUT_REASON)).toBe('inactivity');
  });
});

describe('the warning before the inactivity logout', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    sessionStorage.clear();
  });
  afterEach(() => {
    vi.useRealTimers();
    window.history.replaceState(null, '', '/');
  });
  // Half the idle time when it is shorter than two minutes: the warning comes after 5 s.
  const LONGER_IDLE_MS = 10_000;

  it('comes before the logout with the seconds left, and "Stay signed in" starts the timer again here and on the server', async () => {
    const server = renderTab(LONGER_IDLE_MS);
    await waitFor(() => expect(status()).toBe('authenticated'));
    await pass(3000);
    expect(screen.queryByRole('dialog', { name: SHELL.idleWarning.title })).toBeNull();
    await pass(3000);
    const warning = await screen.findByRole('dialog', { name: SHELL.idleWarning.title });
    expect(warning.textContent).toMatch(/logged out in [1-5] seconds? due to inactivity/);
    const beats = () => server.calls.filter((c) => c.url.pathname === '/api/auth/activity').length;
    const before = beats();
    fireEvent.click(screen.getByRole('button', { name: SHELL.idleWarning.stay }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: SHELL.idleWarning.title })).toBeNull());
    expect(beats()).toBe(before + 1);
    // Past the first deadline: still signed in.
    await pass(4500);
    expect(status()).toBe('authenticated');
  }, 30_000);

  it('keeps the page the logout left, for the same account to come back to', async () => {
    window.history.replaceState(null, '', '/dashboard/rice_varieties?sort=name&tarlac=yes');
    renderTab();
    await waitFor(() => expect(status()).toBe('authenticated'));
    await pass(IDLE_MS + 1500);
    await waitFor(() => expect(status()).toBe('anonymous'));
    expect(takeReturnTo('user-1')).toBe('/dashboard/rice_varieties?sort=name&tarlac=yes');
    expect(takeReturnTo('user-1')).toBeNull();
    // Only the same account's page, and only a page of the console.
    rememberReturnTo('user-1', '/dashboard/history');
    expect(takeReturnTo('user-2')).toBeNull();
    for (const elsewhere of ['/login', '//evil.example/dashboard', '/dashboardx', 'https://evil.example/dashboard']) {
      rememberReturnTo('user-1', elsewhere);
      expect(takeReturnTo('user-1'), elsewhere).toBeNull();
    }
  }, 30_000);
});

describe('the first visit', () => {
  it('asks the server nothing when this browser holds no session (no 401 on the login page)', async () => {
    document.cookie = `${SIGNED_IN_HINT_COOKIE}=; Max-Age=0; path=/`;
    const server = renderTab();
    expect(status()).toBe('anonymous');
    // Whatever the first render started has settled: a microtask turn, then a macrotask.
    await act(() => new Promise<void>((r) => setTimeout(r, 0)));
    expect(server.calls).toEqual([]);
  });

  it('asks when it may hold one, and forgets the hint when the server no longer knows the session', async () => {
    const server = stubServer({
      'GET /api/auth/session': () => json({ error: { code: 'UNAUTHENTICATED', message: 'Please log in.', reason: 'session_ended' } }, 401),
    });
    render(
      <SessionProvider>
        <Status />
      </SessionProvider>,
    );
    expect(status()).toBe('loading');
    await waitFor(() => expect(status()).toBe('anonymous'));
    expect(server.calls.map((c) => c.url.pathname)).toContain('/api/auth/session');
    expect(document.cookie).not.toContain(SIGNED_IN_HINT_COOKIE);
  });
});
