import { collectionLabel, HISTORY } from '../../../common/history';
import { fullDate } from '../../../common/history-dates';
import { diffChanges, fieldLabel, formatValue, type DiffRow } from '../../../common/history-diff';
import { Button } from '../../components/ui/button';
import { cn } from '../../components/ui/cn';
import { Dialog } from '../../components/ui/dialog';
import { Spinner } from '../../components/ui/spinner';
import { useHistoryEntry } from './api';
import { ActionBadge } from './action-badge';
import { useState } from 'react';
import { can } from '../../../common/permissions';
import { VERSION_COLLECTIONS, VERSION_TEXTS, type VersionCollection } from '../../../common/versions';
import { useSession } from '../../lib/session';
import { VersionsPanel } from '../../components/versions/versions-panel';

const KIND_STYLE: Record<DiffRow['kind'], string> = {
  changed: 'bg-amber-50',
  added: 'bg-green-50',
  removed: 'bg-red-50',
  unchanged: '',
};

function DiffTable({ rows, caption, collection }: { rows: DiffRow[]; caption: string; collection: string | null }) {
  return (
    <table className="min-w-full table-fixed divide-y divide-slate-200 text-sm" aria-label={caption}>
      <thead className="bg-slate-50">
        <tr>
          <th scope="col" className="w-1/4 px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
            {HISTORY.field}
          </th>
          <th scope="col" className="px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
            {HISTORY.before}
          </th>
          <th scope="col" className="px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
            {HISTORY.after}
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {rows.map((row) => (
          <tr key={row.field} className={KIND_STYLE[row.kind]} data-kind={row.kind}>
            <th scope="row" className="break-words px-3 py-2 text-left font-medium text-slate-800">
              {fieldLabel(collection, row.field)}
              {row.kind !== 'unchanged' && <span className="ml-2 text-xs font-normal text-slate-500">({HISTORY[row.kind]})</span>}
            </th>
            <td
              className={cn(
                'break-words px-3 py-2 text-slate-700',
                row.kind === 'changed' || row.kind === 'removed' ? 'line-through decoration-red-400' : '',
              )}
            >
              {formatValue(row.before)}
            </td>
            <td className="break-words px-3 py-2 text-slate-900">{formatValue(row.after)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-0.5 break-words text-sm text-slate-900">{children}</dd>
    </div>
  );
}

/** One entry: who, what, when, and its changes {before, after} field by field. */
export function EntryDialog({ id, onClose }: { id: string | null; onClose(): void }) {
  const entry = useHistoryEntry(id);
  const data = entry.data;
  const diff = diffChanges(data?.changes);
  const changed = diff.filter((r) => r.kind !== 'unchanged');
  const unchanged = diff.filter((r) => r.kind === 'unchanged');
  const { session } = useSession();
  const role = session?.user.role;
  const [versionsOpen, setVersionsOpen] = useState(false);
  const made =
    data?.version && (VERSION_COLLECTIONS as readonly string[]).includes(data.version.collection)
      ? { ...data.version, collection: data.version.collection as VersionCollection }
      : null;
  const maintenance = made?.collection === 'maintenance';
  const mayRead = made !== null && can(role, maintenance ? 'maintenance.manage' : 'content.view');
  return (
    <Dialog
      open={id !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={HISTORY.details}
      size="lg"
      footer={
        <Button variant="secondary" onClick={onClose}>
          {HISTORY.close}
        </Button>
      }
    >
      {entry.isLoading ? (
        <Spinner />
      ) : entry.error ? (
        <p role="alert" className="text-sm text-red-600">
          {entry.error.message}
        </p>
      ) : (
        data && (
          <div className="space-y-6">
            <dl className="grid grid-cols-1 gap-4 sm:grid-cols-2">
              <Field label={HISTORY.columns.time}>{fullDate(data.timestamp)}</Field>
              <Field label={HISTORY.columns.user}>
                {data.userName}
                {data.userEmail && <span className="block text-xs text-slate-500">{data.userEmail}</span>}
              </Field>
              <Field label={HISTORY.columns.action}>
                <ActionBadge action={data.action} />
              </Field>
              <Field label={HISTORY.columns.collection}>{collectionLabel(data.collection) || HISTORY.emptyValue}</Field>
              <Field label={HISTORY.columns.document}>{data.documentName || HISTORY.emptyValue}</Field>
              <Field label={HISTORY.columns.description}>{data.description || HISTORY.emptyValue}</Field>
              {made && mayRead && (
                <Field label={VERSION_TEXTS.title}>
                  <button
                    type="button"
                    className="font-medium text-brand-700 underline-offset-2 hover:underline"
                    onClick={() => setVersionsOpen(true)}
                  >
                    {VERSION_TEXTS.viewVersion(made.number)} · {VERSION_TEXTS.openVersion}
                  </button>
                </Field>
              )}
            </dl>
            <section aria-labelledby="entry-changes">
              <h3 id="entry-changes" className="mb-2 text-sm font-semibold text-slate-900">
                {HISTORY.changesHeading}
              </h3>
              {changed.length === 0 && unchanged.length === 0 ? (
                <p className="text-sm text-slate-500">{HISTORY.noChanges}</p>
              ) : (
                <div className="space-y-3 overflow-x-auto rounded-lg border border-slate-200">
                  {changed.length > 0 && <DiffTable rows={changed} caption={HISTORY.changesHeading} collection={data.collection} />}
                  {unchanged.length > 0 && (
                    <details className="px-3 py-2 text-sm">
                      <summary className="cursor-pointer text-slate-600">
                        {HISTORY.unchanged} ({unchanged.length})
                      </summary>
                      <div className="mt-2">
                        <DiffTable rows={unchanged} caption={HISTORY.unchanged} collection={data.collection} />
                      </div>
                    </details>
                  )}
                </div>
              )}
            </section>
            {data.details && Object.keys(data.details).length > 0 && (
              <section aria-labelledby="entry-details">
                <h3 id="entry-details" className="mb-2 text-sm font-semibold text-slate-900">
                  {HISTORY.detailsHeading}
                </h3>
                <dl className="grid grid-cols-1 gap-3 rounded-lg border border-slate-200 p-3 sm:grid-cols-3">
                  {Object.entries(data.details).map(([key, value]) => (
                    <Field key={key} label={fieldLabel(data.collection, key)}>
                      {formatValue(value)}
                    </Field>
                  ))}
                </dl>
              </section>
            )}
          </div>
        )
      )}
      {made && mayRead && (
        <Dialog
          open={versionsOpen}
          onOpenChange={setVersionsOpen}
          title={`${VERSION_TEXTS.title}: ${data?.documentName ?? ''}`}
          size="xl"
          footer={
            <Button variant="secondary" onClick={() => setVersionsOpen(false)}>
              {VERSION_TEXTS.close}
            </Button>
          }
        >
          {versionsOpen && (
            <VersionsPanel
              collection={made.collection}
              id={made.documentId}
              initialNumber={made.number}
              canRestore={can(role, maintenance ? 'maintenance.manage' : 'content.update')}
            />
          )}
        </Dialog>
      )}
    </Dialog>
  );
}
