import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { AlertTriangle, ArrowLeft, History, Languages, RotateCcw, Save } from 'lucide-react';
import { TRANSLATED_LISTS, type TranslatedListDoc } from '../../../common/languages';
import { TRANSLATE_TEXTS } from '../../../common/translate-texts';
import { OptionValuesDialog } from './option-values-dialog';
import { VERSION_TEXTS } from '../../../common/versions';
import { VersionsPanel } from '../../components/versions/versions-panel';
import { MAINTENANCE } from '../../../common/maintenance';
import { TIMINGS } from '../../../common/limits';
import {
  ACCOUNT_ENUMS_ID,
  DISEASE_ENUMS_ID,
  DOCUMENT_LISTS,
  type ListKey,
  type MaintenanceDocId,
  type MaintenanceLists,
} from '../../../common/schemas/maintenance';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { PageHeader } from '../../components/ui/page-header';
import { Spinner } from '../../components/ui/spinner';
import { useToast } from '../../components/ui/toast';
import { ApiError } from '../../lib/api';
import { useAddOption, useMaintenanceDocument, useMaintenanceUsage, useRemoveOption, useSaveLists } from './api';
import { OptionList, type UsageKind } from './option-list';
import { UnsavedChangesGuard } from './unsaved-changes';
import { useSentForReview } from '../../components/review/use-sent-for-review';

/** The user's order on top of the server's list: options gone from the server drop out, new ones follow. */
export function rebase(local: string[] | undefined, server: string[]): string[] {
  if (!local) return server;
  const kept = local.filter((v) => server.includes(v));
  return [...kept, ...server.filter((v) => !kept.includes(v))];
}

function sameOrder(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

function move(values: string[], from: number, to: number): string[] {
  if (to < 0 || to >= values.length || from === to) return values;
  const next = [...values];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item!);
  return next;
}

/** The error's own text for a refused request, docs/PRODUCT.md's fallback text for a server failure. */
function errorText(err: unknown, fallback: string): string {
  return err instanceof ApiError && err.status < 500 ? err.message : fallback;
}

export interface ListsPageProps {
  docId: MaintenanceDocId;
  title: string;
  subtitle: string;
  loadFailed: string;
}

