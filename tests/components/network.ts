import { vi } from 'vitest';
import { SIGNED_IN_HINT_COOKIE } from '../../common/sessions';

export interface Call {
  method: string;
  url: URL;
  body: unknown;
}
type Handler = (call: Call) => Response | Promise<Response>;

/**
 * Stands in for the server: `fetch` answers by "METHOD /path" from the handlers (a missing one
 * is a 404 the test sees), every call is recorded; EventSource is a silent stream.
 */
export function stubServer(handlers: Record<string, Handler>): { calls: Call[] } {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://console.test');
      const method = (init.method ?? 'GET').toUpperCase();
      const body = typeof init.body === 'string' ? JSON.parse(init.body) : init.body;
      const call = { method, url, body };
      calls.push(call);
      const handler = handlers[`${method} ${url.pathname}`];
      return handler ? handler(call) : json({ error: { code: 'NOT_FOUND', message: `no stub for ${method} ${url.pathname}` } }, 404);
    }),
  );
  vi.stubGlobal(
    'EventSource',
    class {
      addEventListener(): void {
        /* no live events in these tests */
      }
      close(): void {
        /* nothing open */
      }
    },
  );
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      observe(): void {
        /* the list's end never scrolls into view */
      }
      disconnect(): void {
        /* nothing observed */
      }
    },
  );
  return { calls };
}

export function json(data: unknown, status = 200): Response {
  return new Response(JSON.stringify(data), { status, headers: { 'content-type': 'application/json' } });
}

export function sessionInfo(role: 'SYSTEM_ADMIN' | 'ADMIN', idleTimeoutMs = 30 * 60_000) {
  return {
    sessionId: 'session-1',
    idleTimeoutMs,
    user: {
      id: 'user-1',
      fullname: 'Elena Reyes',
      username: 'elena_reyes',
      email: 'elena@da.example',
      contactNo: null,
      photoURL: null,
      role,
      securityQuestion: null,
    },
  };
}

/** What the server's login leaves in the browser besides the httpOnly session cookie. */
export function holdSession(): void {
  document.cookie = `${SIGNED_IN_HINT_COOKIE}=1; path=/`;
}
