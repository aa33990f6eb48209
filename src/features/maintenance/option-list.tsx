import { useId, useState, type DragEvent, type ReactNode } from 'react';
import { ChevronDown, ChevronUp, GripVertical, Plus, Trash2 } from 'lucide-react';
import { MAINTENANCE } from '../../../common/maintenance';
import { LIMITS } from '../../../common/limits';
import { addOptionSchema, optionValueProblem, sameOption, type ListKey } from '../../../common/schemas/maintenance';
import { Button } from '../../components/ui/button';
import { cn } from '../../components/ui/cn';
import { applyServerErrors, Form, TextField, useZodForm } from '../../components/ui/form';
import { ApiError } from '../../lib/api';

export type UsageKind = 'varieties' | 'accounts' | 'diseases';

export interface OptionListProps {
  list: ListKey;
  values: string[];
  usage: Record<string, number> | undefined;
  usageKind: UsageKind;
  /** Shown above the items (for example: the five default questions apply). */
  note?: string | undefined;
  onMove(from: number, to: number): void;
  /** Resolves when the server added it; rejects with the ApiError otherwise. */
  onAdd(value: string): Promise<void>;
  onDuplicate(): void;
  onAddFailed(error: unknown): void;
  onRemove(value: string): void;
  disabled?: boolean;
}

