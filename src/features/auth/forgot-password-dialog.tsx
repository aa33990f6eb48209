import { Dialog } from '../../components/ui/dialog';
import { Button } from '../../components/ui/button';
import { SHELL } from '../../../common/texts';

/** Forgot Password (SPEC.md section 4). The three-step recovery is built by the account-recovery work. */
export function ForgotPasswordDialog({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Forgot Password" size="sm"
      footer={<Button variant="secondary" onClick={() => onOpenChange(false)}>{SHELL.cancel}</Button>}>
      <p className="text-sm text-slate-600">{SHELL.comingSoon}</p>
    </Dialog>
  );
}
