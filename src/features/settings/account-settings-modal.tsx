import { SHELL } from '../../../common/texts';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';

/** Account Settings (SPEC.md section 2). Its form is built by the account-settings work. */
export function AccountSettingsModal({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={SHELL.accountSettings}
      footer={<Button variant="secondary" onClick={() => onOpenChange(false)}>{SHELL.cancel}</Button>}>
      <p className="text-sm text-slate-600">{SHELL.comingSoon}</p>
    </Dialog>
  );
}
