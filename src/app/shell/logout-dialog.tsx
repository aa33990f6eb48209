import { useState } from 'react';
import { TIMINGS } from '../../../common/limits';
import { SHELL } from '../../../common/texts';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';

export function LogoutDialog({
  open,
  onOpenChange,
  onConfirm,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  onConfirm(): Promise<void>;
}) {
  const [busy, setBusy] = useState(false);
  async function confirm() {
    setBusy(true);
    await new Promise((resolve) => setTimeout(resolve, TIMINGS.logoutDelayMs));
    await onConfirm();
  }
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => !busy && onOpenChange(o)}
      title={SHELL.logout}
      size="sm"
      footer={
        <>
          <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={busy}>
            {SHELL.cancel}
          </Button>
          <Button variant="danger" onClick={confirm} disabled={busy}>
            {busy ? SHELL.loggingOut : SHELL.logout}
          </Button>
        </>
      }
    >
      <p className="text-sm text-slate-700">{SHELL.logoutConfirm}</p>
    </Dialog>
  );
}
