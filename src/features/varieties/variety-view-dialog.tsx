import { Pencil } from 'lucide-react';
import type { Variety } from '../../../common/schemas/varieties';
import { VARIETIES, VARIETY_TOPIC } from '../../../common/varieties';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { useVariety } from './api';
import { dateTimeOrDash, listOrDash, orDash, withUnit } from './format';
import { RecommendedBadge } from './recommended-badge';
import { can } from '../../../common/permissions';
import { useSession } from '../../lib/session';
import { RecordTabs, type RecordTab } from '../../components/versions/record-tabs';
import { TranslationEditor } from '../../components/translations/translation-editor';
import { VersionsPanel } from '../../components/versions/versions-panel';
import { RecordReviewNotes } from '../../components/review/review-badge';

/** Every field of one variety, units included (t/ha, cm, days); follows live changes. */
export function VarietyViewDialog({
  variety,
  tab,
  onClose,
  onEdit,
}: {
  variety: Variety | null;
  tab?: RecordTab | undefined;
  onClose(): void;
  /** Closes the view for the edit form of the variety. */
  onEdit?: (variety: Variety) => void;
}) {
  const detail = useVariety(variety?.id ?? null);
  const { session } = useSession();
  const canEdit = can(session?.user.role, 'content.update');
  const v = detail.data ?? variety;
  const c = VARIETIES.columns;
  const w = VARIETIES.view;
  const rows: Array<[string, React.ReactNode]> = v
    ? [
        [c.varietyName, orDash(v.varietyName)],
        [c.releaseName, orDash(v.releaseName)],
        [c.breedingCode, orDash(v.breedingCode)],
        [c.breederOrigin, orDash(v.breederOrigin)],
        [c.yearRelease, orDash(v.yearRelease)],
        [c.location, orDash(v.location)],
        [w.averageYield, withUnit(v.averageYield, VARIETIES.units.yield)],
        [w.maxYield, withUnit(v.maxYield, VARIETIES.units.yield)],
        [w.maturityDays, withUnit(v.maturityDays, VARIETIES.units.days)],
        [w.plantHeight, withUnit(v.plantHeight, VARIETIES.units.height)],
        [w.tillers, orDash(v.tillers)],
        [w.season, listOrDash(v.season)],
        [w.plantingMethod, orDash(v.plantingMethod)],
        [w.environment, listOrDash(v.environment)],
        [c.recommendedInTarlac, <RecommendedBadge value={v.recommendedInTarlac} />],
        [w.createdAt, dateTimeOrDash(v.createdAt)],
        [w.updatedAt, dateTimeOrDash(v.updatedAt)],
      ]
    : [];
  return (
    <Dialog
      open={variety !== null}
      onOpenChange={(o) => {
        if (!o) onClose();
      }}
      title={w.title}
      description={v?.varietyName}
      size="xl"
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {w.close}
          </Button>
          {variety && onEdit && (
            <Button onClick={() => onEdit(variety)}>
              <Pencil className="h-4 w-4" aria-hidden />
              {VARIETIES.actions.edit}
            </Button>
          )}
        </>
      }
    >
      <RecordTabs
        initial={tab}
        versions={() => v && <VersionsPanel collection={VARIETY_TOPIC} id={v.id} canRestore={canEdit} />}
        translate={() => v && <TranslationEditor collection={VARIETY_TOPIC} recordId={v.id} canEdit={canEdit} />}
        details={
          <>
            {v && (
              <div className="mb-4 flex flex-col gap-2 empty:hidden">
                <RecordReviewNotes collection={VARIETY_TOPIC} recordId={v.id} />
              </div>
            )}
            <dl className="grid grid-cols-1 gap-x-6 gap-y-3 sm:grid-cols-2">
              {rows.map(([label, value]) => (
                <div key={label} className="rounded-lg bg-slate-50 px-3 py-2">
                  <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
                  <dd className="mt-0.5 text-sm text-slate-900">{value}</dd>
                </div>
              ))}
            </dl>
          </>
        }
      />
    </Dialog>
  );
}
