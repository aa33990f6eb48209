import { Button } from './button';
import { Dialog } from './dialog';

/** A question before an action: the safe choice first and focused, the action beside it. */
export function AskDialog({
  open,
  title,
  text,
  keepLabel,
  confirmLabel,
  danger = false,
  onKeep,
  onConfirm,
}: {
  open: boolean;
  title: string;
  text: string;
  keepLabel: string;
  confirmLabel: string;
  danger?: boolean;
  onKeep(): void;
  onConfirm(): void;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        if (!o) onKeep();
      }}
      title={title}
      size="sm"
      hideClose
      footer={
        <>
          <Button variant="secondary" onClick={onKeep} autoFocus>
            {keepLabel}
          </Button>
          <Button variant={danger ? 'danger' : 'primary'} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      <p className="text-sm text-slate-700">{text}</p>
    </Dialog>
  );
}
