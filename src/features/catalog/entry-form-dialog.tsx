import { useEffect, useId, useMemo, useRef, useState, type TextareaHTMLAttributes } from 'react';
import { useFormContext } from 'react-hook-form';
import type { CatalogKind } from '../../../common/catalog';
import { CATALOG_LABELS, UPLOAD_TEXTS } from '../../../common/catalog-texts';
import { can } from '../../../common/permissions';
import { catalogCreateSchema, catalogUpdateSchema, type CatalogEntryDetail } from '../../../common/schemas/catalog';
import { Button } from '../../components/ui/button';
import { CheckboxField, CheckboxGroupField } from '../../components/ui/choice-fields';
import { cn } from '../../components/ui/cn';
import { ConflictDialog } from '../../components/ui/conflict-dialog';
import { Dialog } from '../../components/ui/dialog';
import { FieldError, Form, TextField, applyServerErrors, useKeepTouchedFields, useZodForm } from '../../components/ui/form';
import { Spinner } from '../../components/ui/spinner';
import { useToast } from '../../components/ui/toast';
import { ApiError } from '../../lib/api';
import { useSession } from '../../lib/session';
import { discardStaged, useAffectedPartOptions, useCatalogEntry, useSaveEntry } from './api';
import { CurrentImages } from './current-images';
import { UploadBatch, useUploadBatch } from './upload-batch';
import { Uploader } from './uploader';

export type FormTarget = { mode: 'add' } | { mode: 'edit'; id: string };

interface FormValues {
  name: string;
  scientificName: string;
  localName: string;
  affectedParts: string[];
  isTrainingClass: boolean;
  description: string;
  cause: string;
  symptoms: string;
  treatments: string;
  imageIds: string[];
}

function toFormValues(entry: CatalogEntryDetail | null): FormValues {
  return {
    name: entry?.name ?? '',
    scientificName: entry?.scientificName ?? '',
    localName: entry?.localName ?? '',
    affectedParts: entry?.affectedParts ?? [],
    isTrainingClass: entry?.isTrainingClass ?? false,
    description: entry?.description ?? '',
    cause: entry?.cause ?? '',
    symptoms: entry?.symptoms ?? '',
    treatments: entry?.treatments ?? '',
    imageIds: entry?.images.map((i) => i.id) ?? [],
  };
}

function TextAreaField({ name, label, rows = 3, ...rest }: { name: keyof FormValues; label: string; rows?: number } & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'name'>) {
  const { register, getFieldState, formState } = useFormContext<FormValues>();
  const id = useId();
  const { error } = getFieldState(name, formState);
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">{label}</label>
      <textarea id={id} rows={rows} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined}
        className={cn('block w-full rounded-lg border bg-white px-3 py-2 text-sm shadow-sm outline-none transition focus:ring-2',
          error ? 'border-red-400 focus:ring-red-200' : 'border-slate-300 focus:border-brand-600 focus:ring-brand-100')}
        {...rest} {...register(name)} />
      <FieldError id={`${id}-error`} message={error?.message} />
    </div>
  );
}

/** The add/edit dialog of one kind. Edit waits for the entry, then keeps following it live. */
export function EntryFormDialog({ kind, target, onClose }: { kind: CatalogKind; target: FormTarget | null; onClose(): void }) {
  const editId = target?.mode === 'edit' ? target.id : null;
  const detail = useCatalogEntry(kind, editId);
  if (!target) return null;
  if (target.mode === 'edit' && !detail.data) {
    return (
      <Dialog open onOpenChange={(o) => { if (!o) onClose(); }} title={kind.texts.editTitle} size="lg">
        {detail.isError ? <p role="alert" className="text-sm text-red-600">{detail.error.message}</p> : <div className="flex justify-center py-10"><Spinner /></div>}
      </Dialog>
    );
  }
  return <EntryForm key={editId ?? 'new'} kind={kind} entry={target.mode === 'edit' ? detail.data! : null} onClose={onClose} />;
}

