import { useId, useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, History, XCircle } from 'lucide-react';
import { manilaDateTime } from '../../../common/manila-time';
import type { VarietyDraft } from '../../../common/schemas/drafts';
import { TranslateButton } from '../../components/translations/translate-button';
import {
  EMPTY_VARIETY_FORM,
  missingFields,
  varietyFormSchema,
  varietyToFormValues,
  type Variety,
  type VarietyFormValues,
  type VarietyInput,
} from '../../../common/schemas/varieties';
import { VARIETIES, VARIETY_LABELS } from '../../../common/varieties';
import { Button } from '../../components/ui/button';
import type { ChoiceOption } from '../../components/ui/choice-fields';
import { ConflictDialog } from '../../components/ui/conflict-dialog';
import { AskDialog } from '../../components/ui/ask-dialog';
import { Dialog } from '../../components/ui/dialog';
import { Form, applyServerErrors, useKeepTouchedFields, useZodForm } from '../../components/ui/form';
import { Spinner } from '../../components/ui/spinner';
import { ApiError } from '../../lib/api';
import { useOptionLists } from '../../lib/option-lists';
import { useSentForReview } from '../../components/review/use-sent-for-review';
import { useSaveVariety, useVariety, useVarietyNameTaken, varietyKeys, varietyListsOf } from './api';
import { VarietyFields } from './variety-fields';
import { dropVarietyDraft, useVarietyDraft, useVarietyDraftAutosave } from './draft';

export type VarietyFormTarget = { mode: 'add' } | { mode: 'edit'; id: string };

/** The add/edit dialog. Edit waits for the record, then keeps following it live. */
export function VarietyFormDialog({
  target,
  onClose,
  onTranslate,
  onOpenRecord,
}: {
  target: VarietyFormTarget | null;
  onClose(): void;
  onTranslate(variety: Variety): void;
  /** Opens another record for editing (the one whose name the user typed). */
  onOpenRecord(id: string): void;
}) {
  const editId = target?.mode === 'edit' ? target.id : null;
  const detail = useVariety(editId);
  const f = VARIETIES.form;
  // A variety cached from before is read again first: the form edits the version saved since
  // (someone's edit, or one published from review while no form was open).
  const [readFor, setReadFor] = useState<string | null>(null);
  if (editId !== readFor && (editId === null || (detail.data && !detail.isFetching))) setReadFor(editId);
  if (!target) return null;
  if (target.mode === 'edit' && (!detail.data || readFor !== editId)) {
    return (
      <Dialog
        open
        onOpenChange={(o) => {
          if (!o) onClose();
        }}
        title={f.editTitle}
        size="lg"
      >
        {detail.isError ? (
          <p role="alert" className="text-sm text-red-600">
            {detail.error.message}
          </p>
        ) : (
          <div className="flex justify-center py-10">
            <Spinner />
          </div>
        )}
      </Dialog>
    );
  }
  return (
    <VarietyForm
      key={editId ?? 'new'}
      variety={target.mode === 'edit' ? detail.data! : null}
      onClose={onClose}
      onTranslate={onTranslate}
      onOpenRecord={onOpenRecord}
    />
  );
}

type Step =
  | { kind: 'editing' }
  | { kind: 'confirm'; values: VarietyInput }
  | { kind: 'result'; ok: true; title: string; text: string }
  | { kind: 'result'; ok: false; text: string }
  | { kind: 'conflict'; values: VarietyInput; current: Variety };

