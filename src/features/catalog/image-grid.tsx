import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { ImageOff, Loader2 } from 'lucide-react';
import { CATALOG_LABELS } from '../../../common/catalog-texts';
import type { CatalogImage } from '../../../common/schemas/catalog';
import { cn } from '../../components/ui/cn';

type ThumbSource = Pick<CatalogImage, 'thumbUrl' | 'status'>;

/** The text a placeholder shows in place of a thumbnail, or null once the thumbnail exists. */
function placeholderText(image: ThumbSource): string | null {
  if (image.thumbUrl) return null;
  return image.status === 'failed' ? CATALOG_LABELS.noImage : CATALOG_LABELS.processing;
}

/**
 * The name of a control that shows a thumbnail: the placeholder's visible text is part of it, so
 * what a sighted user reads is what a speech user can say.
 */
export function thumbControlName(image: ThumbSource, alt: string): string {
  const text = placeholderText(image);
  return text ? `${alt}, ${text}` : alt;
}

/**
 * A thumbnail, or a placeholder while the server is still making it (or could not). With an
 * empty `alt` it is decoration: the control around it carries the name.
 */
export function Thumb({ image, alt, className }: { image: ThumbSource; alt: string; className?: string }) {
  const text = placeholderText(image);
  if (text === null) {
    return <img src={image.thumbUrl!} alt={alt} loading="lazy" decoding="async" className={cn('h-full w-full object-cover', className)} />;
  }
  const naming = alt ? { role: 'img', 'aria-label': alt } : { 'aria-hidden': true };
  return (
    <span
      className={cn('flex h-full w-full flex-col items-center justify-center gap-1 bg-slate-100 text-xs text-slate-600', className)}
      {...naming}
    >
      {image.status === 'failed' ? <ImageOff className="h-5 w-5" aria-hidden /> : <Loader2 className="h-5 w-5 animate-spin" aria-hidden />}
      <span>{text}</span>
    </span>
  );
}

const GAP = 8;
const MIN_TILE = 104;

/**
 * A virtualised grid of thumbnails: only the rows in view exist in the page, so a set of
 * 2000 photos scrolls as smoothly as a set of 20.
 */
export function ImageGrid({
  images,
  alt,
  renderOverlay,
  onOpen,
  maxHeight = 420,
  testId,
  reveal,
}: {
  images: CatalogImage[];
  alt: (image: CatalogImage, index: number) => string;
  renderOverlay?: (image: CatalogImage, index: number) => ReactNode;
  onOpen?: (image: CatalogImage, index: number) => void;
  maxHeight?: number;
  testId?: string;
  /** A photo to scroll into view (a new `nonce` scrolls again): its row is made first if it is out of view. */
  reveal?: { index: number; nonce: number } | null;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => setWidth(entry!.contentRect.width));
    observer.observe(el);
    setWidth(el.clientWidth);
    return () => observer.disconnect();
  }, []);
  const columns = Math.max(2, Math.floor((width + GAP) / (MIN_TILE + GAP)));
  const tile = width > 0 ? (width - GAP * (columns - 1)) / columns : MIN_TILE;
  const rows = Math.ceil(images.length / columns);
  const virtualizer = useVirtualizer({
    count: rows,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => tile + GAP,
    overscan: 3,
  });
  useEffect(() => {
    virtualizer.measure();
  }, [tile, virtualizer]);
  useEffect(() => {
    if (reveal) virtualizer.scrollToIndex(Math.floor(reveal.index / columns), { align: 'auto' });
  }, [reveal, columns, virtualizer]);

  return (
    <div ref={scrollRef} className="overflow-y-auto pr-1" style={{ maxHeight }} data-testid={testId} data-photo-scroller>
      <div style={{ height: Math.max(0, rows * (tile + GAP) - GAP), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((row) => (
          <div key={row.key} className="absolute left-0 right-0 flex" style={{ top: row.index * (tile + GAP), height: tile, gap: GAP }}>
            {images.slice(row.index * columns, row.index * columns + columns).map((image, i) => {
              const index = row.index * columns + i;
              return (
                <div
                  key={image.id}
                  className="relative overflow-hidden rounded-lg border border-slate-200 bg-slate-50"
                  style={{ width: tile, height: tile }}
                  data-testid="grid-image"
                  data-photo-index={index}
                  data-photo-id={image.id}
                >
                  {onOpen ? (
                    <button
                      type="button"
                      className="block h-full w-full focus-visible:outline-2 focus-visible:outline-brand-600"
                      onClick={() => onOpen(image, index)}
                      aria-label={thumbControlName(image, alt(image, index))}
                    >
                      <Thumb image={image} alt="" />
                    </button>
                  ) : (
                    <Thumb image={image} alt={alt(image, index)} />
                  )}
                  {renderOverlay?.(image, index)}
                </div>
              );
            })}
          </div>
        ))}
      </div>
    </div>
  );
}
