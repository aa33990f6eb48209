import { useEffect, useMemo, useRef } from 'react';
import { api } from './api';

/** A draft is sent at most this often while its form changes. */
const SAVE_EVERY_MS = 5000;

export interface DraftAutosave {
  /** A change: the draft is sent within SAVE_EVERY_MS. */
  schedule(): void;
  /** Waits for a draft already on its way. */
  settle(): Promise<void>;
  /** Stops sending (while the form saves). */
  pause(): void;
  /** Sends again what changed. */
  resume(): void;
}

/**
 * Keeps a form as the account's draft on the server (PUT `url`) while it changes, at most every
 * few seconds: `read` gives the draft to keep (null: nothing worth keeping), `subscribe` calls
 * back on each change and returns its unsubscribe. The same draft is not sent twice.
 */
export function useDraftAutosave(
  url: string,
  read: () => unknown,
  subscribe: (changed: () => void) => () => void,
  active: boolean,
): DraftAutosave {
  const state = useRef({
    timer: null as ReturnType<typeof setTimeout> | null,
    lastSent: 0,
    inFlight: Promise.resolve() as Promise<unknown>,
    active,
    held: false,
    last: '',
    read,
  });
  state.current.active = active;
  state.current.read = read;

  const controls = useMemo<DraftAutosave>(() => {
    const s = state.current;
    const send = () => {
      s.timer = null;
      if (!s.active || s.held) return;
      const draft = s.read();
      const body = draft ? JSON.stringify(draft) : '';
      if (!draft || body === s.last) return;
      s.last = body;
      s.lastSent = Date.now();
      s.inFlight = s.inFlight
        .then(() => api(url, { method: 'PUT', body: draft }))
        .catch(() => {
          s.last = '';
        });
    };
    const schedule = () => {
      if (!s.active || s.held || s.timer) return;
      s.timer = setTimeout(send, Math.max(500, s.lastSent + SAVE_EVERY_MS - Date.now()));
    };
    return {
      schedule,
      settle: () => s.inFlight.then(() => undefined),
      pause() {
        s.held = true;
        if (s.timer) clearTimeout(s.timer);
        s.timer = null;
      },
      resume() {
        s.held = false;
        schedule();
      },
    };
  }, [url]);

  useEffect(() => {
    if (!active) return;
    const s = state.current;
    const unsubscribe = subscribe(() => controls.schedule());
    return () => {
      unsubscribe();
      if (s.timer) clearTimeout(s.timer);
      s.timer = null;
    };
  }, [active, controls, subscribe]);

  return controls;
}
