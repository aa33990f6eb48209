import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { CatalogKind } from '../../../common/catalog';
import { CATALOG_LABELS, UPLOAD_TEXTS } from '../../../common/catalog-texts';
import { catalogCreateSchema, catalogUpdateSchema, type CatalogEntryDetail } from '../../../common/schemas/catalog';
import { Button } from '../../components/ui/button';
import { ConflictDialog } from '../../components/ui/conflict-dialog';
import { Dialog } from '../../components/ui/dialog';
import { FieldError, Form, applyServerErrors, useKeepTouchedFields, useZodForm } from '../../components/ui/form';
import { Spinner } from '../../components/ui/spinner';
import { useToast } from '../../components/ui/toast';
import { ApiError } from '../../lib/api';
import { discardStaged, photoSettingsQuery, useCatalogEntry, useSaveEntry } from './api';
import { useQueryClient } from '@tanstack/react-query';
import { CurrentImages, toggled } from './current-images';
import { usePhotoOrder } from './photo-order';
import { EntryFields, toFormValues, type FormValues } from './entry-fields';
import { isDuplicateName, useSameNameQuestion } from './same-name';
import { PENDING_PREFIX, UploadBatch, useUploadBatch } from './upload-batch';
import { settlementOf } from './upload-stats';
import { CloseAskDialog, SaveQueuedNotice, SaveStoppedAlert, type CloseAsk } from './upload-wait';
import { Uploader } from './uploader';
import { dropDraft, useDraft, useDraftAutosave } from './draft';
import { DraftOffer, MissingFilesNote } from './draft-offer';
import type { Draft } from '../../../common/schemas/drafts';
import { useSentForReview } from '../../components/review/use-sent-for-review';
import { TranslateButton } from '../../components/translations/translate-button';

export type FormTarget = { mode: 'add' } | { mode: 'edit'; id: string };

/** The add/edit dialog of one kind. Edit waits for the entry, then keeps following it live. */
export function EntryFormDialog({
  kind,
  target,
  onClose,
  onTranslate,
}: {
  kind: CatalogKind;
  target: FormTarget | null;
  onClose(): void;
  onTranslate(id: string): void;
}) {
  const editId = target?.mode === 'edit' ? target.id : null;
  const detail = useCatalogEntry(kind, editId);
  // An entry cached from before is read again first: the form edits the version saved since
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
        title={kind.texts.editTitle}
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
    <EntryForm
      key={editId ?? 'new'}
      kind={kind}
      entry={target.mode === 'edit' ? detail.data! : null}
      onClose={onClose}
      onTranslate={onTranslate}
    />
  );
}