function VarietyForm({
  variety,
  onClose,
  onTranslate,
  onOpenRecord,
}: {
  variety: Variety | null;
  onClose(): void;
  onTranslate(variety: Variety): void;
  onOpenRecord(id: string): void;
}) {
  const f = VARIETIES.form;
  const L = VARIETY_LABELS;
  const formId = useId();
  const queryClient = useQueryClient();
  const options = useOptionLists(varietyListsOf);
  const enums = options.data;
  const optionsLoading = options.isPending;
  // The version this form edits: it moves only when the user reloads a newer one (409 → Reload).
  const [baseVersion, setBaseVersion] = useState(variety?.version);
  const [step, setStep] = useState<Step>({ kind: 'editing' });
  const [askDiscard, setAskDiscard] = useState(false);
  const save = useSaveVariety();
  const sentForReview = useSentForReview();

  const initial = useMemo(() => (variety ? varietyToFormValues(variety) : EMPTY_VARIETY_FORM), []); // eslint-disable-line react-hooks/exhaustive-deps
  // An edit's rules follow the record as it was opened: what it lacked may stay empty.
  const schema = useMemo(() => varietyFormSchema(enums, variety), [enums]); // eslint-disable-line react-hooks/exhaustive-deps
  const missing = useMemo(() => new Set<string>(variety ? missingFields(variety) : []), []); // eslint-disable-line react-hooks/exhaustive-deps
  const missingHint = (field: string) => (missing.has(field) ? <p className="mt-1 text-xs text-amber-700">{f.missingHint}</p> : undefined);
  const form = useZodForm(schema, { defaultValues: initial });
  // Read while rendering, so react-hook-form keeps it current (its formState is subscribed by reading).
  const { isDirty } = form.formState;
  const taken = useVarietyNameTaken(String(form.watch('varietyName') ?? ''), variety?.id ?? null);

  // Live: a newer save by someone else updates the untouched fields; the touched ones stay.
  const detail = useVariety(variety?.id ?? null);
  const serverValues = useMemo(() => (detail.data ? varietyToFormValues(detail.data) : undefined), [detail.data]);
  useKeepTouchedFields(form, serverValues);

  // The form is kept as the account's draft while typed in; one left from before is offered first.
  const draft = useVarietyDraft(true);
  const [draftChoice, setDraftChoice] = useState<'ask' | 'decided'>('ask');
  const offer = draftChoice === 'ask' && draft.data && draft.data.recordId === (variety?.id ?? null) ? draft.data : null;
  const autosave = useVarietyDraftAutosave(
    form,
    variety && baseVersion !== undefined ? { id: variety.id, version: baseVersion } : null,
    !offer && (draftChoice === 'decided' || draft.isFetched),
  );
  function continueDraft(kept: VarietyDraft) {
    for (const [field, value] of Object.entries(kept.fields) as Array<[keyof VarietyFormValues, never]>) {
      if (JSON.stringify(form.getValues(field)) !== JSON.stringify(value))
        form.setValue(field, value, { shouldDirty: true, shouldTouch: true });
    }
    if (kept.version !== null) setBaseVersion(kept.version);
    setDraftChoice('decided');
  }
  function startOver() {
    void dropVarietyDraft();
    setDraftChoice('decided');
  }
  /** The form closes on purpose (saved, discarded): its draft goes, after any still on its way. */
  async function closeAndDrop() {
    autosave.pause();
    await autosave.settle();
    await dropVarietyDraft();
  }
  const requestClose = () => {
    if (busy) return;
    // A changed form asks first: Escape or a click beside it is easily made by mistake.
    if (isDirty) setAskDiscard(true);
    else onClose();
  };

  const asOptions = (list: string[] | undefined): ChoiceOption[] => (list ?? []).map((value) => ({ value }));
  const years = useMemo(
    () => asOptions(enums?.yearReleases).sort((a, b) => b.value.localeCompare(a.value, 'en', { numeric: true })),
    [enums],
  );
  const name = (values: VarietyInput) => values.varietyName;
  const isEdit = variety !== null;

  async function persist(values: VarietyInput, version: number | undefined) {
    autosave.pause();
    await autosave.settle();
    try {
      const result = await save.mutateAsync({ id: variety?.id ?? null, values, version });
      void dropVarietyDraft();
      // Sent for review (202): closed as after a save; the record stays as published.
      if (sentForReview(result)) {
        onClose();
        return;
      }
      const saved = result as Variety;
      setBaseVersion(saved.version);
      setStep(
        isEdit
          ? { kind: 'result', ok: true, title: VARIETIES.result.updatedTitle, text: VARIETIES.result.updated(saved.varietyName) }
          : { kind: 'result', ok: true, title: VARIETIES.result.savedTitle, text: VARIETIES.result.saved(saved.varietyName) },
      );
    } catch (err) {
      if (err instanceof ApiError && err.code === 'VERSION_CONFLICT' && err.body?.current) {
        setStep({ kind: 'conflict', values, current: err.body.current as Variety });
        return;
      }
      autosave.resume();
      applyServerErrors(form as never, err);
      const message = err instanceof Error && err.message ? err.message : VARIETIES.result.failedDefault;
      setStep({ kind: 'result', ok: false, text: message });
    }
  }

  function reloadTheirs(current: Variety) {
    // The newer record becomes the base: untouched fields take its values, touched ones stay.
    queryClient.setQueryData(varietyKeys.detail(current.id), current);
    setBaseVersion(current.version);
    setStep({ kind: 'editing' });
  }

  const closeResult = () => {
    if (step.kind === 'result' && step.ok) onClose();
    else setStep({ kind: 'editing' });
  };
  const busy = save.isPending;

  return (
    <>
      <Dialog
        open
        onOpenChange={(o) => {
          if (!o) requestClose();
        }}
        title={isEdit ? f.editTitle : f.addTitle}
        size="lg"
        footer={
          <>
            {variety && <TranslateButton disabled={busy} dirty={() => form.formState.isDirty} onTranslate={() => onTranslate(variety)} />}
            <Button variant="secondary" onClick={requestClose} disabled={busy}>
              {f.cancel}
            </Button>
            <Button type="submit" form={formId} disabled={busy}>
              {isEdit ? f.update : f.save}
            </Button>
          </>
        }
      >
        <Form
          form={form}
          id={formId}
          // A name another record has is saved only once the user confirms it in the next step.
          onSubmit={(values) => setStep({ kind: 'confirm', values: { ...values, allowDuplicateName: taken !== null || undefined } })}
          className="space-y-6"
        >
          {offer && (
            <div
              className="space-y-2 rounded-xl border border-brand-100 bg-brand-50 p-3"
              role="region"
              aria-label={isEdit ? f.draft.editTitle : f.draft.addTitle}
            >
              <p className="flex items-start gap-2 text-sm font-semibold text-slate-900">
                <History className="mt-0.5 h-4 w-4 shrink-0 text-brand-700" aria-hidden />
                {isEdit ? f.draft.editTitle : f.draft.addTitle}
              </p>
              <p className="text-xs text-slate-600">
                {f.draft.hint(String(offer.fields.varietyName), manilaDateTime(new Date(offer.updatedAt)))}
              </p>
              <div className="flex gap-2">
                <Button size="sm" onClick={() => continueDraft(offer)}>
                  {f.draft.continue}
                </Button>
                <Button size="sm" variant="secondary" onClick={startOver}>
                  {f.draft.startOver}
                </Button>
              </div>
            </div>
          )}
          {missing.size > 0 && (
            <p role="note" className="rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
              {f.missingSummary([...missing].map((field) => L[field as keyof typeof L]))}
            </p>
          )}
          <VarietyFields
            years={years}
            options={enums}
            optionsLoading={optionsLoading}
            missingHint={missingHint}
            nameHint={
              taken && (
                <p className="mt-1 text-xs text-amber-800" role="status">
                  {VARIETIES.duplicate.exists(taken.varietyName)}{' '}
                  <button
                    type="button"
                    className="font-medium text-brand-700 underline underline-offset-2"
                    onClick={() => onOpenRecord(taken.id)}
                  >
                    {VARIETIES.duplicate.open}
                  </button>
                </p>
              )
            }
          />
          {options.isError && (
            <p role="alert" className="text-sm text-red-600">
              {options.error.message}
            </p>
          )}
        </Form>
      </Dialog>

      <AskDialog
        open={askDiscard}
        title={f.discard.title}
        text={f.discard.text}
        keepLabel={f.discard.keep}
        confirmLabel={f.discard.confirm}
        danger
        onKeep={() => setAskDiscard(false)}
        onConfirm={() => {
          void closeAndDrop();
          onClose();
        }}
      />

      <Dialog
        open={step.kind === 'confirm'}
        onOpenChange={(o) => {
          if (!o && !busy) setStep({ kind: 'editing' });
        }}
        title={VARIETIES.confirmSave.title}
        size="sm"
        hideClose
        footer={
          <>
            <Button variant="secondary" onClick={() => setStep({ kind: 'editing' })} disabled={busy}>
              {f.cancel}
            </Button>
            <Button
              onClick={() => {
                if (step.kind === 'confirm') void persist(step.values, baseVersion);
              }}
              disabled={busy}
            >
              {busy
                ? VARIETIES.confirmSave.saving
                : step.kind === 'confirm' && step.values.allowDuplicateName
                  ? VARIETIES.duplicate.saveAnyway
                  : VARIETIES.confirmSave.confirm}
            </Button>
          </>
        }
      >
        {step.kind === 'confirm' && (
          <p className="text-sm text-slate-700">
            {step.values.allowDuplicateName
              ? VARIETIES.duplicate.confirm(name(step.values))
              : isEdit
                ? VARIETIES.confirmSave.editText(name(step.values))
                : VARIETIES.confirmSave.addText(name(step.values))}
          </p>
        )}
      </Dialog>

      <Dialog
        open={step.kind === 'result'}
        onOpenChange={(o) => {
          if (!o) closeResult();
        }}
        size="sm"
        hideClose
        title={step.kind === 'result' ? (step.ok ? step.title : VARIETIES.result.failedTitle) : ''}
        footer={
          <Button onClick={closeResult} autoFocus>
            {VARIETIES.result.ok}
          </Button>
        }
      >
        {step.kind === 'result' && (
          <div className="flex items-start gap-3">
            {step.ok ? (
              <CheckCircle2 className="h-6 w-6 shrink-0 text-brand-600" aria-hidden />
            ) : (
              <XCircle className="h-6 w-6 shrink-0 text-red-600" aria-hidden />
            )}
            <p className="text-sm text-slate-700">{step.text}</p>
          </div>
        )}
      </Dialog>

      <ConflictDialog
        open={step.kind === 'conflict'}
        onOpenChange={(o) => {
          if (!o) setStep({ kind: 'editing' });
        }}
        onReload={() => {
          if (step.kind === 'conflict') reloadTheirs(step.current);
        }}
        onOverwrite={() => {
          if (step.kind !== 'conflict') return;
          setStep({ kind: 'editing' });
          void persist(step.values, step.current.version);
        }}
      />
    </>
  );
}
