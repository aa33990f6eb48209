import { useState } from 'react';
import { Undo2, X } from 'lucide-react';
import { CATALOG_LIMITS } from '../../../common/catalog';
import { CATALOG_LABELS } from '../../../common/catalog-texts';
import type { CatalogImage } from '../../../common/schemas/catalog';
import { Button } from '../../components/ui/button';
import { cn } from '../../components/ui/cn';
import { ImageGrid, Thumb } from './image-grid';

function RemoveToggle({
  image,
  index,
  removed,
  onToggle,
}: {
  image: CatalogImage;
  index: number;
  removed: boolean;
  onToggle(id: string): void;
}) {
  return (
    <>
      {removed && <span className="pointer-events-none absolute inset-0 bg-white/70" aria-hidden />}
      <button
        type="button"
        onClick={() => onToggle(image.id)}
        aria-label={removed ? `${CATALOG_LABELS.restoreImage} ${index + 1}` : `${CATALOG_LABELS.removeImage} ${index + 1}`}
        aria-pressed={removed}
        className={cn(
          'absolute right-1 top-1 rounded-full p-1 shadow',
          removed ? 'bg-brand-700 text-white hover:bg-brand-800' : 'bg-white/90 text-slate-700 hover:bg-red-600 hover:text-white',
        )}
      >
        {removed ? <Undo2 className="h-3.5 w-3.5" /> : <X className="h-3.5 w-3.5" />}
      </button>
    </>
  );
}

/**
 * The edit dialog's current photos: up to 6, then '+N more' which opens all of them in a
 * virtualised grid. Each can be removed (and restored until the user saves).
 */
export function CurrentImages({
  name,
  images,
  removed,
  onToggle,
}: {
  name: string;
  images: CatalogImage[];
  removed: Set<string>;
  onToggle(id: string): void;
}) {
  const [expanded, setExpanded] = useState(false);
  const preview = images.slice(0, CATALOG_LIMITS.editPreview);
  const more = images.length - preview.length;
  return (
    <div className="space-y-2" data-testid="current-images">
      <div className="flex items-center justify-between text-sm">
        <span className="font-medium text-slate-700">
          {CATALOG_LABELS.currentImages} <span className="font-normal text-slate-500">({CATALOG_LABELS.imageCount(images.length)})</span>
        </span>
        {expanded && more > 0 && (
          <Button variant="ghost" size="sm" onClick={() => setExpanded(false)}>
            {CATALOG_LABELS.showFewer}
          </Button>
        )}
      </div>
      {expanded ? (
        <ImageGrid
          images={images}
          alt={(_, i) => `${name} image ${i + 1}`}
          maxHeight={320}
          testId="current-images-grid"
          renderOverlay={(image, index) => <RemoveToggle image={image} index={index} removed={removed.has(image.id)} onToggle={onToggle} />}
        />
      ) : (
        <div className="grid grid-cols-3 gap-2 sm:grid-cols-7">
          {preview.map((image, index) => (
            <div
              key={image.id}
              className="relative aspect-square overflow-hidden rounded-lg border border-slate-200"
              data-testid="current-image"
            >
              <Thumb image={image} alt={`${name} image ${index + 1}`} />
              <RemoveToggle image={image} index={index} removed={removed.has(image.id)} onToggle={onToggle} />
            </div>
          ))}
          {more > 0 && (
            <button
              type="button"
              onClick={() => setExpanded(true)}
              className={cn(
                'flex aspect-square items-center justify-center rounded-lg border border-dashed',
                'border-slate-300 bg-slate-50 text-sm font-semibold text-slate-700 hover:bg-slate-100',
              )}
            >
              {CATALOG_LABELS.moreImages(more)}
            </button>
          )}
        </div>
      )}
      {removed.size > 0 && (
        <p className="text-sm text-amber-700" role="status">
          {CATALOG_LABELS.removedCount(removed.size)}
        </p>
      )}
    </div>
  );
}