function EntryForm({
  kind,
  entry,
  onClose,
  onTranslate,
}: {
  kind: CatalogKind;
  entry: CatalogEntryDetail | null;
  onClose(): void;
  onTranslate(id: string): void;
}) {
  const isEdit = entry !== null;
  const formId = useId();
  const toast = useToast();
  const sentForReview = useSentForReview();
  const save = useSaveEntry(kind);
  const queryClient = useQueryClient();
  const [batch] = useState(
    () =>
      new UploadBatch(kind, {
        entryId: entry?.id ?? null,
        discard: (ids) => void discardStaged(kind, ids),
        sizing: () => queryClient.fetchQuery(photoSettingsQuery),
      }),
  );
  const batchVersion = useUploadBatch(batch);
  const schema = useMemo(() => (isEdit ? catalogUpdateSchema(kind).omit({ version: true }) : catalogCreateSchema(kind)), [isEdit, kind]);
  const initial = useMemo(() => toFormValues(entry), []); // eslint-disable-line react-hooks/exhaustive-deps
  const form = useZodForm(schema, { defaultValues: initial });

  // A new entry is kept as the account's draft; one left from before is offered first.
  const draft = useDraft(kind, !isEdit);
  const [draftChoice, setDraftChoice] = useState<'ask' | 'decided'>('ask');
  const offer = !isEdit && draftChoice === 'ask' && draft.data ? draft.data : null;
  const autosave = useDraftAutosave({
    kind,
    form: form as never,
    batch,
    active: !isEdit && !offer && (draftChoice === 'decided' || draft.isFetched),
  });
  function continueDraft(d: Draft) {
    form.reset({ ...toFormValues(null), ...d.fields });
    batch.restore(d.photos);
    setDraftChoice('decided');
  }
  function startOver(d: Draft) {
    const ids = d.photos.map((p) => p.id).filter((id): id is string => id !== null);
    if (ids.length > 0) void discardStaged(kind, ids);
    void dropDraft(kind);
    setDraftChoice('decided');
  }

  // The version this form edits moves only when the user reloads a newer one (409 → Reload).
  const [baseVersion, setBaseVersion] = useState(entry?.version);
  const [conflict, setConflict] = useState<{ values: FormValues; currentVersion: number } | null>(null);
  // The server refused a name another entry has: the user may save it anyway.
  const sameName = useSameNameQuestion(kind, (values, version) => void persist(values, version));
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

  const photoOrder = usePhotoOrder({
    kind,
    entry: current,
    version: baseVersion,
    onVersion: setBaseVersion,
    onSentForReview: sentForReview,
  });
  const existing = photoOrder.ordered;
  const kept = useMemo(() => existing.filter((i) => !removed.has(i.id)), [existing, removed]);
  const doneVersion = batch.doneVersion;
  const itemsVersion = batch.itemsVersion;
  // The form holds every chosen photo, uploaded or not (placeholders for the rest), so Save
  // checks how many there are at once; the real ids replace them before anything is sent.
  const chosenIds = useMemo(() => batch.chosenIds(), [batch, doneVersion, itemsVersion]); // eslint-disable-line react-hooks/exhaustive-deps
  const imageIds = useMemo(() => [...kept.map((i) => i.id), ...chosenIds], [kept, chosenIds]);
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
    if (!saved.current && !isEdit && !offer) {
      autosave.pause();
      void autosave.settle().then(() => dropDraft(kind));
    }
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
    // The save removes the draft: a draft still on its way must not bring it back.
    autosave.pause();
    await autosave.settle();
    try {
      const result = entry
        ? await save.mutateAsync({ id: entry.id, values: { ...values, version: version! } })
        : await save.mutateAsync({ id: null, values });
      saved.current = true;
      batch.close();
      // Sent for review (202): the change holds the photos; the draft goes as after a save.
      if (!sentForReview(result)) toast.show(isEdit ? kind.texts.updateSuccess : kind.texts.createSuccess);
      else if (!isEdit) void dropDraft(kind);
      onClose();
    } catch (err) {
      if (isDuplicateName(err)) {
        sameName.ask(values, version);
        autosave.resume();
        return;
      }
      if (err instanceof ApiError && err.code === 'VERSION_CONFLICT') {
        const currentVersion = Number((err.body as { currentVersion?: number } | undefined)?.currentVersion);
        setConflict({ values, currentVersion });
        return;
      }
      if (!applyServerErrors(form as never, err)) setSaveError(`${kind.texts.saveErrorPrefix}${(err as Error).message}`);
      autosave.resume();
    }
  }

  function onSubmit(values: FormValues) {
    const now = settlementOf(batch.items);
    if (now.unsettled > 0) {
      queueSave();
      return;
    }
    if (now.failed > 0) {
      setUploadError(UPLOAD_TEXTS.failedUploads(now.failed));
      return;
    }
    // The form's ids trail the batch by a render: a file still without its id there waits too.
    if (values.imageIds.some((id) => id.startsWith(PENDING_PREFIX))) {
      queueSave();
      return;
    }
    void persist(values, baseVersion);
  }

  function queueSave() {
    setUploadError(null);
    setSaveStopped(false);
    setSaveQueued(true);
  }

  const submitNow = useRef<() => void>(() => {});
  submitNow.current = () => {
    void form.handleSubmit((v) => onSubmit(v as FormValues))();
  };
  // The batch's own item states decide, here and in onSubmit alike: had one read the stats, a
  // save could queue and submit again and again without yielding to the timer that refreshes
  // them. The last upload may have finished after this render, whose ids the effect above put
  // into the form, so the form gets every uploaded id again just before the save.
  useEffect(() => {
    if (!saveQueued) return;
    const now = settlementOf(batch.items);
    if (now.unsettled > 0) return;
    setSaveQueued(false);
    if (now.failed > 0) {
      setSaveStopped(true);
      return;
    }
    form.setValue('imageIds', [...kept.map((i) => i.id), ...batch.uploadedIds()], { shouldDirty: true });
    submitNow.current();
  }, [batch, batchVersion, saveQueued, form, kept]);
  useEffect(() => {
    if (saveStopped && settlementOf(batch.items).failed === 0) setSaveStopped(false);
  }, [saveStopped, batch, batchVersion]);
  const failedNames = saveStopped ? batch.items.filter((i) => i.status === 'failed').map((i) => i.name) : [];

  const imageError = form.formState.errors.imageIds as { message?: string; root?: { message?: string } } | undefined;
  const imageErrorText = imageError?.message ?? imageError?.root?.message;
  const title = isEdit ? kind.texts.editTitle : kind.texts.addTitle;

  return (
    <>
      <Dialog
        open
        onOpenChange={(o) => {
          if (!o) requestClose();
        }}
        title={title}
        size="lg"
        footer={
          <>
            {saveQueued && <SaveQueuedNotice busy={busy} done={stats.done} count={stats.count} onStop={() => setSaveQueued(false)} />}
            {saveStopped && failedNames.length > 0 && (
              <SaveStoppedAlert
                failedNames={failedNames}
                onRetry={() => {
                  batch.retryFailed();
                  queueSave();
                }}
              />
            )}
            {entry && (
              <TranslateButton
                disabled={save.isPending}
                dirty={() => form.formState.isDirty || batch.stats.count > 0}
                onTranslate={() => onTranslate(entry.id)}
              />
            )}
            <Button variant="secondary" onClick={requestClose} disabled={save.isPending}>
              {CATALOG_LABELS.cancel}
            </Button>
            {/* While photos upload, Save checks the form now and, when it passes, waits for them. */}
            <Button type="submit" form={formId} disabled={save.isPending || saveQueued || photoOrder.busy}>
              {save.isPending ? CATALOG_LABELS.saving : CATALOG_LABELS.save}
            </Button>
          </>
        }
      >
        <Form form={form as never} id={formId} onSubmit={(v) => onSubmit(v as FormValues)} className="space-y-4">
          {offer && <DraftOffer draft={offer} onContinue={() => continueDraft(offer)} onStartOver={() => startOver(offer)} />}
          <EntryFields kind={kind} entryId={entry?.id ?? null} />

          <section aria-label={CATALOG_LABELS.images} className="space-y-3">
            <div className="flex items-baseline justify-between">
              <h3 className="text-sm font-medium text-slate-700">{CATALOG_LABELS.images}</h3>
              <span className="text-xs text-slate-500" data-testid="image-count">
                {imageIds.length} / {kind.maxImages}
                {!isEdit && ` · at least ${kind.minImagesOnCreate}`}
              </span>
            </div>
            {isEdit && existing.length > 0 && (
              <CurrentImages
                name={current?.name ?? ''}
                images={existing}
                removed={removed}
                {...photoOrder.controls}
                onToggle={(id) => setRemoved((prev) => toggled(prev, id))}
              />
            )}
            {isEdit && <p className="text-sm font-medium text-slate-700">{CATALOG_LABELS.newImages}</p>}
            <MissingFilesNote batch={batch} />
            <Uploader
              batch={batch}
              capacity={capacity}
              disabled={save.isPending}
              onTooMany={() => form.setError('imageIds', { type: 'max', message: kind.texts.maxImages })}
              onRemove={(key) => {
                const id = batch.remove(key);
                if (id) void discardStaged(kind, [id]);
              }}
            />
            <FieldError id={`${formId}-images-error`} message={imageErrorText} />
            {uploadError && (
              <p role="alert" className="text-sm text-red-600">
                {uploadError}
              </p>
            )}
          </section>
          {saveError && (
            <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
              {saveError}
            </p>
          )}
        </Form>
      </Dialog>

      <CloseAskDialog
        ask={closeAsk}
        busy={busy}
        uploaded={batch.uploadedIds().length}
        onKeep={() => setCloseAsk(null)}
        onClose={() => {
          setCloseAsk(null);
          finish();
        }}
      />

      {sameName.dialog}

      <ConflictDialog
        open={conflict !== null}
        onOpenChange={(o) => {
          if (!o) setConflict(null);
        }}
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
        }}
      />
    </>
  );
}