/** A File maintenance sub-page: the lists of one option-list document. */
export function ListsPage({ docId, title, subtitle, loadFailed }: ListsPageProps) {
  const navigate = useNavigate();
  const toast = useToast();
  const sentForReview = useSentForReview();
  const notify = (message: string, tone: 'success' | 'error' | 'info' = 'success') =>
    toast.show(message, { tone, durationMs: TIMINGS.maintenanceToastMs });
  const doc = useMaintenanceDocument(docId);
  const usage = useMaintenanceUsage(docId, doc.data?.version);
  const addOption = useAddOption(docId);
  const removeOption = useRemoveOption(docId);
  const saveLists = useSaveLists(docId);
  const [draft, setDraft] = useState<MaintenanceLists>({});
  const [showVersions, setShowVersions] = useState(false);
  const [translating, setTranslating] = useState(false);
  const translatable = docId in TRANSLATED_LISTS;
  const [pendingRemove, setPendingRemove] = useState<{ list: ListKey; value: string } | null>(null);

  const keys = DOCUMENT_LISTS[docId] as readonly ListKey[];
  const usageKind: UsageKind = docId === ACCOUNT_ENUMS_ID ? 'accounts' : docId === DISEASE_ENUMS_ID ? 'diseases' : 'varieties';
  const server = doc.data?.lists ?? {};
  const shown = (key: ListKey) => rebase(draft[key], server[key] ?? []);
  const changed = doc.data ? keys.filter((k) => draft[k] && !sameOrder(shown(k), server[k] ?? [])) : [];
  const dirty = changed.length > 0;

  const loadErrorShown = useRef(false);
  useEffect(() => {
    if (doc.isError && !loadErrorShown.current) {
      loadErrorShown.current = true;
      toast.show(loadFailed, { tone: 'error', durationMs: TIMINGS.maintenanceToastMs });
    }
    if (!doc.isError) loadErrorShown.current = false;
  }, [doc.isError, loadFailed, toast]);

  async function add(list: ListKey, value: string) {
    if (!sentForReview(await addOption.mutateAsync({ list, value }))) notify(MAINTENANCE.toasts.added);
  }

  async function confirmRemove() {
    if (!pendingRemove) return;
    try {
      if (!sentForReview(await removeOption.mutateAsync(pendingRemove))) notify(MAINTENANCE.toasts.removed);
      setPendingRemove(null);
    } catch (err) {
      notify(errorText(err, MAINTENANCE.toasts.removeFailed), 'error');
    }
  }

  async function save() {
    if (!doc.data || !dirty) return;
    const lists: MaintenanceLists = {};
    for (const k of changed) lists[k] = shown(k);
    try {
      const result = await saveLists.mutateAsync({ version: doc.data.version, lists });
      setDraft({});
      if (!sentForReview(result)) notify(MAINTENANCE.toasts.saved);
    } catch (err) {
      notify(errorText(err, MAINTENANCE.toasts.saveFailed), 'error');
      // Someone changed the lists meanwhile: take theirs; the order the user set stays on top.
      if (err instanceof ApiError && err.code === 'VERSION_CONFLICT') void doc.refetch();
    }
  }

  const removeCount = pendingRemove ? usage.data?.usage[pendingRemove.list]?.[pendingRemove.value] : undefined;
  const busy = saveLists.isPending;

  return (
    <div>
      <UnsavedChangesGuard when={dirty && !busy} />
      <Button variant="ghost" size="sm" className="-ml-2 mb-3" onClick={() => navigate('/dashboard/file_maintenance')}>
        <ArrowLeft className="h-4 w-4" aria-hidden />
        {MAINTENANCE.back}
      </Button>
      <PageHeader
        title={title}
        subtitle={subtitle}
        actions={
          doc.data && (
            <>
              <Button variant="secondary" onClick={() => setShowVersions(true)}>
                <History className="h-4 w-4" aria-hidden />
                {VERSION_TEXTS.tab}
              </Button>
              {translatable && (
                <Button variant="secondary" onClick={() => setTranslating(true)}>
                  <Languages className="h-4 w-4" aria-hidden />
                  {TRANSLATE_TEXTS.button}
                </Button>
              )}
              {dirty && (
                <Button variant="secondary" onClick={() => setDraft({})} disabled={busy}>
                  <RotateCcw className="h-4 w-4" aria-hidden />
                  {MAINTENANCE.discard}
                </Button>
              )}
              <Button onClick={save} disabled={!dirty || busy}>
                <Save className="h-4 w-4" aria-hidden />
                {busy ? MAINTENANCE.saving : MAINTENANCE.saveChanges}
              </Button>
            </>
          )
        }
      />

      {dirty && (
        <p
          role="status"
          className="mb-4 flex items-center gap-2 rounded-lg border border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-800"
        >
          <AlertTriangle className="h-4 w-4 shrink-0" aria-hidden />
          {MAINTENANCE.unsavedNote}
        </p>
      )}

      {doc.isPending ? (
        <div className="flex justify-center py-16">
          <Spinner />
        </div>
      ) : doc.isError ? (
        <div className="flex flex-col items-center gap-3 rounded-2xl border border-red-200 bg-red-50 p-8 text-center text-sm text-red-700">
          <p>{loadFailed}</p>
          <Button variant="secondary" onClick={() => void doc.refetch()}>
            Try again
          </Button>
        </div>
      ) : (
        <div className={keys.length > 1 ? 'grid grid-cols-1 gap-6 xl:grid-cols-2' : 'max-w-3xl'}>
          {keys.map((key) => (
            <OptionList
              key={key}
              list={key}
              values={shown(key)}
              usage={usage.data?.usage[key]}
              usageKind={usageKind}
              note={key === 'securityQuestions' && doc.data.usingDefaults ? MAINTENANCE.usingDefaults : undefined}
              onMove={(from, to) => setDraft((d) => ({ ...d, [key]: move(rebase(d[key], server[key] ?? []), from, to) }))}
              onAdd={(value) => add(key, value)}
              onDuplicate={() => notify(MAINTENANCE.toasts.exists, 'info')}
              onAddFailed={(err) => notify(errorText(err, MAINTENANCE.toasts.addFailed), 'error')}
              onRemove={(value) => setPendingRemove({ list: key, value })}
              disabled={busy}
            />
          ))}
        </div>
      )}

      <Dialog
        open={showVersions}
        onOpenChange={setShowVersions}
        title={`${VERSION_TEXTS.title}: ${title}`}
        size="xl"
        footer={
          <Button variant="secondary" onClick={() => setShowVersions(false)}>
            {VERSION_TEXTS.close}
          </Button>
        }
      >
        {showVersions && <VersionsPanel collection="maintenance" id={docId} canRestore />}
      </Dialog>

      <OptionValuesDialog doc={translating ? (docId as TranslatedListDoc) : null} title={title} onClose={() => setTranslating(false)} />

      <Dialog
        open={pendingRemove !== null}
        onOpenChange={(o) => {
          if (!o && !removeOption.isPending) setPendingRemove(null);
        }}
        title={MAINTENANCE.removeTitle}
        size="sm"
        footer={
          <>
            <Button variant="secondary" onClick={() => setPendingRemove(null)} disabled={removeOption.isPending}>
              {MAINTENANCE.cancel}
            </Button>
            <Button variant="danger" onClick={confirmRemove} disabled={removeOption.isPending}>
              {removeOption.isPending ? MAINTENANCE.removing : MAINTENANCE.remove}
            </Button>
          </>
        }
      >
        {pendingRemove && (
          <div className="space-y-3 text-sm text-slate-700">
            <p className="font-medium text-slate-900">{MAINTENANCE.removeQuestion(pendingRemove.value)}</p>
            <p className="flex gap-2 rounded-lg bg-amber-50 px-3 py-2 text-amber-800" data-testid="remove-warning">
              <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
              <span>
                {pendingRemove.list === 'securityQuestions' ? MAINTENANCE.removeWarningSecurity : MAINTENANCE.removeWarning}
                {removeCount !== undefined && removeCount > 0 && (
                  <>
                    {' '}
                    <strong data-testid="remove-usage">{MAINTENANCE.removeInUse[usageKind](removeCount)}</strong>
                  </>
                )}
              </span>
            </p>
          </div>
        )}
      </Dialog>
    </div>
  );
}