type CloseAsk = null | 'uploading' | 'discard';

function EntryForm({ kind, entry, onClose }: { kind: CatalogKind; entry: CatalogEntryDetail | null; onClose(): void }) {
  const isEdit = entry !== null;
  const formId = useId();
  const toast = useToast();
  const save = useSaveEntry(kind);
  const { session } = useSession();
  const superAdmin = can(session?.user.role, 'trainingData.export');
  const parts = useAffectedPartOptions(kind.affectedParts);
  const [batch] = useState(() => new UploadBatch(kind));
  const batchVersion = useUploadBatch(batch);
  const schema = useMemo(() => (isEdit ? catalogUpdateSchema(kind).omit({ version: true }) : catalogCreateSchema(kind)), [isEdit, kind]);
  const initial = useMemo(() => toFormValues(entry), []); // eslint-disable-line react-hooks/exhaustive-deps
  const form = useZodForm(schema, { defaultValues: initial });

  // The version this form edits moves only when the user reloads a newer one (409 → Reload).
  const [baseVersion, setBaseVersion] = useState(entry?.version);
  const [conflict, setConflict] = useState<{ values: FormValues; currentVersion: number } | null>(null);
  const [closeAsk, setCloseAsk] = useState<CloseAsk>(null);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);
  // Save pressed while photos upload: waiting saves by itself once they are all done; it stops,
  // naming the failed files, when any fails (SPEC: nothing is lost by walking away).
  const [saveQueued, setSaveQueued] = useState(false);
  const [saveStopped, setSaveStopped] = useState(false);
  const [removed, setRemoved] = useState<Set<string>>(() => new Set());
  const saved = useRef(false);

  // Live: someone else's save updates the untouched fields; the touched ones stay.
  const live = useCatalogEntry(kind, entry?.id ?? null);
  const current = live.data ?? entry;
  const serverValues = useMemo(() => (isEdit && live.data ? toFormValues(live.data) : undefined), [isEdit, live.data]);
  useKeepTouchedFields(form, serverValues);

  const existing = useMemo(() => current?.images ?? [], [current]);
  const kept = useMemo(() => existing.filter((i) => !removed.has(i.id)), [existing, removed]);
  const doneVersion = batch.doneVersion;
  const newIds = useMemo(() => batch.uploadedIds(), [batch, doneVersion]); // eslint-disable-line react-hooks/exhaustive-deps
  const imageIds = useMemo(() => [...kept.map((i) => i.id), ...newIds], [kept, newIds]);
  useEffect(() => {
    form.setValue('imageIds', imageIds, { shouldDirty: true, shouldValidate: form.formState.isSubmitted });
    setUploadError(null);
  }, [form, imageIds]);

  const stats = batch.stats;
  const busy = stats.count - stats.done - stats.failed;
  const capacity = kind.maxImages - kept.length - stats.count;

  function finish() {
    const ids = batch.close();
    if (!saved.current && ids.length > 0) void discardStaged(kind, ids);
    onClose();
  }

  function requestClose() {
    if (save.isPending) return;
    if (batch.stats.count - batch.stats.done - batch.stats.failed > 0) setCloseAsk('uploading');
    else if (batch.uploadedIds().length > 0) setCloseAsk('discard');
    else finish();
  }

  async function persist(values: FormValues, version: number | undefined) {
    setSaveError(null);
    try {
      if (entry) await save.mutateAsync({ id: entry.id, values: { ...values, version: version! } });
      else await save.mutateAsync({ id: null, values });
      saved.current = true;
      batch.close();
      toast.show(isEdit ? kind.texts.updateSuccess : kind.texts.createSuccess);
      onClose();
    } catch (err) {
      if (err instanceof ApiError && err.code === 'VERSION_CONFLICT') {
        const currentVersion = Number((err.body as { currentVersion?: number } | undefined)?.currentVersion);
        setConflict({ values, currentVersion });
        return;
      }
      if (!applyServerErrors(form as never, err)) setSaveError(`${kind.texts.saveErrorPrefix}${(err as Error).message}`);
    }
  }

  function onSubmit(values: FormValues) {
    if (busy > 0) { queueSave(); return; }
    if (stats.failed > 0) { setUploadError(UPLOAD_TEXTS.failedUploads(stats.failed)); return; }
    void persist(values, baseVersion);
  }

  function queueSave() {
    setUploadError(null);
    setSaveStopped(false);
    setSaveQueued(true);
  }

  const submitNow = useRef<() => void>(() => {});
  submitNow.current = () => { void form.handleSubmit((v) => onSubmit(v as FormValues))(); };
  // Runs after the effect above has put the last uploaded ids into the form.
  // The batch's own item states decide (its stats trail them by up to ~120 ms: a retry just
  // pressed must not read as 'still failed').
  useEffect(() => {
    if (!saveQueued) return;
    if (batch.items.some((i) => i.status !== 'done' && i.status !== 'failed')) return;
    setSaveQueued(false);
    if (batch.items.some((i) => i.status === 'failed')) setSaveStopped(true);
    else submitNow.current();
  }, [batch, batchVersion, saveQueued]);
  useEffect(() => { if (saveStopped && stats.failed === 0) setSaveStopped(false); }, [saveStopped, stats.failed]);
  const failedNames = saveStopped ? batch.items.filter((i) => i.status === 'failed').map((i) => i.name) : [];

  const imageError = (form.formState.errors.imageIds as { message?: string; root?: { message?: string } } | undefined);
  const imageErrorText = imageError?.message ?? imageError?.root?.message;
  const title = isEdit ? kind.texts.editTitle : kind.texts.addTitle;

  return (
    <>
      <Dialog open onOpenChange={(o) => { if (!o) requestClose(); }} title={title} size="lg"
        footer={<>
          {saveQueued && (
            <div role="status" data-testid="save-queued" className="flex w-full flex-wrap items-center gap-3 rounded-lg bg-brand-50 px-3 py-2 text-sm text-brand-800">
              <Spinner className="h-4 w-4" />
              <span className="flex-1">{UPLOAD_TEXTS.saveWhenUploaded(busy)} <span className="tabular-nums text-brand-700">({UPLOAD_TEXTS.total(stats.done, stats.count)})</span></span>
              <Button variant="ghost" size="sm" onClick={() => setSaveQueued(false)}>{UPLOAD_TEXTS.dontWait}</Button>
            </div>
          )}
          {saveStopped && failedNames.length > 0 && (
            <div role="alert" data-testid="save-stopped" className="w-full space-y-2 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
              <p>{UPLOAD_TEXTS.saveStopped(failedNames.length)}</p>
              <ul className="list-disc pl-5">{failedNames.slice(0, 20).map((n, i) => <li key={i} className="break-all">{n}</li>)}{failedNames.length > 20 && <li>…</li>}</ul>
              <Button variant="secondary" size="sm" onClick={() => { batch.retryFailed(); queueSave(); }}>{UPLOAD_TEXTS.retryAndSave}</Button>
            </div>
          )}
          <Button variant="secondary" onClick={requestClose} disabled={save.isPending}>{CATALOG_LABELS.cancel}</Button>
          {/* While photos upload, Save queues the save instead of checking the form now. */}
          <Button type="submit" form={formId} disabled={save.isPending || saveQueued}
            onClick={(e) => { if (busy > 0) { e.preventDefault(); queueSave(); } }}>
            {save.isPending ? CATALOG_LABELS.saving : CATALOG_LABELS.save}
          </Button>
        </>}>
        <Form form={form as never} id={formId} onSubmit={(v) => onSubmit(v as FormValues)} className="space-y-4">
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <TextField name="name" label={CATALOG_LABELS.name} autoComplete="off" />
            <TextField name="scientificName" label={CATALOG_LABELS.scientificName} autoComplete="off" className="[&_input]:italic" />
            <TextField name="localName" label={CATALOG_LABELS.localName} hint={<p className="mt-1 text-xs text-slate-500">{CATALOG_LABELS.localNameHint}</p>} autoComplete="off" className="sm:col-span-2" />
          </div>
          {kind.affectedParts && (
            <div>
              <CheckboxGroupField name="affectedParts" label={CATALOG_LABELS.affectedParts} options={(parts.data ?? []).map((value) => ({ value }))}
                disabled={parts.isLoading} staleSuffix={CATALOG_LABELS.removedOption} />
              <p className="mt-1 text-xs text-slate-500">{CATALOG_LABELS.affectedPartsHint}</p>
            </div>
          )}
          {kind.trainingClasses && superAdmin && (
            <CheckboxField name="isTrainingClass" label={CATALOG_LABELS.trainingClass} hint={CATALOG_LABELS.trainingClassHint} />
          )}
          <TextAreaField name="description" label={CATALOG_LABELS.description} />
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <TextAreaField name="cause" label={CATALOG_LABELS.cause} />
            <TextAreaField name="symptoms" label={CATALOG_LABELS.symptoms} />
          </div>
          <TextAreaField name="treatments" label={CATALOG_LABELS.treatments} />

          <section aria-label={CATALOG_LABELS.images} className="space-y-3">
            <div className="flex items-baseline justify-between">
              <h3 className="text-sm font-medium text-slate-700">{CATALOG_LABELS.images}</h3>
              <span className="text-xs text-slate-500" data-testid="image-count">{imageIds.length} / {kind.maxImages}{!isEdit && ` · at least ${kind.minImagesOnCreate}`}</span>
            </div>
            {isEdit && existing.length > 0 && (
              <CurrentImages name={current?.name ?? ''} images={existing} removed={removed}
                onToggle={(id) => setRemoved((prev) => { const next = new Set(prev); if (next.has(id)) next.delete(id); else next.add(id); return next; })} />
            )}
            {isEdit && <p className="text-sm font-medium text-slate-700">{CATALOG_LABELS.newImages}</p>}
            <Uploader batch={batch} capacity={capacity} disabled={save.isPending}
              onTooMany={() => form.setError('imageIds', { type: 'max', message: kind.texts.maxImages })}
              onRemove={(key) => { const id = batch.remove(key); if (id) void discardStaged(kind, [id]); }} />
            <FieldError id={`${formId}-images-error`} message={imageErrorText} />
            {uploadError && <p role="alert" className="text-sm text-red-600">{uploadError}</p>}
          </section>
          {saveError && <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">{saveError}</p>}
        </Form>
      </Dialog>

      <Dialog open={closeAsk !== null} onOpenChange={(o) => { if (!o) setCloseAsk(null); }} size="sm"
        title={closeAsk === 'uploading' ? UPLOAD_TEXTS.closeTitle : UPLOAD_TEXTS.discardTitle}
        footer={<>
          <Button variant="secondary" onClick={() => setCloseAsk(null)}>{closeAsk === 'uploading' ? UPLOAD_TEXTS.keepUploading : UPLOAD_TEXTS.keepEditing}</Button>
          <Button variant="danger" onClick={() => { setCloseAsk(null); finish(); }}>{UPLOAD_TEXTS.closeAnyway}</Button>
        </>}>
        <p className="text-sm text-slate-700">
          {closeAsk === 'uploading' ? UPLOAD_TEXTS.closeMessage(busy) : UPLOAD_TEXTS.discardMessage(batch.uploadedIds().length)}
        </p>
      </Dialog>

      <ConflictDialog open={conflict !== null} onOpenChange={(o) => { if (!o) setConflict(null); }}
        onReload={() => {
          if (!conflict) return;
          setBaseVersion(conflict.currentVersion);
          setConflict(null);
          void live.refetch();
        }}
        onOverwrite={() => {
          if (!conflict) return;
          const { values, currentVersion } = conflict;
          setBaseVersion(currentVersion);
          setConflict(null);
          void persist({ ...values, imageIds: form.getValues('imageIds') as string[] }, currentVersion);
        }} />
    </>
  );
}

