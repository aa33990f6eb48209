import { UPLOAD_TEXTS } from '../../../common/catalog-texts';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { Spinner } from '../../components/ui/spinner';

/** Save pressed while photos upload: the save waits for them, or can stop waiting. */
export function SaveQueuedNotice({ busy, done, count, onStop }: { busy: number; done: number; count: number; onStop(): void }) {
  return (
    <div
      role="status"
      data-testid="save-queued"
      className="flex w-full flex-wrap items-center gap-3 rounded-lg bg-brand-50 px-3 py-2 text-sm text-brand-800"
    >
      <Spinner className="h-4 w-4" />
      <span className="flex-1">
        {UPLOAD_TEXTS.saveWhenUploaded(busy)} <span className="tabular-nums text-brand-700">({UPLOAD_TEXTS.total(done, count)})</span>
      </span>
      <Button variant="ghost" size="sm" onClick={onStop}>
        {UPLOAD_TEXTS.dontWait}
      </Button>
    </div>
  );
}

/** The waiting save stopped because uploads failed: their names, and retry-then-save. */
export function SaveStoppedAlert({ failedNames, onRetry }: { failedNames: string[]; onRetry(): void }) {
  return (
    <div role="alert" data-testid="save-stopped" className="w-full space-y-2 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
      <p>{UPLOAD_TEXTS.saveStopped(failedNames.length)}</p>
      <ul className="list-disc pl-5">
        {failedNames.slice(0, 20).map((n, i) => (
          <li key={i} className="break-all">
            {n}
          </li>
        ))}
        {failedNames.length > 20 && <li>…</li>}
      </ul>
      <Button variant="secondary" size="sm" onClick={onRetry}>
        {UPLOAD_TEXTS.retryAndSave}
      </Button>
    </div>
  );
}

/** Closing the form while photos upload, or with uploaded photos not yet saved. */
export type CloseAsk = null | 'uploading' | 'discard';

export function CloseAskDialog({
  ask,
  busy,
  uploaded,
  onKeep,
  onClose,
}: {
  ask: CloseAsk;
  busy: number;
  uploaded: number;
  onKeep(): void;
  onClose(): void;
}) {
  return (
    <Dialog
      open={ask !== null}
      onOpenChange={(o) => {
        if (!o) onKeep();
      }}
      size="sm"
      title={ask === 'uploading' ? UPLOAD_TEXTS.closeTitle : UPLOAD_TEXTS.discardTitle}
      footer={
        <>
          <Button variant="secondary" onClick={onKeep}>
            {ask === 'uploading' ? UPLOAD_TEXTS.keepUploading : UPLOAD_TEXTS.keepEditing}
          </Button>
          <Button variant="danger" onClick={onClose}>
            {UPLOAD_TEXTS.closeAnyway}
          </Button>
        </>
      }
    >
      <p className="text-sm text-slate-700">
        {ask === 'uploading' ? UPLOAD_TEXTS.closeMessage(busy) : UPLOAD_TEXTS.discardMessage(uploaded)}
      </p>
    </Dialog>
  );
}
