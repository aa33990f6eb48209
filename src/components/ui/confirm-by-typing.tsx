import { useEffect, useId, useState, type ReactNode } from 'react';
import { SHELL } from '../../../common/texts';
import { Button } from './button';
import { Dialog } from './dialog';

export interface ConfirmByTypingProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: string;
  description: ReactNode;
  /** A line under the description (a delete's: where the record goes). */
  note?: string;
  /** The name the user must type. */
  expected: string;
  /** Trimmed comparison (varieties, pests, accounts) or exact (diseases), per docs/PRODUCT.md section 5. */
  trim: boolean;
  mismatchText: string;
  confirmLabel: string;
  busyLabel?: string;
  onConfirm(): Promise<void> | void;
  /** An error from the server, shown under the field. */
  error?: string | null;
}

/** Delete and restrict ask for the record's name typed; the button stays disabled until it matches. */
export function ConfirmByTyping({
  open,
  onOpenChange,
  title,
  description,
  note,
  expected,
  trim,
  mismatchText,
  confirmLabel,
  busyLabel,
  onConfirm,
  error,
}: ConfirmByTypingProps) {
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const id = useId();
  useEffect(() => {
    if (open) {
      setTyped('');
      setBusy(false);
    }
  }, [open]);
  const matches = trim ? typed.trim() === expected.trim() : typed === expected;

  async function confirm() {
    if (!matches) return;
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => !busy && onOpenChange(o)}
      title={title}
      size="sm"
      footer={
        <>
          <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={busy}>
            {SHELL.cancel}
          </Button>
          <Button variant="danger" onClick={confirm} disabled={!matches || busy}>
            {busy ? (busyLabel ?? confirmLabel) : confirmLabel}
          </Button>
        </>
      }
    >
      <div className="space-y-3 text-sm text-slate-700">
        <div>{description}</div>
        {note && <p className="mt-2 text-xs text-slate-500">{note}</p>}
        <label htmlFor={id} className="block font-medium">
          Type <span className="font-semibold text-slate-900">{expected}</span> to confirm
        </label>
        <input
          id={id}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          autoComplete="off"
          onKeyDown={(e) => {
            if (e.key === 'Enter') void confirm();
          }}
          className="block h-10 w-full rounded-lg border border-slate-300 px-3 outline-none focus:border-brand-600 focus:ring-2 focus:ring-brand-100"
        />
        {typed.length > 0 && !matches && (
          <p role="alert" className="text-red-600">
            {mismatchText}
          </p>
        )}
        {error && (
          <p role="alert" className="whitespace-pre-line text-red-600">
            {error}
          </p>
        )}
      </div>
    </Dialog>
  );
}
