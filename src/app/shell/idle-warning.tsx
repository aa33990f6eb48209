import { useEffect, useState } from 'react';
import { SHELL } from '../../../common/texts';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { useSession } from '../../lib/session';

/**
 * Shown from a minute before the inactivity logout: the seconds left and "Stay signed in". Any
 * activity (a key, the mouse, a touch) closes it as well, as it starts the timer again.
 */
export function IdleWarning() {
  const { idleDeadline, stayActive } = useSession();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (idleDeadline === null) return;
    setNow(Date.now());
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [idleDeadline]);
  const seconds = idleDeadline === null ? 0 : Math.max(0, Math.ceil((idleDeadline - now) / 1000));
  return (
    <Dialog
      open={idleDeadline !== null}
      onOpenChange={(o) => {
        if (!o) stayActive();
      }}
      title={SHELL.idleWarning.title}
      size="sm"
      footer={
        <Button onClick={stayActive} autoFocus>
          {SHELL.idleWarning.stay}
        </Button>
      }
    >
      <p className="text-sm text-slate-700" role="timer" aria-live="off">
        {SHELL.idleWarning.text(seconds)}
      </p>
    </Dialog>
  );
}
