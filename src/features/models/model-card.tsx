import { Link } from 'react-router';
import { AlertTriangle, Download, FileBarChart, ListTree, Send, SlidersHorizontal } from 'lucide-react';
import { MODEL_TEXTS as T } from '../../../common/models';
import { MODEL_SCREEN_TEXTS as S } from '../../../common/model-screen-texts';
import type { ScannerModel } from '../../../common/schemas/models';
import { Button } from '../../components/ui/button';
import { cn } from '../../components/ui/cn';
import { modelFileUrl, reportRoute } from './api';
import { trialOf } from './contract-trials';
import { EvaluateButton, EvaluationStatus } from './evaluation-status';
import { formatBytes, formatDateTime, latestReport, shortSha, unmappedLabels } from './format';

const linkButton =
  'inline-flex h-8 items-center justify-center gap-2 rounded-lg border border-slate-300 bg-white px-3 ' +
  'text-sm font-medium text-slate-700 hover:bg-slate-50 focus-visible:outline-none ' +
  'focus-visible:ring-2 focus-visible:ring-slate-400 focus-visible:ring-offset-1';

/** A model's channels as badges: Live, Pilot with its share. */
export function ChannelBadges({ channels }: { channels: ScannerModel['channels'] }) {
  return (
    <>
      {channels.map((c) => (
        <span
          key={c.channel}
          data-testid={`channel-${c.channel}`}
          className={cn(
            'inline-flex rounded-full px-2 py-0.5 text-xs font-semibold',
            c.channel === 'live' ? 'bg-green-100 text-green-800' : 'bg-sky-100 text-sky-800',
          )}
        >
          {c.channel === 'pilot' ? `${T.channel.pilot} · ${S.stagePanel.share(c.share)}` : T.channel.live}
        </span>
      ))}
    </>
  );
}

export type ModelAction = 'publish' | 'mapping' | 'settings';

/** One uploaded model: what it is, how it did, and what can be done with it. */
export function ModelCard({ model, onAction }: { model: ScannerModel; onAction(action: ModelAction, model: ScannerModel): void }) {
  const headingId = `model-${model.id}`;
  const unmapped = unmappedLabels(model);
  const report = latestReport(model);
  return (
    <li className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm" data-testid="model-card" data-version={model.version}>
      <article aria-labelledby={headingId} className="space-y-3">
        <header className="flex flex-wrap items-center gap-2">
          <h3 id={headingId} className="text-base font-semibold text-slate-900">
            {model.version}
          </h3>
          <span className="text-sm text-slate-600">{T.stage[model.stage]}</span>
          <ChannelBadges channels={model.channels} />
        </header>
        <p className="text-sm text-slate-700">{S.list.uploaded(formatDateTime(model.createdAt), model.createdBy)}</p>
        <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm text-slate-700">
          <div className="flex gap-1">
            <dt className="text-slate-600">{S.list.size}:</dt>
            <dd className="tabular-nums">{formatBytes(model.size)}</dd>
          </div>
          <div className="flex gap-1">
            <dt className="text-slate-600">{S.list.sha256}:</dt>
            <dd>
              <code title={model.sha256} className="text-xs">
                {shortSha(model.sha256)}
              </code>
            </dd>
          </div>
          {model.contractSearch && model.contractSearch.trials[0] && (
            <div className="flex gap-1" data-testid="contract-tried">
              <dt className="text-slate-600">{S.list.contractTried}:</dt>
              <dd>
                {S.list.contractTrial(
                  trialOf(model.contractSearch, model.contract)?.accuracy ?? null,
                  model.contractSearch.trials[0].accuracy,
                  model.contractSearch.photos,
                )}
              </dd>
            </div>
          )}
          <div className="flex flex-wrap items-center gap-1">
            <dt className="text-slate-600">{S.list.labelsTerm}:</dt>
            <dd className="tabular-nums">{model.labels.length}</dd>
            {unmapped.length > 0 && (
              <dd
                className="inline-flex items-center gap-1 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900"
                title={T.refused.unmappedLabels(unmapped)}
                data-testid="labels-warning"
              >
                <AlertTriangle className="h-3.5 w-3.5" aria-hidden />
                {S.list.labelsWarning(unmapped.length)}
              </dd>
            )}
          </div>
        </dl>
        {model.note && <p className="whitespace-pre-line text-sm text-slate-700">{model.note}</p>}
        <div className="rounded-lg bg-slate-50 p-3">
          <h4 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-600">{S.list.evaluation}</h4>
          <EvaluationStatus model={model} />
        </div>
        <div role="group" aria-label={S.list.actionsLabel(model.version)} className="flex flex-wrap gap-2">
          <EvaluateButton model={model} />
          {report && (
            <Link to={reportRoute(model.id, report.id)} className={linkButton}>
              <FileBarChart className="h-4 w-4" aria-hidden />
              {S.list.actions.report}
            </Link>
          )}
          <Button variant="secondary" size="sm" onClick={() => onAction('publish', model)}>
            <Send className="h-4 w-4" aria-hidden />
            {S.list.actions.publish}
          </Button>
          <Button variant="secondary" size="sm" onClick={() => onAction('mapping', model)}>
            <ListTree className="h-4 w-4" aria-hidden />
            {S.list.actions.mapping}
          </Button>
          <Button variant="secondary" size="sm" onClick={() => onAction('settings', model)}>
            <SlidersHorizontal className="h-4 w-4" aria-hidden />
            {S.list.actions.settings}
          </Button>
          <a href={modelFileUrl(model.id)} download className={linkButton}>
            <Download className="h-4 w-4" aria-hidden />
            {S.list.actions.download}
          </a>
        </div>
      </article>
    </li>
  );
}
