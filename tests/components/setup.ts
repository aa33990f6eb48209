import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// The suite runs beside the API projects on a busy machine, where a screen can take far longer
// to render than it does alone: findBy and waitFor wait longer than Testing Library's default.
configure({ asyncUtilTimeout: 5000 });

// Each test renders into a clean document. Unmount first, then take the stubbed browser APIs
// away: in the other order a session that resolves late mounts its live stream with no
// EventSource (hooks after a test run in reverse order, so files do not unstub themselves).
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  for (const c of document.cookie.split(';')) document.cookie = `${c.split('=')[0]!.trim()}=; Max-Age=0; path=/`;
});
