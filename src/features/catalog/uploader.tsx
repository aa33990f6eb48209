import { useEffect, useRef, useState, type DragEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { AlertCircle, CheckCircle2, FolderOpen, ImagePlus, Loader2, RotateCcw, X } from 'lucide-react';
import { DRAFT_TEXTS, UPLOAD_TEXTS } from '../../../common/catalog-texts';
import { Button } from '../../components/ui/button';
import { cn } from '../../components/ui/cn';
import { isHeic, looksLikeImage } from './heic';
import { formatBytes, formatDuration } from './format';
import { useUploadBatch, type UploadBatch, type UploadItem } from './upload-batch';
import { filesFromDrop } from './drop-files';
import { ConnectionNote, KeepOriginals } from './upload-notes';

function Preview({ item }: { item: UploadItem }) {
  const [url, setUrl] = useState<string | null>(null);
  const file = item.file;
  useEffect(() => {
    if (item.thumbUrl) {
      setUrl(item.thumbUrl);
      return;
    }
    if (file.size === 0 || isHeic(file) || file.size > 15 * 1024 * 1024) return;
    const objectUrl = URL.createObjectURL(file);
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [file, item.thumbUrl]);
  return url ? (
    <img src={url} alt="" className="h-10 w-10 shrink-0 rounded object-cover" decoding="async" onError={() => setUrl(null)} />
  ) : (
    <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded bg-slate-100 text-[10px] font-semibold text-slate-500">
      {isHeic(file) ? 'HEIC' : 'IMG'}
    </span>
  );
}

const STATUS_TEXT: Record<UploadItem['status'], string> = {
  queued: UPLOAD_TEXTS.queued,
  converting: UPLOAD_TEXTS.converting,
  resizing: UPLOAD_TEXTS.resizing,
  missing: DRAFT_TEXTS.missing,
  uploading: UPLOAD_TEXTS.uploading,
  done: UPLOAD_TEXTS.done,
  failed: UPLOAD_TEXTS.failed,
  skipped: UPLOAD_TEXTS.skippedCopy,
};

interface CopyFlag {
  kind: 'near' | 'conflict';
  text: string;
  thumbUrl: string | null;
  sibling: UploadItem | null;
}

/**
 * What an uploaded disease photo is a copy of, as the server found it: a photo of another disease
 * (a label conflict), else another photo of this entry (a near copy: this batch's or a saved one).
 */
function copyFlag(item: UploadItem, batch: UploadBatch): CopyFlag | null {
  if (item.status !== 'done') return null;
  const other = item.similar.find((s) => s.entryId !== null && s.entryId !== batch.entryId);
  if (other) return { kind: 'conflict', text: UPLOAD_TEXTS.alsoIn(other.entryName ?? ''), thumbUrl: other.thumbUrl, sibling: null };
  for (const s of item.similar) {
    const sibling =
      s.entryId === null ? (batch.items.find((i) => i !== item && i.imageId === s.imageId && i.status === 'done') ?? null) : null;
    if (sibling || (batch.entryId !== null && s.entryId === batch.entryId))
      return { kind: 'near', text: UPLOAD_TEXTS.nearCopy(s.distance), thumbUrl: s.thumbUrl, sibling };
  }
  return null;
}

function Row({ item, batch, onRemove }: { item: UploadItem; batch: UploadBatch; onRemove(key: number): void }) {
  const percent = item.size > 0 ? Math.round((item.loaded / item.size) * 100) : 0;
  const flag = copyFlag(item, batch);
  return (
    <div
      className="flex h-full items-center gap-3 border-b border-slate-100 px-3"
      data-testid="upload-row"
      data-status={item.status}
      data-copy={flag?.kind}
    >
      <Preview item={item} />
      {flag &&
        (flag.sibling ? (
          <Preview item={flag.sibling} />
        ) : flag.thumbUrl ? (
          <img src={flag.thumbUrl} alt="" className="h-10 w-10 shrink-0 rounded object-cover ring-2 ring-amber-400" />
        ) : null)}
      <div className="min-w-0 flex-1">
        <div className="flex items-center justify-between gap-2 text-sm">
          <span className="truncate text-slate-800" title={item.name}>
            {item.name}
          </span>
          <span className="shrink-0 text-xs tabular-nums text-slate-500">{formatBytes(item.size)}</span>
        </div>
        {item.status === 'failed' ? (
          <p className="truncate text-xs text-red-600" role="alert" title={item.error ?? ''}>
            {item.error}
          </p>
        ) : (
          <div className="mt-1 flex items-center gap-2">
            <div
              className="h-1.5 flex-1 overflow-hidden rounded-full bg-slate-100"
              role="progressbar"
              aria-label={`${item.name} upload`}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={item.status === 'done' ? 100 : percent}
            >
              <div
                className={cn('h-full rounded-full', item.status === 'done' ? 'bg-brand-600' : 'bg-brand-400')}
                style={{ width: `${item.status === 'done' ? 100 : percent}%` }}
              />
            </div>
            {flag ? (
              <span
                className={cn(
                  'max-w-[55%] shrink-0 truncate text-right text-xs',
                  flag.kind === 'conflict' ? 'text-red-700' : 'text-amber-700',
                )}
                title={flag.text}
              >
                {flag.text}
              </span>
            ) : (
              <span className="w-24 shrink-0 whitespace-nowrap text-right text-xs text-slate-500">
                {item.status === 'uploading' ? `${percent}%` : STATUS_TEXT[item.status]}
              </span>
            )}
          </div>
        )}
      </div>
      <span className="shrink-0" aria-hidden>
        {item.status === 'done' && <CheckCircle2 className="h-4 w-4 text-brand-600" />}
        {item.status === 'failed' && <AlertCircle className="h-4 w-4 text-red-500" />}
        {(item.status === 'uploading' || item.status === 'converting' || item.status === 'resizing') && (
          <Loader2 className="h-4 w-4 animate-spin text-slate-400" />
        )}
      </span>
      {item.status === 'failed' && (
        <Button variant="ghost" size="sm" onClick={() => batch.retry(item.key)} aria-label={`${UPLOAD_TEXTS.retry} ${item.name}`}>
          <RotateCcw className="h-4 w-4" aria-hidden />
          {UPLOAD_TEXTS.retry}
        </Button>
      )}
      <button
        type="button"
        onClick={() => onRemove(item.key)}
        aria-label={`${UPLOAD_TEXTS.remove} ${item.name}`}
        className="rounded p-1 text-slate-400 hover:bg-slate-100 hover:text-slate-600"
      >
        <X className="h-4 w-4" />
      </button>
    </div>
  );
}

/** How many uploaded photos look like another photo of the entry, or are also photos of another disease. */
function CopiesSummary({ batch }: { batch: UploadBatch }) {
  let near = 0;
  let conflicts = 0;
  for (const item of batch.items) {
    if (item.similar.length === 0) continue;
    const flag = copyFlag(item, batch);
    if (flag?.kind === 'near') near += 1;
    else if (flag?.kind === 'conflict') conflicts += 1;
  }
  if (near + conflicts === 0) return null;
  return (
    <p className="text-sm text-amber-800" role="status" data-testid="upload-copies">
      {UPLOAD_TEXTS.flaggedCopies(near, conflicts)}
    </p>
  );
}

const ROW_HEIGHT = 56;
/** Photos keep the camera's order (IMG_2 before IMG_10); one collator, not one per comparison. */
const byName = new Intl.Collator(undefined, { numeric: true });

/**
 * The bulk uploader: drop or pick files or a whole folder; each file shows its progress in a
 * virtualised list (smooth with 2000 files); a total bar shows count, bytes and time left.
 */
export function Uploader({
  batch,
  capacity,
  onTooMany,
  onRemove,
  disabled,
}: {
  batch: UploadBatch;
  /** How many more photos the entry can take. */
  capacity: number;
  onTooMany(): void;
  onRemove(key: number): void;
  disabled?: boolean;
}) {
  useUploadBatch(batch);
  const { stats, items } = batch;
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const [dragging, setDragging] = useState(false);
  const [skipped, setSkipped] = useState(0);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => listRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 6,
    getItemKey: (i) => items[i]!.key,
  });

  useEffect(() => {
    folderInput.current?.setAttribute('webkitdirectory', '');
    folderInput.current?.setAttribute('directory', '');
  }, []);

  function accept(files: File[]) {
    const images = files.filter(looksLikeImage);
    setSkipped(files.length - images.length);
    if (images.length === 0) return;
    if (batch.countNew(images) > capacity) {
      onTooMany();
      return;
    }
    images.sort((a, b) => byName.compare(a.name, b.name));
    batch.add(images);
  }

  async function onDrop(e: DragEvent<HTMLDivElement>) {
    e.preventDefault();
    setDragging(false);
    if (disabled) return;
    accept(await filesFromDrop(e.dataTransfer));
  }

  const percent = stats.totalBytes > 0 ? Math.round((stats.sentBytes / stats.totalBytes) * 100) : 0;
  const inProgress = stats.count - stats.done - stats.failed > 0;

  return (
    <div className="space-y-3">
      <div
        onDragOver={(e) => {
          e.preventDefault();
          if (!disabled) setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-testid="upload-dropzone"
        className={cn(
          'flex flex-col items-center justify-center gap-2 rounded-xl border-2 border-dashed px-4 py-6 text-center text-sm transition-colors',
          dragging ? 'border-brand-500 bg-brand-50' : 'border-slate-300 bg-slate-50',
        )}
      >
        <ImagePlus className="h-8 w-8 text-brand-600" aria-hidden />
        <p className="text-slate-700">
          {UPLOAD_TEXTS.dropHere}{' '}
          <button
            type="button"
            className="font-semibold text-brand-700 underline-offset-2 hover:underline disabled:opacity-50"
            disabled={disabled}
            onClick={() => fileInput.current?.click()}
          >
            {UPLOAD_TEXTS.chooseFiles}
          </button>
          {' or '}
          <button
            type="button"
            className="inline-flex items-center gap-1 font-semibold text-brand-700 underline-offset-2 hover:underline disabled:opacity-50"
            disabled={disabled}
            onClick={() => folderInput.current?.click()}
          >
            <FolderOpen className="h-4 w-4" aria-hidden />
            {UPLOAD_TEXTS.chooseFolder}
          </button>
        </p>
        <p className="text-xs text-slate-500">{UPLOAD_TEXTS.acceptedTypes}</p>
        <input
          ref={fileInput}
          type="file"
          multiple
          accept="image/*,.heic,.heif"
          className="sr-only"
          data-testid="upload-input"
          aria-label={UPLOAD_TEXTS.chooseFiles}
          onChange={(e) => {
            accept(Array.from(e.target.files ?? []));
            e.target.value = '';
          }}
        />
        <input
          ref={folderInput}
          type="file"
          multiple
          className="sr-only"
          aria-label={UPLOAD_TEXTS.chooseFolder}
          tabIndex={-1}
          onChange={(e) => {
            accept(Array.from(e.target.files ?? []));
            e.target.value = '';
          }}
        />
      </div>
      <KeepOriginals batch={batch} disabled={disabled} />
      {skipped > 0 && (
        <p className="text-sm text-amber-700" role="status">
          {UPLOAD_TEXTS.skippedNotImages(skipped)}
        </p>
      )}

      {stats.count > 0 && (
        <div className="rounded-xl border border-slate-200">
          <div className="space-y-2 border-b border-slate-100 px-3 py-3">
            <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
              <span className="font-medium text-slate-800" data-testid="upload-total">
                {UPLOAD_TEXTS.total(stats.done, stats.count)}
              </span>
              <span className="text-xs tabular-nums text-slate-500">
                {formatBytes(stats.sentBytes)} of {formatBytes(stats.totalBytes)}
                {inProgress && stats.secondsLeft !== null && stats.secondsLeft > 0 && (
                  <> · {UPLOAD_TEXTS.timeLeft(formatDuration(stats.secondsLeft))}</>
                )}
              </span>
            </div>
            <div
              className="h-2 overflow-hidden rounded-full bg-slate-100"
              role="progressbar"
              aria-label="All photos"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={percent}
            >
              <div className="h-full rounded-full bg-brand-600" style={{ width: `${percent}%` }} />
            </div>
            <ConnectionNote batch={batch} inProgress={inProgress} />
            {stats.skipped > 0 && (
              <p className="text-sm text-slate-600" role="status">
                {UPLOAD_TEXTS.skippedCopies(stats.skipped)}
              </p>
            )}
            <CopiesSummary batch={batch} />
            {stats.failed > 0 && (
              <div className="flex flex-wrap items-center gap-2 text-sm text-red-600">
                <span role="alert">{UPLOAD_TEXTS.failedUploads(stats.failed)}</span>
                <Button variant="secondary" size="sm" onClick={() => batch.retryFailed()}>
                  <RotateCcw className="h-4 w-4" aria-hidden />
                  {UPLOAD_TEXTS.retryAll}
                </Button>
                <Button variant="ghost" size="sm" onClick={() => batch.removeFailed()}>
                  {UPLOAD_TEXTS.remove}
                </Button>
              </div>
            )}
          </div>
          <div ref={listRef} className="max-h-64 overflow-y-auto" data-testid="upload-list">
            <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
              {virtualizer.getVirtualItems().map((row) => {
                const item = items[row.index]!;
                return (
                  <div
                    key={row.key}
                    style={{ position: 'absolute', top: 0, left: 0, right: 0, height: ROW_HEIGHT, transform: `translateY(${row.start}px)` }}
                  >
                    <Row item={item} batch={batch} onRemove={onRemove} />
                  </div>
                );
              })}
            </div>
          </div>
        </div>
      )}
    </div>
  );
}
