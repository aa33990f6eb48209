import { useId, useRef, useState, type ReactNode } from 'react';
import type { FieldValues } from 'react-hook-form';
import type { z } from 'zod';
import { REVIEW_SCREEN } from '../../../common/review-screen-texts';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { Form, applyServerErrors, useZodForm } from '../../components/ui/form';

/**
 * One decision's dialog: its form (the schema of common/schemas/review.ts, through the one form
 * wrapper), what it says, and its confirm button; `alternative` is a second way to confirm it
 * (the primary one then: approve and go to the next change). `onSubmit` resolves when the
 * decision is made; a refusal's field messages go onto the form, any other message shows in
 * the dialog.
 */
export function DecisionDialog<S extends z.ZodType<FieldValues, FieldValues>>({
  title,
  schema,
  defaultValues,
  children,
  confirm,
  danger,
  alternative,
  onSubmit,
  onClose,
}: {
  title: string;
  schema: S;
  defaultValues: z.input<S>;
  children: ReactNode;
  confirm: string;
  danger?: boolean;
  alternative?: { label: string; onSubmit(values: z.output<S>): Promise<unknown> };
  onSubmit(values: z.output<S>): Promise<unknown>;
  onClose(): void;
}) {
  const formId = useId();
  const form = useZodForm(schema, { defaultValues: defaultValues as never });
  const [error, setError] = useState<string | null>(null);
  const busy = form.formState.isSubmitting;
  // Which of the two confirm buttons sent the form.
  const chosen = useRef<'confirm' | 'alternative'>('confirm');

  async function submit(values: z.output<S>) {
    setError(null);
    try {
      await (chosen.current === 'alternative' && alternative ? alternative.onSubmit(values) : onSubmit(values));
    } catch (err) {
      if (!applyServerErrors(form as never, err)) setError(err instanceof Error ? err.message : String(err));
    }
  }

  return (
    <Dialog
      open
      onOpenChange={(o) => {
        if (!o && !busy) onClose();
      }}
      title={title}
      size="md"
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            {REVIEW_SCREEN.cancel}
          </Button>
          <Button
            type="submit"
            form={formId}
            variant={danger ? 'danger' : alternative ? 'secondary' : 'primary'}
            disabled={busy}
            onClick={() => (chosen.current = 'confirm')}
          >
            {busy && chosen.current === 'confirm' ? REVIEW_SCREEN.working : confirm}
          </Button>
          {alternative && (
            <Button type="submit" form={formId} disabled={busy} onClick={() => (chosen.current = 'alternative')}>
              {busy && chosen.current === 'alternative' ? REVIEW_SCREEN.working : alternative.label}
            </Button>
          )}
        </>
      }
    >
      <Form form={form} id={formId} onSubmit={submit} className="space-y-4">
        {children}
        {error && (
          <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
            {error}
          </p>
        )}
      </Form>
    </Dialog>
  );
}
