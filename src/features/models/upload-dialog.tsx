import { useEffect, useId, useRef, useState } from 'react';
import { FileSearch, Upload } from 'lucide-react';
import { MODEL_LIMITS, MODEL_STAGES, MODEL_TEXTS as T, type ModelStage } from '../../../common/models';
import { MODEL_SCREEN_TEXTS as S } from '../../../common/model-screen-texts';
import { sameContract, type ModelInspection } from '../../../common/schemas/models';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { Form, useZodForm } from '../../components/ui/form';
import { useToast } from '../../components/ui/toast';
import { inspectModel, useUploadModel, type ModelFiles } from './api';
import { ContractFields, contractOf, settingsValues, uploadFormSchema } from './contract-fields';
import { OptionsField } from '../../components/ui/more-fields';
import { ProgressBar } from './fields';
import { formatBytes } from './format';
import { FilePicker } from '../../components/ui/file-picker';
import { MappingTable, mappingProblems, type LabelTarget } from './mapping-table';
import { ContractTrials, trialOf } from './contract-trials';
import { ModelFacts } from './model-facts';

type Sending = { what: 'check' | 'upload'; fraction: number } | null;
interface Checked {
  stage: ModelStage;
  files: ModelFiles;
  inspection: ModelInspection;
}

const stageOptions = MODEL_STAGES.map((value) => ({ value, label: T.stage[value] }));

/** The files' own faults, before anything is sent. */

function fileProblem(model: File | null, labels: File | null): string | null {
  if (!model) return T.noFile;
  if (model.size > MODEL_LIMITS.maxBytes) return T.tooLarge;
  if (labels && labels.size > MODEL_LIMITS.maxLabelsBytes) return T.labelsTooLarge;
  return null;
}

/** Upload a model: its files and settings, "Check file" (the server reads it), the label mapping, then the upload with its progress. */
export function UploadDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  if (!open) return null;
  return <UploadForm onClose={onClose} />;
}

