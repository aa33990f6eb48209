import { useRef, useState } from 'react';
import { CheckCircle2, FileSpreadsheet } from 'lucide-react';
import type { ImportMapping, ImportOnErrors, ImportPreview, ImportReport } from '../../../common/schemas/spreadsheets';
import { IMPORT_TEXTS } from '../../../common/spreadsheets';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { useSentForReview } from '../../components/review/use-sent-for-review';
import { UploadProgress } from '../../components/ui/upload-progress';
import { previewImport, useRunImport } from './api';
import { ColumnMapping, ImportRows } from './import-preview';

const T = IMPORT_TEXTS;

type Stage =
  | { step: 'choose' }
  | { step: 'sending'; label: string; fraction: number; preview: ImportPreview | null }
  | { step: 'preview'; preview: ImportPreview }
  | { step: 'done'; report: ImportReport };

/**
 * Import varieties from a spreadsheet: choose a file, see every row's result (the server's dry
 * run, nothing saved), adjust the columns, choose what happens to rows with errors, import.
 */
export function ImportDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const [stage, setStage] = useState<Stage>({ step: 'choose' });
  const [file, setFile] = useState<File | null>(null);
  const [mapping, setMapping] = useState<ImportMapping>({});
  const [onErrors, setOnErrors] = useState<ImportOnErrors>('stop');
  const [error, setError] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const runImport = useRunImport();
  const sentForReview = useSentForReview();

  function reset() {
    abort.current?.abort();
    setStage({ step: 'choose' });
    setFile(null);
    setMapping({});
    setOnErrors('stop');
    setError(null);
  }

  function close() {
    reset();
    onClose();
  }

  async function check(chosen: File, nextMapping: ImportMapping, shown: ImportPreview | null) {
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setError(null);
    setStage({ step: 'sending', label: T.reading(chosen.name), fraction: 0, preview: shown });
    try {
      const preview = await previewImport(
        { file: chosen, mapping: nextMapping },
        (fraction) => setStage((s) => (s.step === 'sending' ? { ...s, fraction } : s)),
        controller.signal,
      );
      setStage({ step: 'preview', preview });
    } catch (err) {
      if ((err as Error).name === 'AbortError') return;
      setError((err as Error).message);
      setStage(shown ? { step: 'preview', preview: shown } : { step: 'choose' });
    }
  }

  async function commit(preview: ImportPreview) {
    if (!file) return;
    const controller = new AbortController();
    abort.current = controller;
    setError(null);
    setStage({ step: 'sending', label: T.importing, fraction: 0, preview });
    try {
      const report = await runImport.mutateAsync({
        request: { file, mapping, onErrors },
        onProgress: (fraction) => setStage((s) => (s.step === 'sending' ? { ...s, fraction } : s)),
        signal: controller.signal,
      });
      // Sent for review (202): nothing was imported yet; closed as after an import.
      if (sentForReview(report)) close();
      else setStage({ step: 'done', report: report as ImportReport });
    } catch (err) {
      if ((err as Error).name === 'AbortError') return;
      setError((err as Error).message);
      setStage({ step: 'preview', preview });
    }
  }

  const preview = stage.step === 'preview' ? stage.preview : stage.step === 'sending' ? stage.preview : null;
  const importable = preview ? preview.counts.new + preview.counts.update : 0;
  const blockedByErrors = preview !== null && preview.counts.error > 0 && onErrors === 'stop';

  const footer =
    stage.step === 'done' ? (
      <Button onClick={close}>{T.close}</Button>
    ) : (
      <>
        <Button variant="secondary" onClick={close}>
          {T.cancel}
        </Button>
        {preview && (
          <Button onClick={() => void commit(preview)} disabled={stage.step !== 'preview' || importable === 0 || blockedByErrors}>
            {T.importButton(importable)}
          </Button>
        )}
      </>
    );

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        if (!o) close();
      }}
      title={T.title}
      description={T.intro}
      size="xl"
      footer={footer}
    >
      <div className="space-y-5">
        {stage.step !== 'done' && (
          <div className="flex flex-wrap items-center gap-3">
            <input
              ref={input}
              type="file"
              accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              className="sr-only"
              tabIndex={-1}
              aria-label={T.chooseFile}
              onChange={(e) => {
                const chosen = e.target.files?.[0];
                e.target.value = '';
                if (!chosen) return;
                setFile(chosen);
                setMapping({});
                void check(chosen, {}, null);
              }}
            />
            <Button variant="secondary" onClick={() => input.current?.click()} disabled={stage.step === 'sending'}>
              <FileSpreadsheet className="h-4 w-4" aria-hidden />
              {file ? T.chooseAnother : T.chooseFile}
            </Button>
            {file && <span className="text-sm text-slate-600">{file.name}</span>}
          </div>
        )}
        {error && (
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
            {error}
          </p>
        )}
        {stage.step === 'sending' && <UploadProgress label={stage.label} fraction={stage.fraction} uploading={T.uploading} />}
        {preview && stage.step !== 'done' && (
          <>
            <ColumnMapping
              preview={preview}
              disabled={stage.step === 'sending'}
              onChange={(next) => {
                setMapping(next);
                if (file) void check(file, next, preview);
              }}
            />
            <ImportRows key={`${preview.fileName}:${JSON.stringify(preview.counts)}`} preview={preview} />
            {preview.counts.error > 0 && (
              <fieldset className="space-y-1.5 text-sm">
                <label className="flex items-center gap-2">
                  <input type="radio" name="on-errors" checked={onErrors === 'skip'} onChange={() => setOnErrors('skip')} />
                  {T.skipErrors(preview.counts.error)}
                </label>
                <label className="flex items-center gap-2">
                  <input type="radio" name="on-errors" checked={onErrors === 'stop'} onChange={() => setOnErrors('stop')} />
                  {T.stopOnErrors}
                </label>
              </fieldset>
            )}
            {importable === 0 && <p className="text-sm text-slate-600">{T.nothingToImport}</p>}
          </>
        )}
        {stage.step === 'done' && (
          <div className="flex items-start gap-3 rounded-lg bg-green-50 p-4 text-green-900" role="status">
            <CheckCircle2 className="mt-0.5 h-5 w-5 shrink-0" aria-hidden />
            <div>
              <p className="font-semibold">{T.done(stage.report.created, stage.report.updated)}</p>
              <p className="text-sm">{T.doneDetail(stage.report.unchanged, stage.report.skipped)}</p>
            </div>
          </div>
        )}
      </div>
    </Dialog>
  );
}
