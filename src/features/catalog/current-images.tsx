import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent as ReactPointerEvent } from 'react';
import { ChevronLeft, ChevronRight, GripVertical, Star, Undo2, X } from 'lucide-react';
import { CATALOG_LIMITS } from '../../../common/catalog';
import { CATALOG_LABELS, PHOTO_ORDER_TEXTS } from '../../../common/catalog-texts';
import type { CatalogImage } from '../../../common/schemas/catalog';
import { Button } from '../../components/ui/button';
import { cn } from '../../components/ui/cn';
import { ImageGrid, Thumb } from './image-grid';

/** The "Main photo" badge over the first photo, above its controls. */
const MAIN_BADGE =
  'absolute inset-x-0 bottom-8 mx-auto w-fit whitespace-nowrap rounded bg-brand-700 px-1.5 py-0.5 ' +
  'text-[11px] font-semibold leading-4 text-white shadow';

/** The set with `id` added, or taken out when it was in it. */
export function toggled(set: ReadonlySet<string>, id: string): Set<string> {
  const next = new Set(set);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return next;
}

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

/** The controls of a photo a move can give focus back to once the photo is in its new place. */
type OrderControl = 'main' | 'earlier' | 'handle' | 'later';

interface Drag {
  id: string;
  from: number;
  over: number;
}

const orderButton =
  'rounded-full bg-white/90 p-1 text-slate-700 shadow hover:bg-brand-700 hover:text-white disabled:pointer-events-none disabled:opacity-40 ' +
  'focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600';

/**
 * A photo's order controls: the "Main photo" badge on the first (or a button making this one
 * the main photo), Move earlier and Move later, and a handle to drag (pointer or touch) or to
 * move with the arrow keys (Home: the main photo; End: the last place).
 */
function OrderControls({
  image,
  index,
  count,
  drag,
  onMove,
  onDragStart,
}: {
  image: CatalogImage;
  index: number;
  count: number;
  drag: Drag | null;
  onMove(image: CatalogImage, from: number, to: number, control: OrderControl): void;
  onDragStart(image: CatalogImage, index: number, event: ReactPointerEvent<HTMLButtonElement>): void;
}) {
  const n = index + 1;
  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    const to =
      event.key === 'ArrowLeft' || event.key === 'ArrowUp'
        ? index - 1
        : event.key === 'ArrowRight' || event.key === 'ArrowDown'
          ? index + 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? count - 1
              : null;
    if (to === null) return;
    event.preventDefault();
    onMove(image, index, to, 'handle');
  }
  return (
    <>
      {drag?.id === image.id && <span className="pointer-events-none absolute inset-0 bg-brand-900/30" aria-hidden />}
      {drag && drag.over === index && drag.id !== image.id && (
        <span className="pointer-events-none absolute inset-0 rounded-lg ring-4 ring-inset ring-brand-600" aria-hidden />
      )}
      {index === 0 ? (
        <>
          <span className="absolute left-1 top-1 rounded-full bg-brand-700 p-1 text-white shadow" aria-hidden>
            <Star className="h-4 w-4 fill-current" />
          </span>
          <span className={MAIN_BADGE}>{PHOTO_ORDER_TEXTS.mainPhoto}</span>
        </>
      ) : (
        <button
          type="button"
          className={cn(orderButton, 'absolute left-1 top-1')}
          aria-label={PHOTO_ORDER_TEXTS.makeMain(n)}
          title={PHOTO_ORDER_TEXTS.makeMain(n)}
          data-photo-control="main"
          onClick={() => onMove(image, index, 0, 'main')}
        >
          <Star className="h-4 w-4" aria-hidden />
        </button>
      )}
      <div className="absolute inset-x-1 bottom-1 flex items-center justify-between">
        <button
          type="button"
          className={orderButton}
          aria-label={PHOTO_ORDER_TEXTS.moveEarlier(n)}
          title={PHOTO_ORDER_TEXTS.moveEarlier(n)}
          data-photo-control="earlier"
          disabled={index === 0}
          onClick={() => onMove(image, index, index - 1, 'earlier')}
        >
          <ChevronLeft className="h-4 w-4" aria-hidden />
        </button>
        <button
          type="button"
          className={cn(orderButton, 'cursor-grab touch-none active:cursor-grabbing')}
          aria-label={PHOTO_ORDER_TEXTS.handle(n, count)}
          title={PHOTO_ORDER_TEXTS.handle(n, count)}
          data-photo-control="handle"
          onKeyDown={onKeyDown}
          onPointerDown={(event) => onDragStart(image, index, event)}
        >
          <GripVertical className="h-4 w-4" aria-hidden />
        </button>
        <button
          type="button"
          className={orderButton}
          aria-label={PHOTO_ORDER_TEXTS.moveLater(n)}
          title={PHOTO_ORDER_TEXTS.moveLater(n)}
          data-photo-control="later"
          disabled={index === count - 1}
          onClick={() => onMove(image, index, index + 1, 'later')}
        >
          <ChevronRight className="h-4 w-4" aria-hidden />
        </button>
      </div>
    </>
  );
}

