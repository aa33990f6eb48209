import { useState } from 'react';
import { ArrowLeft, ExternalLink, Pencil } from 'lucide-react';
import type { CatalogKind } from '../../../common/catalog';
import { CATALOG_LABELS } from '../../../common/catalog-texts';
import { can } from '../../../common/permissions';
import { useSession } from '../../lib/session';
import type { CatalogImage } from '../../../common/schemas/catalog';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { Spinner } from '../../components/ui/spinner';
import { useCatalogEntry } from './api';
import { formatDateTime } from './format';
import { ImageGrid, Thumb } from './image-grid';
import { TrainingSetLink } from './training-set-link';
import { RecordTabs, type RecordTab } from '../../components/versions/record-tabs';
import { TranslationEditor } from '../../components/translations/translation-editor';
import { VersionsPanel } from '../../components/versions/versions-panel';
import { RecordReviewNotes } from '../../components/review/review-badge';

/** One label and value; a definition list holds each pair in one div (no wrapper around it). */
function Field({ label, value, wide = false }: { label: string; value: string; wide?: boolean }) {
  return (
    <div className={wide ? 'md:col-span-2' : undefined}>
      <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-1 whitespace-pre-line text-sm text-slate-800">{value.trim() === '' ? '–' : value}</dd>
    </div>
  );
}

/** Every field of an entry and all its photos (thumbnails in a virtualised grid; a click shows the display size). */
export function EntryViewDialog({
  kind,
  id,
  tab,
  onClose,
  onEdit,
}: {
  kind: CatalogKind;
  id: string | null;
  tab?: RecordTab | undefined;
  onClose(): void;
  /** Closes the view for the edit form of the entry. */
  onEdit?: (id: string) => void;
}) {
  const entry = useCatalogEntry(kind, id);
  const { session } = useSession();
  const superAdmin = can(session?.user.role, 'trainingData.export');
  const canEdit = can(session?.user.role, 'content.update');
  const [open, setOpen] = useState<{ image: CatalogImage; index: number } | null>(null);
  const data = entry.data;
  return (
    <Dialog
      open={id !== null}
      onOpenChange={(o) => {
        if (!o) {
          setOpen(null);
          onClose();
        }
      }}
      title={data?.name ?? kind.texts.viewTitle}
      description={kind.texts.viewTitle}
      size="xl"
      footer={
        <>
          {id && <TrainingSetLink kind={kind} entryId={id} />}
          <Button variant="secondary" onClick={onClose}>
            {CATALOG_LABELS.close}
          </Button>
          {id && canEdit && onEdit && (
            <Button onClick={() => onEdit(id)}>
              <Pencil className="h-4 w-4" aria-hidden />
              {CATALOG_LABELS.edit}
            </Button>
          )}
        </>
      }
    >
      {!data ? (
        entry.isError ? (
          <p role="alert" className="text-sm text-red-600">
            {entry.error.message}
          </p>
        ) : (
          <div className="flex justify-center py-10">
            <Spinner />
          </div>
        )
      ) : open ? (
        <div className="space-y-3">
          <div className="flex items-center justify-between gap-2">
            <Button variant="ghost" size="sm" onClick={() => setOpen(null)}>
              <ArrowLeft className="h-4 w-4" aria-hidden />
              {CATALOG_LABELS.images}
            </Button>
            <span className="text-sm text-slate-500">
              {open.index + 1} / {data.images.length}
              {open.image.originalName ? ` · ${open.image.originalName}` : ''}
            </span>
            {open.image.url && (
              <a
                href={open.image.url}
                target="_blank"
                rel="noreferrer"
                className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline"
              >
                Original <ExternalLink className="h-3.5 w-3.5" aria-hidden />
              </a>
            )}
          </div>
          <div className="flex max-h-[65vh] items-center justify-center overflow-hidden rounded-xl bg-slate-900">
            {open.image.displayUrl ? (
              <img
                src={open.image.displayUrl}
                alt={`${data.name} image ${open.index + 1}`}
                className="max-h-[65vh] max-w-full object-contain"
              />
            ) : (
              <div className="h-64 w-full">
                <Thumb image={open.image} alt={`${data.name} image ${open.index + 1}`} />
              </div>
            )}
          </div>
        </div>
      ) : (
        <RecordTabs
          initial={tab}
          versions={() => <VersionsPanel collection={kind.collection} id={data.id} canRestore={canEdit} />}
          translate={() => <TranslationEditor collection={kind.collection} recordId={data.id} canEdit={canEdit} />}
          details={
            <div className="space-y-6">
              <RecordReviewNotes collection={kind.collection} recordId={data.id} />
              <dl className="grid grid-cols-1 gap-4 md:grid-cols-2">
                <div className="md:col-span-2">
                  <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">{CATALOG_LABELS.scientificName}</dt>
                  <dd className="mt-1 text-sm italic text-slate-800">{data.scientificName || '–'}</dd>
                </div>
                <Field label={CATALOG_LABELS.localName} value={data.localName} />
                {kind.affectedParts && <Field label={CATALOG_LABELS.affectedParts} value={data.affectedParts.join(', ')} />}
                {kind.trainingClasses && data.isTrainingClass && superAdmin && (
                  <Field
                    wide
                    label={data.notRicePlant ? CATALOG_LABELS.notRicePlantBadge : CATALOG_LABELS.trainingClassBadge}
                    value={data.notRicePlant ? CATALOG_LABELS.notRicePlantHint : CATALOG_LABELS.trainingClassHint}
                  />
                )}
                <Field wide label={CATALOG_LABELS.description} value={data.description} />
                <Field label={CATALOG_LABELS.cause} value={data.cause} />
                <Field label={CATALOG_LABELS.symptoms} value={data.symptoms} />
                <Field wide label={CATALOG_LABELS.treatments} value={data.treatments} />
                <Field label={CATALOG_LABELS.createdDate} value={formatDateTime(data.createdAt)} />
                <Field label={CATALOG_LABELS.lastUpdated} value={formatDateTime(data.updatedAt)} />
              </dl>
              <section aria-label={CATALOG_LABELS.images}>
                <h3 className="mb-2 text-sm font-semibold text-slate-800">
                  {CATALOG_LABELS.images}{' '}
                  <span className="font-normal text-slate-500">({CATALOG_LABELS.imageCount(data.images.length)})</span>
                </h3>
                {data.images.length === 0 ? (
                  <p className="text-sm text-slate-500">{CATALOG_LABELS.noImage}</p>
                ) : (
                  <ImageGrid
                    images={data.images}
                    alt={(_, i) => `${data.name} image ${i + 1}`}
                    onOpen={(image, index) => setOpen({ image, index })}
                    testId="view-images"
                  />
                )}
              </section>
            </div>
          }
        />
      )}
    </Dialog>
  );
}