function UploadForm({ onClose }: { onClose(): void }) {
  const formId = useId();
  const toast = useToast();
  const upload = useUploadModel();
  const form = useZodForm(uploadFormSchema, { defaultValues: { stage: 'disease', ...settingsValues(null) } });
  const stage = form.watch('stage');
  const [model, setModel] = useState<File | null>(null);
  const [labels, setLabels] = useState<File | null>(null);
  const [checked, setChecked] = useState<Checked | null>(null);
  const [mapping, setMapping] = useState<LabelTarget[]>([]);
  const [sending, setSending] = useState<Sending>(null);
  const [error, setError] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  const facts = useRef<HTMLDivElement>(null);
  useEffect(() => () => abort.current?.abort(), []);
  // What the check found is below the settings: bring it into view.
  useEffect(() => {
    if (checked) facts.current?.scrollIntoView?.({ block: 'start', behavior: 'smooth' });
  }, [checked]);

  const [worseConfirmed, setWorseConfirmed] = useState(false);
  const current = checked !== null && checked.stage === stage && checked.files.model === model && checked.files.labels === labels;
  const inspection = checked?.inspection ?? null;
  const rows = inspection?.labels.map((l) => ({ index: l.index, label: l.label, matchedBy: l.matchedBy })) ?? [];
  const progress = (fraction: number) => setSending((s) => (s ? { ...s, fraction } : s));

  function begin(what: 'check' | 'upload'): AbortSignal {
    abort.current?.abort();
    abort.current = new AbortController();
    setError(null);
    setSending({ what, fraction: 0 });
    return abort.current.signal;
  }

  async function check() {
    const problem = fileProblem(model, labels);
    if (problem) {
      setError(problem);
      return;
    }
    const files = { model: model!, labels };
    const signal = begin('check');
    try {
      const result = await inspectModel(stage, files, progress, signal);
      setChecked({ stage, files, inspection: result });
      setWorseConfirmed(false);
      // What the model's metadata states is proposed unless the held-out photos show it clearly worse, else the best way found.
      const best = result.contractSearch?.trials[0];
      const stated = result.metadataContract;
      const statedTrial = stated ? result.contractSearch?.trials.find((t) => sameContract(t.contract, stated)) : undefined;
      const statedHolds = stated && (!best || !statedTrial || best.accuracy - statedTrial.accuracy <= MODEL_LIMITS.contractWorseBy);
      const proposed = statedHolds ? stated : best?.contract;
      if (proposed) {
        form.setValue('scaling', proposed.scaling);
        form.setValue('resize', proposed.resize);
        if (proposed.mean && proposed.std) {
          form.setValue('mean', [...proposed.mean]);
          form.setValue('std', [...proposed.std]);
        }
      }
      // By output index, as the upload sends it.
      const suggested: LabelTarget[] = Array.from({ length: result.labels.length }, () => ({ recordId: null, verdict: null }));
      for (const l of result.labels) suggested[l.index] = { recordId: l.recordId, verdict: l.verdict };
      setMapping(suggested);
    } catch (err) {
      if ((err as Error).name !== 'AbortError') setError((err as Error).message);
    } finally {
      if (!signal.aborted) setSending(null);
    }
  }

  async function submit(values: Parameters<typeof contractOf>[0] & { stage: ModelStage }) {
    if (!checked || !current) {
      setError(fileProblem(model, labels) ?? S.form.checkFirst);
      return;
    }
    const problems = mappingProblems(values.stage, rows, mapping, checked.inspection.records);
    if (problems.length > 0) {
      setError(problems.join(' '));
      return;
    }
    // A way of preparing photos that scored clearly worse than the best is kept only when asked twice.
    const search = checked.inspection.contractSearch;
    const chosen = trialOf(search, values);
    const best = search?.trials[0];
    if (chosen && best && best.accuracy - chosen.accuracy > MODEL_LIMITS.contractWorseBy && !worseConfirmed) {
      setWorseConfirmed(true);
      setError(T.worseContract(chosen.accuracy, best.accuracy));
      return;
    }
    const signal = begin('upload');
    try {
      const saved = await upload.mutateAsync({
        meta: { stage: values.stage, ...contractOf(values), mapping, acceptWorseContract: worseConfirmed },
        files: checked.files,
        onProgress: progress,
        signal,
      });
      toast.show(S.form.uploaded(saved.version));
      onClose();
    } catch (err) {
      if ((err as Error).name !== 'AbortError') setError((err as Error).message);
    } finally {
      if (!signal.aborted) setSending(null);
    }
  }

  const busy = sending !== null;
  const close = () => {
    abort.current?.abort();
    onClose();
  };
  const sendingText =
    sending &&
    (sending.fraction < 1
      ? S.form.sending(Math.round(sending.fraction * 100))
      : sending.what === 'check'
        ? S.form.checking
        : S.form.storing);

  return (
    <Dialog
      open
      onOpenChange={(o) => {
        if (!o) close();
      }}
      title={S.form.uploadTitle}
      description={S.form.uploadIntro}
      size="lg"
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            {T.cancel}
          </Button>
          <Button variant="secondary" onClick={() => void check()} disabled={busy}>
            <FileSearch className="h-4 w-4" aria-hidden />
            {T.check}
          </Button>
          <Button type="submit" form={formId} disabled={busy || !current}>
            <Upload className="h-4 w-4" aria-hidden />
            {T.upload}
          </Button>
        </>
      }
    >
      <Form form={form} id={formId} onSubmit={submit} className="space-y-5">
        <fieldset disabled={busy} className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <OptionsField name="stage" label={S.form.stage} options={stageOptions} className="sm:col-span-2" />
          <FilePicker
            label={S.form.modelFile}
            accept=".tflite,application/octet-stream"
            file={model}
            testId="model-file"
            chosenText={(f) => S.form.chosen(f.name, formatBytes(f.size))}
            onFile={(f) => {
              setModel(f);
              setError(null);
            }}
          />
          <FilePicker
            label={S.form.labelsFile}
            accept=".txt,text/plain"
            file={labels}
            testId="labels-file"
            hint={S.form.labelsHint}
            onFile={(f) => {
              setLabels(f);
              setError(null);
            }}
          />
        </fieldset>
        <ContractFields disabled={busy} />
        {sending && sendingText && (
          <ProgressBar label={S.form.uploadTitle} fraction={sending.fraction < 1 ? sending.fraction : null} text={sendingText} />
        )}
        {error && (
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
            {error}
          </p>
        )}
        {checked && !current && !busy && <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">{S.form.recheck}</p>}
        {inspection && current && (
          <div ref={facts} className="space-y-5">
            <ModelFacts inspection={inspection} />
            {inspection.contractSearch && <ContractTrials search={inspection.contractSearch} stated={inspection.metadataContract} />}
            <section aria-labelledby={`${formId}-mapping`}>
              <h3 id={`${formId}-mapping`} className="text-sm font-semibold text-slate-900">
                {S.mapping.caption}
              </h3>
              <p className="mb-2 text-xs text-slate-600">{S.mapping.intro}</p>
              <MappingTable
                stage={checked.stage}
                rows={rows}
                records={inspection.records}
                value={mapping}
                disabled={busy}
                onChange={(index, target) => setMapping((m) => m.map((t, i) => (i === index ? target : t)))}
              />
            </section>
          </div>
        )}
      </Form>
    </Dialog>
  );
}
