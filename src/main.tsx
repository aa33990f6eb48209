import { startTransition, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { router } from './app/router';
import { SessionProvider } from './lib/session';
import { ToastProvider } from './components/ui/toast';
import { FullPageSpinner } from './components/ui/spinner';
import './index.css';

// The query cache (TanStack Query) is not here: it arrives with the signed-in shell
// (src/lib/query-client.tsx), so the login page loads without it.

// The first render as a transition: React yields to the browser every few milliseconds instead
// of one long task, so a slow phone stays responsive while the first screen is built.
const root = createRoot(document.getElementById('root')!);
startTransition(() =>
  root.render(
    <StrictMode>
      <SessionProvider>
        <ToastProvider>
          <Suspense fallback={<FullPageSpinner />}>
            <RouterProvider router={router} />
          </Suspense>
        </ToastProvider>
      </SessionProvider>
    </StrictMode>,
  ),
);