/** Near the top or bottom edge of the grid while dragging, it scrolls by this much a frame. */
const EDGE_PX = 40;
const SCROLL_STEP_PX = 14;

/**
 * The edit dialog's current photos: up to 6, then '+N more' which opens all of them in a
 * virtualised grid (only the rows in view, and their controls, are in the page). Each can be
 * removed (and restored until the user saves) and moved: dragged onto another photo's place, or
 * by its buttons and the arrow keys, each move told to screen readers. The first is the main
 * photo. `onMove` saves the move (false: nothing to move).
 */
export function CurrentImages({
  name,
  images,
  removed,
  onToggle,
  onMove,
  saving = false,
  error = null,
}: {
  name: string;
  images: CatalogImage[];
  removed: Set<string>;
  onToggle(id: string): void;
  onMove?(photoId: string, position: number): boolean;
  saving?: boolean;
  error?: string | null;
}) {
  const [expanded, setExpanded] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const [focusTarget, setFocusTarget] = useState<{ id: string; index: number; control: OrderControl; nonce: number } | null>(null);
  const [drag, setDrag] = useState<Drag | null>(null);
  const dragRef = useRef<Drag | null>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const preview = images.slice(0, CATALOG_LIMITS.editPreview);
  const more = images.length - preview.length;
  const count = images.length;

  function move(image: CatalogImage, from: number, to: number, control: OrderControl) {
    if (!onMove || to < 0 || to >= count || to === from) return;
    if (!onMove(image.id, to)) return;
    setAnnouncement(to === 0 ? PHOTO_ORDER_TEXTS.madeMain(from + 1) : PHOTO_ORDER_TEXTS.moved(from + 1, to + 1, count));
    // A photo moved past the first six is followed into the whole grid.
    if (!expanded && to >= CATALOG_LIMITS.editPreview) setExpanded(true);
    setFocusTarget({ id: image.id, index: to, control, nonce: Date.now() });
  }

  // Focus follows the moved photo to its new place (its row made first when it was out of view);
  // a control the new place disables (Move earlier on the main photo) hands focus to the handle.
  useEffect(() => {
    if (!focusTarget) return;
    let frames = 0;
    let handle = 0;
    const attempt = () => {
      const tiles = rootRef.current?.querySelectorAll<HTMLElement>('[data-photo-id]') ?? [];
      const tile = Array.from(tiles).find((t) => t.dataset.photoId === focusTarget.id);
      const wanted = tile?.querySelector<HTMLButtonElement>(`[data-photo-control="${focusTarget.control}"]`);
      const target = wanted && !wanted.disabled ? wanted : tile?.querySelector<HTMLButtonElement>('[data-photo-control="handle"]');
      if (target) {
        target.focus();
        return;
      }
      if ((frames += 1) < 20) handle = requestAnimationFrame(attempt);
    };
    attempt();
    return () => cancelAnimationFrame(handle);
  }, [focusTarget]);

  function startDrag(image: CatalogImage, index: number, event: ReactPointerEvent<HTMLButtonElement>) {
    if (!onMove || (event.pointerType === 'mouse' && event.button !== 0)) return;
    event.preventDefault();
    const scroller = event.currentTarget.closest<HTMLElement>('[data-photo-scroller]');
    const state: Drag = { id: image.id, from: index, over: index };
    dragRef.current = state;
    setDrag(state);
    let lastY = event.clientY;
    let frame = 0;
    // Near the grid's top or bottom edge the grid scrolls, a little every frame, to reach far places.
    const edgeScroll = () => {
      if (scroller) {
        const box = scroller.getBoundingClientRect();
        if (lastY < box.top + EDGE_PX) scroller.scrollTop -= SCROLL_STEP_PX;
        else if (lastY > box.bottom - EDGE_PX) scroller.scrollTop += SCROLL_STEP_PX;
      }
      frame = requestAnimationFrame(edgeScroll);
    };
    frame = requestAnimationFrame(edgeScroll);
    const onPointerMove = (e: PointerEvent) => {
      lastY = e.clientY;
      const over = document.elementFromPoint(e.clientX, e.clientY)?.closest<HTMLElement>('[data-photo-index]');
      const index = over && rootRef.current?.contains(over) ? Number(over.dataset.photoIndex) : null;
      if (index !== null && dragRef.current && dragRef.current.over !== index) {
        dragRef.current = { ...dragRef.current, over: index };
        setDrag(dragRef.current);
      }
    };
    const end = (drop: boolean) => {
      cancelAnimationFrame(frame);
      window.removeEventListener('pointermove', onPointerMove);
      window.removeEventListener('pointerup', onPointerUp);
      window.removeEventListener('pointercancel', onPointerCancel);
      window.removeEventListener('keydown', onKey);
      const done = dragRef.current;
      dragRef.current = null;
      setDrag(null);
      if (drop && done && done.over !== done.from) move(image, done.from, done.over, 'handle');
    };
    const onPointerUp = () => end(true);
    const onPointerCancel = () => end(false);
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        end(false);
      }
    };
    window.addEventListener('pointermove', onPointerMove);
    window.addEventListener('pointerup', onPointerUp);
    window.addEventListener('pointercancel', onPointerCancel);
    window.addEventListener('keydown', onKey, true);
  }

  const overlay = (image: CatalogImage, index: number) => (
    <>
      {onMove && <OrderControls image={image} index={index} count={count} drag={drag} onMove={move} onDragStart={startDrag} />}
      <RemoveToggle image={image} index={index} removed={removed.has(image.id)} onToggle={onToggle} />
    </>
  );

  return (
    <div className="space-y-2" data-testid="current-images" ref={rootRef}>
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
      {onMove && <p className="text-xs text-slate-600">{PHOTO_ORDER_TEXTS.hint}</p>}
      {expanded ? (
        <ImageGrid
          images={images}
          alt={(_, i) => `${name} image ${i + 1}`}
          maxHeight={320}
          testId="current-images-grid"
          reveal={focusTarget && { index: focusTarget.index, nonce: focusTarget.nonce }}
          renderOverlay={overlay}
        />
      ) : (
        <div className="grid grid-cols-3 gap-2 sm:grid-cols-7">
          {preview.map((image, index) => (
            <div
              key={image.id}
              className="relative aspect-square overflow-hidden rounded-lg border border-slate-200"
              data-testid="current-image"
              data-photo-index={index}
              data-photo-id={image.id}
            >
              <Thumb image={image} alt={`${name} image ${index + 1}`} />
              {overlay(image, index)}
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
      <p className="sr-only" aria-live="polite" aria-atomic="true" data-testid="photo-order-announcement">
        {announcement}
      </p>
      {saving && <p className="text-xs text-slate-600">{PHOTO_ORDER_TEXTS.saving}</p>}
      {error && (
        <p role="alert" className="text-sm text-red-600">
          {error}
        </p>
      )}
      {removed.size > 0 && (
        <p className="text-sm text-amber-700" role="status">
          {CATALOG_LABELS.removedCount(removed.size)}
        </p>
      )}
    </div>
  );
}
