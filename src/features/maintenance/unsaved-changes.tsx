import { useEffect } from 'react';
import { useBlocker } from 'react-router';
import { MAINTENANCE } from '../../../common/maintenance';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';

/**
 * Leaving the page with unsaved changes asks first: inside the app (links, Back, the
 * browser's back button) with a dialog, and on reload or closing the tab with the browser's
 * own prompt.
 */
export function UnsavedChangesGuard({ when }: { when: boolean }) {
  const blocker = useBlocker(({ currentLocation, nextLocation }) => when && currentLocation.pathname !== nextLocation.pathname);

  useEffect(() => {
    if (!when) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [when]);

  // Saved or discarded meanwhile: let the pending navigation go on.
  useEffect(() => {
    if (blocker.state === 'blocked' && !when) blocker.proceed();
  }, [blocker, when]);

  const open = blocker.state === 'blocked';
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        if (!o && blocker.state === 'blocked') blocker.reset();
      }}
      title={MAINTENANCE.unsaved.title}
      size="sm"
      footer={
        <>
          <Button variant="secondary" onClick={() => blocker.reset?.()}>
            {MAINTENANCE.unsaved.stay}
          </Button>
          <Button variant="danger" onClick={() => blocker.proceed?.()}>
            {MAINTENANCE.unsaved.leave}
          </Button>
        </>
      }
    >
      <p className="text-sm text-slate-700">{MAINTENANCE.unsaved.message}</p>
    </Dialog>
  );
}
