import { History } from 'lucide-react';
import { DRAFT_TEXTS } from '../../../common/catalog-texts';
import { manilaDateTime } from '../../../common/manila-time';
import type { Draft } from '../../../common/schemas/drafts';
import { Button } from '../../components/ui/button';
import type { UploadBatch } from './upload-batch';

/** Offered when the add form opens over a draft of this account: continue it, or start over. */
export function DraftOffer({ draft, onContinue, onStartOver }: { draft: Draft; onContinue(): void; onStartOver(): void }) {
  return (
    <div
      className="space-y-2 rounded-xl border border-brand-100 bg-brand-50 p-3"
      role="region"
      aria-label={DRAFT_TEXTS.continue}
      data-testid="draft-offer"
    >
      <p className="flex items-start gap-2 text-sm font-semibold text-slate-900">
        <History className="mt-0.5 h-4 w-4 shrink-0 text-brand-700" aria-hidden />
        {DRAFT_TEXTS.continueEntry(draft.uploaded, draft.photos.length)}
      </p>
      <p className="text-xs text-slate-600">{DRAFT_TEXTS.continueHint(draft.fields.name, manilaDateTime(new Date(draft.updatedAt)))}</p>
      <div className="flex gap-2">
        <Button size="sm" onClick={onContinue}>
          {DRAFT_TEXTS.continue}
        </Button>
        <Button size="sm" variant="secondary" onClick={onStartOver}>
          {DRAFT_TEXTS.startOver}
        </Button>
      </div>
    </div>
  );
}

/** A continued draft's photos that were not uploaded: choose their files again, or leave them out. */
export function MissingFilesNote({ batch }: { batch: UploadBatch }) {
  const missing = batch.items.filter((i) => i.status === 'missing').length;
  if (missing === 0) return null;
  return (
    <div
      className="flex flex-wrap items-center gap-2 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900"
      role="status"
      data-testid="draft-missing"
    >
      <span className="flex-1">{DRAFT_TEXTS.chooseAgain(missing)}</span>
      <Button size="sm" variant="secondary" onClick={() => batch.removeMissing()}>
        {DRAFT_TEXTS.leaveOut}
      </Button>
    </div>
  );
}
