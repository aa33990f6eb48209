import { useEffect, useId, useRef, useState } from 'react';
import { AlertTriangle, FolderUp, Trash2 } from 'lucide-react';
import { EVALUATION_SET_LIMITS, EVALUATION_SET_TEXTS as T } from '../../../common/evaluation-sets';
import { MODEL_TEXTS } from '../../../common/models';
import { MODEL_SCREEN_TEXTS as S } from '../../../common/model-screen-texts';
import { evaluationSetFieldsSchema, type EvaluationSet } from '../../../common/schemas/evaluation-sets';
import { AskDialog } from '../../components/ui/ask-dialog';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { FilePicker } from '../../components/ui/file-picker';
import { applyServerErrors, Form, TextField, useZodForm } from '../../components/ui/form';
import { useToast } from '../../components/ui/toast';
import { useDeleteEvaluationSet, useEvaluationSets, useUploadEvaluationSet } from './api';
import { ProgressBar } from './fields';
import { formatBytes, formatDateTime } from './format';

/** The Models screen's evaluation sets: each with its labels, size and leaks, an upload and a delete. */
export function EvaluationSets() {
  const sets = useEvaluationSets();
  const [uploading, setUploading] = useState(false);
  const [deleting, setDeleting] = useState<EvaluationSet | null>(null);
  const remove = useDeleteEvaluationSet();
  const toast = useToast();
  return (
    <section aria-labelledby="evaluation-sets" className="rounded-2xl border border-slate-200 bg-white p-5">
      <div className="mb-3 flex flex-wrap items-start justify-between gap-3">
        <div className="max-w-3xl">
          <h2 id="evaluation-sets" className="text-lg font-semibold text-slate-900">
            {T.title}
          </h2>
          <p className="mt-1 text-sm text-slate-600">{T.intro}</p>
        </div>
        <Button variant="secondary" onClick={() => setUploading(true)}>
          <FolderUp className="h-4 w-4" aria-hidden />
          {T.upload}
        </Button>
      </div>
      {sets.isError ? (
        <p role="alert" className="text-sm text-red-700">
          {sets.error.message}
        </p>
      ) : sets.data && sets.data.sets.length === 0 ? (
        <p className="text-sm text-slate-600">{T.empty}</p>
      ) : (
        <ul className="divide-y divide-slate-100" data-testid="evaluation-sets">
          {sets.data?.sets.map((set) => (
            <SetRow key={set.id} set={set} onDelete={() => setDeleting(set)} />
          ))}
        </ul>
      )}
      {uploading && <UploadSetDialog onClose={() => setUploading(false)} />}
      <AskDialog
        open={deleting !== null}
        title={deleting ? T.deleteTitle(deleting.name) : ''}
        text={T.deleteBody}
        keepLabel={MODEL_TEXTS.cancel}
        confirmLabel={T.delete}
        danger
        onKeep={() => setDeleting(null)}
        onConfirm={() => {
          const set = deleting!;
          setDeleting(null);
          remove.mutate(set.id, {
            onSuccess: () => toast.show(T.deleted),
            onError: (err) => toast.show(err.message, { tone: 'error' }),
          });
        }}
      />
    </section>
  );
}

function SetRow({ set, onDelete }: { set: EvaluationSet; onDelete(): void }) {
  const [showPairs, setShowPairs] = useState(false);
  return (
    <li className="py-3 text-sm" data-testid="evaluation-set">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="font-medium text-slate-900">{set.name}</p>
          <p className="text-slate-600">
            {T.photos(set.photoCount)} · {T.labels(set.labels.length)} · {formatBytes(set.sizeBytes)} · sha256 {set.sha256.slice(0, 12)}
          </p>
          <p className="text-slate-500">{T.uploadedBy(set.createdBy, formatDateTime(set.createdAt))}</p>
          <p className="mt-1 text-slate-600">{set.labels.map((l) => `${l.recordName ?? l.label} (${l.photos})`).join(', ')}</p>
        </div>
        <Button variant="secondary" size="sm" onClick={onDelete} aria-label={`${T.delete} ${set.name}`}>
          <Trash2 className="h-4 w-4" aria-hidden />
          {T.delete}
        </Button>
      </div>
      {set.leakCount === 0 ? (
        <p className="mt-1 text-emerald-700">{T.noLeaks}</p>
      ) : (
        <div className="mt-2 rounded-lg bg-amber-50 px-3 py-2 text-amber-900" data-testid="set-leaks">
          <p className="flex items-start gap-2">
            <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
            {T.leaking(set.leakCount)}
          </p>
          <button type="button" className="mt-1 font-medium underline" aria-expanded={showPairs} onClick={() => setShowPairs((v) => !v)}>
            {T.leakPairs}
          </button>
          {showPairs && (
            <ul className="mt-1 list-disc pl-5">
              {set.leaks.map((p) => (
                <li key={p.photoId}>{T.leakPair(p.fileName, p.recordName, p.distance)}</li>
              ))}
            </ul>
          )}
        </div>
      )}
    </li>
  );
}

function UploadSetDialog({ onClose }: { onClose(): void }) {
  const formId = useId();
  const toast = useToast();
  const upload = useUploadEvaluationSet();
  const form = useZodForm(evaluationSetFieldsSchema, { defaultValues: { name: '' } });
  const [file, setFile] = useState<File | null>(null);
  const [fraction, setFraction] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);
  const busy = fraction !== null;

  async function submit(values: { name: string }) {
    if (!file) return setError(T.errors.noFile);
    if (file.size > EVALUATION_SET_LIMITS.maxBytes) return setError(T.errors.tooLarge);
    abort.current = new AbortController();
    const signal = abort.current.signal;
    setError(null);
    setFraction(0);
    try {
      const set = await upload.mutateAsync({ name: values.name, file, onProgress: setFraction, signal });
      toast.show(T.uploaded(set.name, set.photoCount));
      onClose();
    } catch (err) {
      if ((err as Error).name === 'AbortError') return;
      if (!applyServerErrors(form, err) || !(err as { fields?: Record<string, string> }).fields?.name) setError((err as Error).message);
    } finally {
      if (!signal.aborted) setFraction(null);
    }
  }

  const close = () => {
    abort.current?.abort();
    onClose();
  };
  return (
    <Dialog
      open
      onOpenChange={(o) => {
        if (!o) close();
      }}
      title={T.uploadTitle}
      description={T.uploadHelp}
      size="md"
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            {MODEL_TEXTS.cancel}
          </Button>
          <Button type="submit" form={formId} disabled={busy}>
            <FolderUp className="h-4 w-4" aria-hidden />
            {T.save}
          </Button>
        </>
      }
    >
      <Form form={form} id={formId} onSubmit={submit} className="space-y-4">
        <fieldset disabled={busy} className="space-y-4">
          <TextField name="name" label={T.name} maxLength={EVALUATION_SET_LIMITS.maxNameLength} />
          <FilePicker
            label={T.file}
            accept=".zip,application/zip"
            file={file}
            testId="evaluation-set-file"
            chosenText={(f) => S.form.chosen(f.name, formatBytes(f.size))}
            onFile={(f) => {
              setFile(f);
              setError(null);
            }}
          />
        </fieldset>
        {fraction !== null && (
          <ProgressBar
            label={T.uploadTitle}
            fraction={fraction < 1 ? fraction : null}
            text={fraction < 1 ? S.form.sending(Math.round(fraction * 100)) : T.takingIn}
          />
        )}
        {error && (
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
            {error}
          </p>
        )}
      </Form>
    </Dialog>
  );
}
