import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { TIMINGS } from '../../common/limits';
import { SessionProvider, useSession } from '../../src/lib/session';
import { AUTO_LOGOUT_REASON } from '../../src/lib/storage';
import { holdSession, json, sessionInfo, stubServer } from './network';

function Tab() {
  const { status, logout } = useSession();
  return (
    <>
      <p data-testid="status">{status}</p>
      <button onClick={() => void logout()}>Logout</button>
    </>
  );
}

const ended = () => json({ error: { code: 'UNAUTHENTICATED', message: 'Please log in.', reason: 'session_ended' } }, 401);

beforeEach(() => {
  localStorage.clear();
  holdSession();
  vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

it('a session check still on its way when the user logs out does not report the session as ended', async () => {
  let answerCheck: (r: Response) => void = () => undefined;
  let signedOut = false;
  let checks = 0;
  const server = stubServer({
    'GET /api/auth/session': () => {
      checks += 1;
      if (signedOut) return ended();
      // The first read signs the tab in; the 5 s check after it is held until after the logout.
      return checks === 1
        ? json(sessionInfo('ADMIN'))
        : new Promise<Response>((resolve) => {
            answerCheck = resolve;
          });
    },
    'POST /api/auth/logout': () => {
      signedOut = true;
      return new Response(null, { status: 204 });
    },
  });
  render(
    <SessionProvider>
      <Tab />
    </SessionProvider>,
  );
  await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('authenticated'));
  await act(() => vi.advanceTimersByTimeAsync(TIMINGS.sessionCheckMs + 100));
  expect(checks).toBe(2);

  fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
  await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('anonymous'));
  // The held check now answers as the server would after the logout.
  await act(async () => {
    answerCheck(ended());
    await vi.advanceTimersByTimeAsync(100);
  });
  await act(() => vi.advanceTimersByTimeAsync(TIMINGS.sessionCheckMs));

  expect(screen.getByTestId('status').textContent).toBe('anonymous');
  expect(localStorage.getItem(AUTO_LOGOUT_REASON)).toBeNull();
  expect(server.calls.filter((c) => c.url.pathname === '/api/auth/logout')).toHaveLength(1);
});