/** One maintained list: add form, the options with their usage, reorder and remove. */
export function OptionList({
  list,
  values,
  usage,
  usageKind,
  note,
  onMove,
  onAdd,
  onDuplicate,
  onAddFailed,
  onRemove,
  disabled,
}: OptionListProps) {
  const texts = MAINTENANCE.lists[list];
  const headingId = useId();
  const [expanded, setExpanded] = useState(false);
  const [dragFrom, setDragFrom] = useState<number | null>(null);
  const [dragOver, setDragOver] = useState<number | null>(null);
  const form = useZodForm(addOptionSchema, { defaultValues: { value: '' } });
  const adding = form.formState.isSubmitting;

  const preview = LIMITS.maintenanceListPreview;
  const hidden = Math.max(0, values.length - preview);
  const visible = expanded ? values : values.slice(0, preview);

  async function submit({ value }: { value: string }) {
    if (value === '') return; // docs/PRODUCT.md section 5: adding an empty value does nothing.
    const problem = optionValueProblem(list, value);
    if (problem) {
      form.setError('value', { type: 'validate', message: problem });
      return;
    }
    if (values.some((v) => sameOption(v, value))) {
      onDuplicate();
      return;
    }
    try {
      await onAdd(value);
      form.reset({ value: '' });
    } catch (err) {
      if (err instanceof ApiError && err.code === 'CONFLICT') onDuplicate();
      else if (!applyServerErrors(form, err)) onAddFailed(err);
    }
  }

  function drop(event: DragEvent, to: number) {
    event.preventDefault();
    if (dragFrom !== null && dragFrom !== to) onMove(dragFrom, to);
    setDragFrom(null);
    setDragOver(null);
  }

  const usageText = (value: string) => {
    const n = usage?.[value];
    if (n === undefined) return '\u00a0';
    return MAINTENANCE.usage[usageKind](n);
  };

  return (
    <section
      aria-labelledby={headingId}
      data-testid={`list-${list}`}
      className="flex flex-col rounded-2xl border border-slate-200 bg-white shadow-sm"
    >
      <header className="flex items-center justify-between border-b border-slate-100 px-5 py-4">
        <h2 id={headingId} className="text-base font-semibold text-slate-900">
          {texts.title}
        </h2>
        <span
          className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-medium text-slate-600"
          aria-label={`${values.length} options`}
        >
          {values.length}
        </span>
      </header>

      <div className="flex flex-1 flex-col gap-3 px-5 py-4">
        <Form form={form} onSubmit={submit} className="flex items-start gap-2">
          <TextField
            name="value"
            label={texts.addLabel}
            placeholder={texts.placeholder}
            autoComplete="off"
            className="flex-1"
            disabled={disabled}
          />
          <Button type="submit" className="mt-6 shrink-0" disabled={disabled || adding} aria-label={`${MAINTENANCE.add} ${texts.title}`}>
            <Plus className="h-4 w-4" aria-hidden />
            {adding ? MAINTENANCE.adding : MAINTENANCE.add}
          </Button>
        </Form>

        {note && <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-800">{note}</p>}

        {values.length === 0 ? (
          <p className="py-4 text-center text-sm text-slate-500">{MAINTENANCE.emptyList}</p>
        ) : (
          <ol className="divide-y divide-slate-100 rounded-xl border border-slate-100" aria-label={texts.title}>
            {visible.map((value, index) => (
              <li
                key={value}
                draggable={!disabled}
                onDragStart={(e) => {
                  setDragFrom(index);
                  e.dataTransfer.effectAllowed = 'move';
                  e.dataTransfer.setData('text/plain', value);
                }}
                onDragOver={(e) => {
                  if (dragFrom !== null) {
                    e.preventDefault();
                    setDragOver(index);
                  }
                }}
                onDragLeave={() => setDragOver((o) => (o === index ? null : o))}
                onDrop={(e) => drop(e, index)}
                onDragEnd={() => {
                  setDragFrom(null);
                  setDragOver(null);
                }}
                data-testid="option"
                className={cn(
                  'flex items-center gap-2 px-2 py-2 transition-colors',
                  dragOver === index && dragFrom !== index && 'bg-brand-50',
                  dragFrom === index && 'opacity-50',
                )}
              >
                <span className="cursor-grab text-slate-300 hover:text-slate-500" title={MAINTENANCE.dragHandle(value)} aria-hidden>
                  <GripVertical className="h-4 w-4" />
                </span>
                <span className="w-6 shrink-0 text-right text-xs tabular-nums text-slate-500">{index + 1}.</span>
                <div className="min-w-0 flex-1">
                  <p className="break-words text-sm font-medium text-slate-800" data-testid="option-value">
                    {value}
                  </p>
                  <p className="text-xs text-slate-500" data-testid="option-usage">
                    {usageText(value)}
                  </p>
                </div>
                <div className="flex shrink-0 items-center">
                  <IconButton label={MAINTENANCE.moveUp(value)} disabled={disabled || index === 0} onClick={() => onMove(index, index - 1)}>
                    <ChevronUp className="h-4 w-4" />
                  </IconButton>
                  <IconButton
                    label={MAINTENANCE.moveDown(value)}
                    disabled={disabled || index === values.length - 1}
                    onClick={() => onMove(index, index + 1)}
                  >
                    <ChevronDown className="h-4 w-4" />
                  </IconButton>
                  <IconButton label={`${MAINTENANCE.remove} ${value}`} disabled={disabled} onClick={() => onRemove(value)} danger>
                    <Trash2 className="h-4 w-4" />
                  </IconButton>
                </div>
              </li>
            ))}
          </ol>
        )}

        {hidden > 0 && (
          <button
            type="button"
            onClick={() => setExpanded((e) => !e)}
            aria-expanded={expanded}
            className={cn(
              'self-start rounded-md px-1 text-sm font-medium text-brand-700 hover:text-brand-800',
              'hover:underline focus-visible:outline-none focus-visible:ring-2',
              'focus-visible:ring-brand-600',
            )}
          >
            {expanded ? MAINTENANCE.viewLess : MAINTENANCE.viewMore(hidden)}
          </button>
        )}
      </div>
    </section>
  );
}

function IconButton({
  label,
  onClick,
  disabled,
  danger,
  children,
}: {
  label: string;
  onClick(): void;
  disabled?: boolean | undefined;
  danger?: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      onClick={onClick}
      disabled={disabled}
      className={cn(
        'flex h-8 w-8 items-center justify-center rounded-md text-slate-500 transition-colors ' +
          'focus-visible:outline-none focus-visible:ring-2 disabled:cursor-not-allowed disabled:opacity-30',
        danger
          ? 'hover:bg-red-50 hover:text-red-600 focus-visible:ring-red-500'
          : 'hover:bg-slate-100 hover:text-slate-800 focus-visible:ring-brand-600',
      )}
    >
      {children}
    </button>
  );
}
