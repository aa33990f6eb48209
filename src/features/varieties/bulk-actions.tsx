import { useState } from 'react';
import { Trash2, X } from 'lucide-react';
import { can } from '../../../common/permissions';
import { TRASH } from '../../../common/trash';
import { VARIETIES } from '../../../common/varieties';
import { useSentForReview } from '../../components/review/use-sent-for-review';
import { Button } from '../../components/ui/button';
import { ConfirmByTyping } from '../../components/ui/confirm-by-typing';
import { ExportMenu } from '../../components/ui/export-menu';
import { useToast } from '../../components/ui/toast';
import { useSession } from '../../lib/session';
import { useDeleteVariety } from './api';

const B = VARIETIES.list.bulkDelete;

/**
 * What is done with the selected varieties: export them, or delete them to the Trash, one by
 * one through the same route a single delete takes (each checked, audited and, where review is
 * on, sent for review by the server), asked first with "delete N" typed.
 */
export function BulkActions({ selected, onClear }: { selected: Map<string, string>; onClear(): void }) {
  const { session } = useSession();
  const remove = useDeleteVariety();
  const toast = useToast();
  const sentForReview = useSentForReview();
  const [asking, setAsking] = useState(false);
  const [progress, setProgress] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const n = selected.size;
  if (n === 0) return null;

  async function deleteAll() {
    setError(null);
    const failures: string[] = [];
    let done = 0;
    let sent = false;
    for (const [id, name] of selected) {
      setProgress(B.progress(done + 1, n));
      try {
        const result = await remove.mutateAsync(id);
        sent = sentForReview(result) !== null || sent;
      } catch (err) {
        failures.push(B.failed(name, err instanceof Error ? err.message : String(err)));
      }
      done += 1;
    }
    setProgress(undefined);
    if (failures.length > 0) {
      setError(failures.join('\n'));
      return;
    }
    setAsking(false);
    onClear();
    if (!sent) toast.show(B.done(n));
  }

  return (
    <div
      role="region"
      aria-label={VARIETIES.list.selected(n)}
      className="mb-3 flex flex-wrap items-center gap-2 rounded-xl border border-brand-200 bg-brand-50 px-3 py-2 text-sm"
    >
      <span className="font-medium text-brand-900">{VARIETIES.list.selected(n)}</span>
      <ExportMenu url="/api/varieties/export" search="" ids={[...selected.keys()]} label={VARIETIES.list.exportSelected} />
      <Button variant="secondary" onClick={() => setAsking(true)} className="text-red-700">
        <Trash2 className="h-4 w-4" aria-hidden />
        {VARIETIES.list.deleteSelected}
      </Button>
      <Button variant="ghost" onClick={onClear}>
        <X className="h-4 w-4" aria-hidden />
        {VARIETIES.list.clearSelection}
      </Button>
      <ConfirmByTyping
        open={asking}
        onOpenChange={(o) => {
          if (!o && progress === undefined) setAsking(false);
        }}
        title={B.title(n)}
        description={B.text([...selected.values()])}
        note={TRASH.deleteNote(can(session?.user.role, 'trash.restore'))}
        expected={B.expected(n)}
        trim
        mismatchText={B.mismatch}
        confirmLabel={VARIETIES.deleteDialog.confirm}
        busyLabel={progress ?? VARIETIES.deleteDialog.busy}
        onConfirm={deleteAll}
        error={error}
      />
    </div>
  );
}
