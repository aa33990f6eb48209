import { cn } from '../../components/ui/cn';
import { useId, useState } from 'react';
import { FlagOff, Undo2 } from 'lucide-react';
import { MODEL_LIMITS, MODEL_TEXTS as T, type ModelChannel, type ModelStage } from '../../../common/models';
import { MODEL_SCREEN_TEXTS as S } from '../../../common/model-screen-texts';
import type { ModelsOverview, ScannerModel } from '../../../common/schemas/models';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { useToast } from '../../components/ui/toast';
import { useEndPilot, useRollback } from './api';
import { formatDateTime } from './format';

type Publication = ModelsOverview['publications'][number];

function Slot({ channel, model, publication }: { channel: ModelChannel; model: ScannerModel | null; publication: Publication | null }) {
  const share = model?.channels.find((c) => c.channel === 'pilot')?.share;
  return (
    <div className="rounded-lg border border-slate-200 p-3" data-testid={`slot-${channel}`}>
      <p className="text-xs font-semibold uppercase tracking-wide text-slate-600">{T.channel[channel]}</p>
      {model ? (
        <>
          <p className="mt-1 text-lg font-semibold text-slate-900" data-testid="slot-version">
            {model.version}
          </p>
          {channel === 'pilot' && share !== undefined && <p className="text-sm text-slate-700">{S.stagePanel.share(share)}</p>}
          {publication && (
            <>
              <p className="text-sm text-slate-600">
                {S.stagePanel.since(S.history.action[publication.action], formatDateTime(publication.at), publication.by)}
              </p>
              {publication.note && <p className="mt-1 whitespace-pre-line text-sm text-slate-700">{publication.note}</p>}
            </>
          )}
        </>
      ) : (
        <p className="mt-1 text-sm text-slate-600">{channel === 'live' ? T.install.noModel : T.noPilot}</p>
      )}
    </div>
  );
}

/** A stage's live model and pilot, with Roll back and End pilot (each confirmed). */
export function StagePanel({ stage, overview }: { stage: ModelStage; overview: ModelsOverview }) {
  const toast = useToast();
  const noteId = useId();
  const rollback = useRollback();
  const endPilot = useEndPilot();
  const [asking, setAsking] = useState<'rollback' | 'end-pilot' | null>(null);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const models = overview.models.filter((m) => m.stage === stage);
  const on = (channel: ModelChannel) => models.find((m) => m.channels.some((c) => c.channel === channel)) ?? null;
  const live = on('live');
  const pilot = on('pilot');
  const publicationOf = (model: ScannerModel | null, channel: ModelChannel) =>
    model
      ? (overview.publications.find(
          (p) => p.stage === stage && p.channel === channel && p.version === model.version && p.action !== 'end-pilot',
        ) ?? null)
      : null;
  const busy = rollback.isPending || endPilot.isPending;
  const headingId = `stage-${stage}`;

  function open(what: 'rollback' | 'end-pilot') {
    setNote('');
    setError(null);
    setAsking(what);
  }
  function confirm() {
    const done = {
      onSuccess: () => {
        toast.show(asking === 'rollback' ? S.stagePanel.rolledBack : S.stagePanel.pilotEnded);
        setAsking(null);
      },
      onError: (err: Error) => setError(err.message),
    };
    if (asking === 'rollback') rollback.mutate({ stage, note: note.trim() }, done);
    else endPilot.mutate({ stage }, done);
  }

  return (
    <section
      aria-labelledby={headingId}
      className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm"
      data-testid={`stage-${stage}`}
    >
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        {T.stage[stage]}
      </h2>
      <div className="mt-3 grid grid-cols-1 gap-3 sm:grid-cols-2">
        <Slot channel="live" model={live} publication={publicationOf(live, 'live')} />
        <Slot channel="pilot" model={pilot} publication={publicationOf(pilot, 'pilot')} />
      </div>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button variant="secondary" size="sm" disabled={!live || busy} onClick={() => open('rollback')}>
          <Undo2 className="h-4 w-4" aria-hidden />
          {T.rollback}
        </Button>
        <Button variant="secondary" size="sm" disabled={!pilot || busy} onClick={() => open('end-pilot')}>
          <FlagOff className="h-4 w-4" aria-hidden />
          {T.endPilot}
        </Button>
      </div>
      <Dialog
        open={asking !== null}
        onOpenChange={(o) => {
          if (!o && !busy) setAsking(null);
        }}
        size="sm"
        title={asking === 'rollback' ? S.stagePanel.rollbackTitle : S.stagePanel.endPilotTitle}
        footer={
          <>
            <Button variant="secondary" onClick={() => setAsking(null)} disabled={busy}>
              {T.cancel}
            </Button>
            <Button variant="danger" onClick={confirm} disabled={busy}>
              {asking === 'rollback' ? T.rollback : T.endPilot}
            </Button>
          </>
        }
      >
        <div className="space-y-3 text-sm text-slate-700">
          <p>{asking === 'rollback' ? S.stagePanel.rollbackText(live?.version ?? '') : S.stagePanel.endPilotText(pilot?.version ?? '')}</p>
          {asking === 'rollback' && (
            <div>
              <label htmlFor={noteId} className="mb-1 block font-medium text-slate-700">
                {S.stagePanel.rollbackNote}
              </label>
              <textarea
                id={noteId}
                rows={2}
                value={note}
                maxLength={MODEL_LIMITS.maxNoteLength}
                onChange={(e) => setNote(e.target.value)}
                className={cn(
                  'block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm outline-none',
                  'focus:border-brand-600 focus:ring-2 focus:ring-brand-100',
                )}
              />
            </div>
          )}
          {error && (
            <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-red-700">
              {error}
            </p>
          )}
        </div>
      </Dialog>
    </section>
  );
}
