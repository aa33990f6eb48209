import { useRef, useState } from 'react';
import { CheckCircle2, FileText } from 'lucide-react';
import { Link } from 'react-router';
import type { Language, TranslationImportPreview, TranslationImportReport } from '../../../common/schemas/languages';
import { IMPORT_TEXTS } from '../../../common/spreadsheets';
import { TRANSLATE_TEXTS } from '../../../common/translate-texts';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { UploadProgress } from '../../components/ui/upload-progress';
import { previewTranslationImport, useImportTranslations } from '../../lib/languages';
import { ImportRows } from './import-rows';

const T = TRANSLATE_TEXTS.files;

type Stage =
  | { step: 'choose' }
  | { step: 'sending'; label: string; fraction: number; preview: TranslationImportPreview | null }
  | { step: 'preview'; preview: TranslationImportPreview }
  | { step: 'done'; report: TranslationImportReport };

/**
 * A translators' file for one language: chosen, checked by the server's dry run (every unit's
 * result, nothing saved), then imported: all or nothing by default, or the units without errors.
 */
export function TranslationImportDialog({ language, onClose }: { language: Language | null; onClose(): void }) {
  const [stage, setStage] = useState<Stage>({ step: 'choose' });
  const [file, setFile] = useState<File | null>(null);
  const [onErrors, setOnErrors] = useState<'stop' | 'skip'>('stop');
  const [error, setError] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const runImport = useImportTranslations();
  const lang = language?.code ?? '';
  const progress = (fraction: number) => setStage((s) => (s.step === 'sending' ? { ...s, fraction } : s));

  function close() {
    abort.current?.abort();
    setStage({ step: 'choose' });
    setFile(null);
    setOnErrors('stop');
    setError(null);
    onClose();
  }

  async function run<R>(
    label: string,
    shown: TranslationImportPreview | null,
    work: (signal: AbortSignal) => Promise<R>,
    next: (result: R) => Stage,
  ) {
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setError(null);
    setStage({ step: 'sending', label, fraction: 0, preview: shown });
    try {
      setStage(next(await work(controller.signal)));
    } catch (err) {
      if ((err as Error).name === 'AbortError') return;
      setError((err as Error).message);
      setStage(shown ? { step: 'preview', preview: shown } : { step: 'choose' });
    }
  }

  const check = (chosen: File) =>
    run(
      IMPORT_TEXTS.reading(chosen.name),
      null,
      (signal) => previewTranslationImport(lang, chosen, progress, signal),
      (preview) => ({ step: 'preview', preview }),
    );
  const commit = (preview: TranslationImportPreview) =>
    file &&
    run(
      IMPORT_TEXTS.importing,
      preview,
      (signal) => runImport.mutateAsync({ lang, file, onErrors, onProgress: progress, signal }),
      (report) => ({ step: 'done', report }),
    );

  const preview = stage.step === 'preview' || stage.step === 'sending' ? stage.preview : null;
  const importable = preview ? preview.counts.changed : 0;
  const blocked = preview !== null && preview.counts.error > 0 && onErrors === 'stop';
  const footer =
    stage.step === 'done' ? (
      <Button onClick={close}>{IMPORT_TEXTS.close}</Button>
    ) : (
      <>
        <Button variant="secondary" onClick={close}>
          {IMPORT_TEXTS.cancel}
        </Button>
        {preview && (
          <Button onClick={() => void commit(preview)} disabled={stage.step !== 'preview' || importable === 0 || blocked}>
            {T.importButton(importable)}
          </Button>
        )}
      </>
    );

  return (
    <Dialog
      open={language !== null}
      onOpenChange={(o) => {
        if (!o) close();
      }}
      title={T.importLabel(language?.name ?? '')}
      description={T.importIntro}
      size="xl"
      footer={footer}
    >
      <div className="space-y-5">
        {stage.step !== 'done' && (
          <div className="flex flex-wrap items-center gap-3">
            <input
              ref={input}
              type="file"
              accept={T.accept}
              className="sr-only"
              tabIndex={-1}
              aria-label={IMPORT_TEXTS.chooseFile}
              data-testid="translation-file"
              onChange={(e) => {
                const chosen = e.target.files?.[0];
                e.target.value = '';
                if (!chosen) return;
                setFile(chosen);
                void check(chosen);
              }}
            />
            <Button variant="secondary" onClick={() => input.current?.click()} disabled={stage.step === 'sending'}>
              <FileText className="h-4 w-4" aria-hidden />
              {file ? IMPORT_TEXTS.chooseAnother : IMPORT_TEXTS.chooseFile}
            </Button>
            {file && <span className="text-sm text-slate-600">{file.name}</span>}
          </div>
        )}
        {error && (
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
            {error}
          </p>
        )}
        {stage.step === 'sending' && <UploadProgress label={stage.label} fraction={stage.fraction} uploading={IMPORT_TEXTS.uploading} />}
        {preview && stage.step !== 'done' && (
          <>
            <ImportRows key={`${preview.fileName}:${JSON.stringify(preview.counts)}`} preview={preview} />
            {preview.counts.error > 0 && (
              <fieldset className="space-y-1.5 text-sm">
                <label className="flex items-center gap-2">
                  <input type="radio" name="on-errors" checked={onErrors === 'stop'} onChange={() => setOnErrors('stop')} />
                  {T.stopOnErrors}
                </label>
                <label className="flex items-center gap-2">
                  <input type="radio" name="on-errors" checked={onErrors === 'skip'} onChange={() => setOnErrors('skip')} />
                  {T.skipErrors(preview.counts.error)}
                </label>
                {blocked && <p className="text-amber-800">{T.blocked}</p>}
              </fieldset>
            )}
            {importable === 0 && <p className="text-sm text-slate-600">{T.nothing}</p>}
            {importable > 0 && preview.forReview.length > 0 && (
              <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="import-for-review">
                {T.forReview(preview.forReview.join(', '))}
              </p>
            )}
          </>
        )}
        {stage.step === 'done' && (
          <div className="flex items-start gap-3 rounded-lg bg-green-50 p-4 text-green-900" role="status">
            <CheckCircle2 className="mt-0.5 h-5 w-5 shrink-0" aria-hidden />
            <div className="space-y-1">
              {(stage.report.changed > 0 || stage.report.forReview.length === 0) && (
                <p className="font-semibold">{T.done(stage.report.changed)}</p>
              )}
              {stage.report.forReview.map((sent) => (
                <p key={sent.id} className="font-semibold">
                  {T.sentForReview(sent.label, sent.units)}{' '}
                  <Link to={`/dashboard/review/${sent.id}`} className="font-medium text-green-800 underline">
                    {T.openReview}
                  </Link>
                </p>
              ))}
              <p className="text-sm">{T.doneDetail(stage.report.unchanged, stage.report.skipped)}</p>
            </div>
          </div>
        )}
      </div>
    </Dialog>
  );
}
