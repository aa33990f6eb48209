import { createContext, startTransition, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { SESSION_PATH } from '../../common/first-visit';
import { TIMINGS } from '../../common/limits';
import type { LoginInput, SessionInfo } from '../../common/schemas/auth';
import type { LoginResult, LoginSecondFactorInput, SecondFactorSession } from '../../common/schemas/second-factor';
import { api, ApiError, onUnauthenticated } from './api';
import { connectLive } from './live';
import { clearQueries, refreshQueriesFor } from './queries';
import { forgetSessionHint, mayHaveSession, rememberReturnTo, setLogoutReason, type LogoutReason } from './storage';

type Status = 'loading' | 'anonymous' | 'authenticated';

interface SessionContextValue {
  status: Status;
  session: SessionInfo | null;
  /** The password step: a session, or a challenge for the second factor (no session yet). */
  login(input: LoginInput): Promise<LoginResult>;
  /** The code step after a challenge; opens the session. */
  loginSecondFactor(input: LoginSecondFactorInput): Promise<SecondFactorSession>;
  /** Ends the session on the server (best effort) and always lands signed out. */
  logout(reason?: LogoutReason): Promise<void>;
  /** Re-reads the signed-in user (after a profile change, a sign-in). */
  refresh(): Promise<SessionInfo | null>;
  /** When the inactivity sign-out comes, once it is less than TIMINGS.inactivityWarningMs away; else null. */
  idleDeadline: number | null;
  /** The user is here: the inactivity timer starts again, here and on the server. */
  stayActive(): void;
}

const SessionContext = createContext<SessionContextValue | null>(null);
const ACTIVITY_EVENTS = ['mousemove', 'mousedown', 'keydown', 'wheel', 'touchstart', 'scroll'] as const;

type TabMessage = { type: 'activity'; at: number } | { type: 'logout'; reason?: LogoutReason | undefined } | { type: 'login' };

function openChannel(): BroadcastChannel | null {
  return typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel('palayan-session');
}

export function SessionProvider({ children }: { children: ReactNode }) {
  // No session cookie was set in this browser (or it ended): the login page asks the server nothing.
  const [status, setStatus] = useState<Status>(() => (mayHaveSession() ? 'loading' : 'anonymous'));
  const [session, setSession] = useState<SessionInfo | null>(null);
  const channel = useRef<BroadcastChannel | null>(null);
  // Set from the moment this tab signs out until a session is read again: a request that was on
  // its way (the 5 s check, a list) answers 401 after the sign-out, which is no news to the user.
  const signingOut = useRef(false);

  // The account signed in, for the page a sign-out it did not ask for leaves.
  const userRef = useRef<string | null>(null);
  const signedOut = useCallback((reason?: LogoutReason) => {
    if (reason) setLogoutReason(reason);
    if ((reason === 'inactivity' || reason === 'session_ended') && userRef.current && window.location.pathname.startsWith('/dashboard'))
      rememberReturnTo(userRef.current, window.location.pathname + window.location.search);
    setSession(null);
    setStatus('anonymous');
    clearQueries();
  }, []);

  const load = useCallback(async (): Promise<SessionInfo | null> => {
    try {
      const info = await api<SessionInfo>(SESSION_PATH, { skipAuthHandling: true });
      signingOut.current = false;
      // As a transition: the signed-in frame and its screen are built in slices that yield to
      // the browser, not in one long task that a slow phone cannot interrupt.
      startTransition(() => {
        setSession(info);
        setStatus('authenticated');
      });
      return info;
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) forgetSessionHint();
      return null;
    }
  }, []);

  /** The server says this tab's session ended: adopt a newer one from this browser, or sign out. */
  const handleEnded = useCallback(
    async (reason: string) => {
      if (signingOut.current) return;
      const adopted = await load();
      if (adopted || signingOut.current) return;
      signedOut(reason === 'logout' ? undefined : reason === 'inactivity' || reason === 'signed_out' ? reason : 'session_ended');
    },
    [load, signedOut],
  );

  useEffect(() => {
    channel.current = openChannel();
    if (mayHaveSession())
      void load().then((info) => {
        if (!info) setStatus('anonymous');
      });
    return () => channel.current?.close();
  }, [load]);

  useEffect(
    () =>
      onUnauthenticated((error: ApiError) => {
        void handleEnded(error.reason ?? 'session_ended');
      }),
    [handleEnded],
  );

  const logout = useCallback(
    async (reason?: LogoutReason) => {
      signingOut.current = true;
      try {
        await api('/api/auth/logout', { method: 'POST', skipAuthHandling: true });
      } catch {
        /* docs/PRODUCT.md section 4: always sign out locally, even if the update failed */
      }
      channel.current?.postMessage({ type: 'logout', reason } satisfies TabMessage);
      signedOut(reason);
    },
    [signedOut],
  );

  const login = useCallback(async (input: LoginInput) => {
    const result = await api<LoginResult>('/api/auth/login', { method: 'POST', body: input, skipAuthHandling: true });
    if (!('secondFactor' in result)) channel.current?.postMessage({ type: 'login' } satisfies TabMessage);
    return result;
  }, []);

  const loginSecondFactor = useCallback(async (input: LoginSecondFactorInput) => {
    const info = await api<SecondFactorSession>('/api/auth/login/second-factor', { method: 'POST', body: input, skipAuthHandling: true });
    channel.current?.postMessage({ type: 'login' } satisfies TabMessage);
    return info;
  }, []);

  const refresh = useCallback(() => load(), [load]);

  // Messages from this browser's other tabs.
  useEffect(() => {
    const ch = channel.current;
    if (!ch) return;
    const onMessage = (e: MessageEvent<TabMessage>) => {
      if (e.data.type === 'logout') signedOut(e.data.reason);
      if (e.data.type === 'login') void load();
    };
    ch.addEventListener('message', onMessage);
    return () => ch.removeEventListener('message', onMessage);
  }, [load, signedOut]);

  const authenticated = status === 'authenticated';
  const sessionId = session?.sessionId;
  const idleTimeoutMs = session?.idleTimeoutMs ?? TIMINGS.inactivityLogoutMs;
  const userId = session?.user.id;
  userRef.current = userId ?? null;
  const [idleDeadline, setIdleDeadline] = useState<number | null>(null);
  const stayActiveRef = useRef<() => void>(() => undefined);
  const stayActive = useCallback(() => stayActiveRef.current(), []);

  // Live updates: refresh what the screens show; hear at once when this session ends.
  useEffect(() => {
    if (!authenticated || !sessionId) return;
    return connectLive({
      onChange: (event) => {
        // topic '*': the server or the stream reconnected and may have missed changes.
        refreshQueriesFor(event);
        if (event.topic === 'accounts' && event.id === userId) void load();
      },
      onSessionEnded: (reason) => {
        void handleEnded(reason);
      },
    });
  }, [authenticated, sessionId, userId, handleEnded, load]);

  // Fallback to the pushed event: compare the session on a timer (docs/PRODUCT.md: every 5 s).
  useEffect(() => {
    if (!authenticated) return;
    const timer = setInterval(() => {
      api<SessionInfo>(SESSION_PATH, { skipAuthHandling: true })
        .then((info) => {
          if (info.sessionId !== sessionId) setSession(info);
        })
        .catch((err: unknown) => {
          if (err instanceof ApiError && err.status === 401) void handleEnded(err.reason ?? 'session_ended');
        });
    }, TIMINGS.sessionCheckMs);
    return () => clearInterval(timer);
  }, [authenticated, sessionId, handleEnded]);

  // Inactivity logout, shared across this browser's tabs, with a heartbeat so the server's
  // idle timer follows the user's real activity rather than background requests.
  useEffect(() => {
    if (!authenticated) return;
    let lastActivity = Date.now();
    let lastHeartbeat = Date.now();
    const heartbeatEvery = Math.min(TIMINGS.activityHeartbeatMs, Math.max(1000, Math.floor(idleTimeoutMs / 3)));
    const ch = channel.current;
    const markActive = (broadcast: boolean, heartbeat = false) => {
      lastActivity = Date.now();
      if (broadcast) ch?.postMessage({ type: 'activity', at: lastActivity } satisfies TabMessage);
      if (heartbeat || lastActivity - lastHeartbeat >= heartbeatEvery) {
        lastHeartbeat = lastActivity;
        api('/api/auth/activity', { method: 'POST' }).catch(() => undefined);
      }
    };
    let throttle = 0;
    const onLocal = () => {
      const now = Date.now();
      if (now - throttle < 500) return;
      throttle = now;
      markActive(true);
    };
    const onMessage = (e: MessageEvent<TabMessage>) => {
      if (e.data.type === 'activity') lastActivity = Math.max(lastActivity, e.data.at);
    };
    ACTIVITY_EVENTS.forEach((name) => window.addEventListener(name, onLocal, { passive: true }));
    ch?.addEventListener('message', onMessage);
    stayActiveRef.current = () => {
      markActive(true, true);
      setIdleDeadline(null);
    };
    // A minute before (or half the timeout, when shorter) the sign-out is announced.
    const warnBefore = Math.min(TIMINGS.inactivityWarningMs, Math.floor(idleTimeoutMs / 2));
    // Once: on a slow link the sign-out may still be on its way at the next tick.
    const timer = setInterval(() => {
      const deadline = lastActivity + idleTimeoutMs;
      setIdleDeadline(deadline - Date.now() <= warnBefore ? deadline : null);
      if (Date.now() < deadline) return;
      clearInterval(timer);
      setIdleDeadline(null);
      void logout('inactivity');
    }, 1000);
    return () => {
      ACTIVITY_EVENTS.forEach((name) => window.removeEventListener(name, onLocal));
      ch?.removeEventListener('message', onMessage);
      clearInterval(timer);
      stayActiveRef.current = () => undefined;
      setIdleDeadline(null);
    };
  }, [authenticated, idleTimeoutMs, logout]);

  const value = useMemo<SessionContextValue>(
    () => ({ status, session, login, loginSecondFactor, logout, refresh, idleDeadline, stayActive }),
    [status, session, login, loginSecondFactor, logout, refresh, idleDeadline, stayActive],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionContextValue {
  const ctx = useContext(SessionContext);
  if (!ctx) throw new Error('useSession must be used inside SessionProvider');
  return ctx;
}
