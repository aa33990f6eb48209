import { useState } from 'react';
import { Upload } from 'lucide-react';
import { MODEL_STAGES, MODEL_TEXTS as T } from '../../../common/models';
import { MODEL_SCREEN_TEXTS as S } from '../../../common/model-screen-texts';
import type { ScannerModel } from '../../../common/schemas/models';
import { Button } from '../../components/ui/button';
import { PageHeader } from '../../components/ui/page-header';
import { Spinner } from '../../components/ui/spinner';
import { useModelsOverview } from './api';
import { MappingDialog, SettingsDialog } from './edit-dialogs';
import { EvaluationSets } from './evaluation-sets';
import { ModelCard, type ModelAction } from './model-card';
import { Publications } from './publications';
import { PublishDialog } from './publish-dialog';
import { StagePanel } from './stage-panel';
import { UploadDialog } from './upload-dialog';

/** Scanner models (super admins): what the farmer app runs, the uploaded models, and the publications. */
export function ModelsPage() {
  const overview = useModelsOverview();
  const [uploading, setUploading] = useState(false);
  const [action, setAction] = useState<{ action: ModelAction; id: string } | null>(null);
  const data = overview.data;
  // The dialog follows the model live (the list's copy), and closes if it is gone.
  const target: ScannerModel | null = action ? (data?.models.find((m) => m.id === action.id) ?? null) : null;
  const close = () => setAction(null);

  return (
    <div className="space-y-6">
      <PageHeader
        title={T.title}
        subtitle={T.intro}
        actions={
          <Button onClick={() => setUploading(true)}>
            <Upload className="h-4 w-4" aria-hidden />
            {T.upload}
          </Button>
        }
      />
      {overview.isPending ? (
        <div className="flex items-center justify-center gap-3 rounded-2xl border border-slate-200 bg-white p-12 text-slate-600">
          <Spinner />
        </div>
      ) : overview.isError || !data ? (
        <div className="flex flex-col items-center gap-3 rounded-2xl border border-red-200 bg-red-50 p-8 text-center text-sm text-red-700">
          <p role="alert">{overview.error?.message ?? S.loadFailed}</p>
          <Button variant="secondary" onClick={() => void overview.refetch()}>
            {S.tryAgain}
          </Button>
        </div>
      ) : (
        <>
          <div className="grid grid-cols-1 gap-4 xl:grid-cols-2">
            {MODEL_STAGES.map((stage) => (
              <StagePanel key={stage} stage={stage} overview={data} />
            ))}
          </div>
          <section aria-labelledby="models-list">
            <h2 id="models-list" className="mb-3 text-lg font-semibold text-slate-900">
              {S.list.title}
            </h2>
            {data.models.length === 0 ? (
              <p className="rounded-2xl border border-dashed border-slate-300 bg-white p-8 text-center text-sm text-slate-600">
                {S.list.empty}
              </p>
            ) : (
              <ul className="space-y-3" data-testid="models">
                {data.models.map((m) => (
                  <ModelCard key={m.id} model={m} onAction={(a, model) => setAction({ action: a, id: model.id })} />
                ))}
              </ul>
            )}
          </section>
          <EvaluationSets />
          <Publications publications={data.publications} />
        </>
      )}
      <UploadDialog open={uploading} onClose={() => setUploading(false)} />
      {target && action?.action === 'publish' && <PublishDialog key={target.id} model={target} onClose={close} />}
      {target && action?.action === 'mapping' && <MappingDialog key={target.id} model={target} onClose={close} />}
      {target && action?.action === 'settings' && <SettingsDialog key={target.id} model={target} onClose={close} />}
    </div>
  );
}
