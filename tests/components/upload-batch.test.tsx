import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CATALOG_KINDS } from '../../common/catalog';
import { ApiError } from '../../src/lib/api';

// The network part of an upload (XMLHttpRequest with progress) is replaced by uploads the test
// finishes by hand; everything else is the real batch.
interface Pending {
  name: string;
  progress(fraction: number): void;
  resolve(id: string, extra?: Record<string, unknown>): void;
  reject(err: unknown): void;
  signal: AbortSignal;
}
const uploads = vi.hoisted(() => ({ pending: [] as Pending[] }));
vi.mock('../../src/features/catalog/api', () => ({
  uploadPhoto: (_kind: unknown, file: File, onProgress: (f: number) => void, signal: AbortSignal) =>
    new Promise((resolve, reject) => {
      const entry = {
        name: file.name,
        progress: onProgress,
        resolve: (id: string, extra: Record<string, unknown> = {}) => resolve({ id, ...extra }),
        reject,
        signal,
      };
      signal.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
      uploads.pending.push(entry);
    }),
}));

const { UploadBatch, useUploadBatch } = await import('../../src/features/catalog/upload-batch');
const { settlementOf } = await import('../../src/features/catalog/upload-stats');

const file = (name: string, bytes = 1000) => new File([new Uint8Array(bytes)], name, { type: 'image/jpeg' });
const take = (name: string) => {
  const i = uploads.pending.findIndex((p) => p.name === name);
  if (i < 0) throw new Error(`${name} is not uploading`);
  return uploads.pending.splice(i, 1)[0]!;
};

/** A component showing the batch as the upload dialog does (re-rendered by useUploadBatch). */
function BatchView({ batch }: { batch: InstanceType<typeof UploadBatch> }) {
  useUploadBatch(batch);
  return (
    <div>
      <p data-testid="stats">{`${batch.stats.done}/${batch.stats.count} done, ${batch.stats.failed} failed, ${batch.stats.active} active`}</p>
      <ul>
        {batch.items.map((i) => (
          <li key={i.key}>{`${i.name}: ${i.status}${i.error ? ` (${i.error})` : ''}`}</li>
        ))}
      </ul>
    </div>
  );
}

beforeEach(() => {
  uploads.pending.length = 0;
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Lets promise callbacks run, then the batch's batched notification (at most every 120 ms). */
async function settle() {
  await act(async () => {
    await Promise.resolve();
    await vi.advanceTimersByTimeAsync(200);
  });
}

describe('UploadBatch in the upload dialog', () => {
  it('uploads a few at a time, keeps the picked order, retries a failed file on its own', async () => {
    const batch = new UploadBatch(CATALOG_KINDS.pest, { concurrency: 2 });
    render(<BatchView batch={batch} />);
    act(() => batch.add([file('a.jpg'), file('b.jpg'), file('c.jpg')]));
    await settle();
    // Two at once; the third waits.
    expect(uploads.pending.map((p) => p.name)).toEqual(['a.jpg', 'b.jpg']);
    expect(screen.getByText('c.jpg: queued')).toBeTruthy();
    expect(screen.getByTestId('stats').textContent).toBe('0/3 done, 0 failed, 2 active');

    // b finishes first, a fails with the server's message: c starts in their places.
    take('b.jpg').resolve('id-b');
    await settle();
    take('a.jpg').reject(new ApiError(413, 'PAYLOAD_TOO_LARGE', 'The photo is too large.'));
    await settle();
    expect(screen.getByText('a.jpg: failed (The photo is too large.)')).toBeTruthy();
    expect(screen.getByText('b.jpg: done')).toBeTruthy();
    take('c.jpg').resolve('id-c');
    await settle();
    expect(screen.getByTestId('stats').textContent).toBe('2/3 done, 1 failed, 0 active');
    expect(batch.uploadedIds()).toEqual(['id-b', 'id-c']);

    // Retry sends only the failed one; the ids follow the order the files were picked in.
    act(() => batch.retry(batch.items[0]!.key));
    await settle();
    expect(uploads.pending.map((p) => p.name)).toEqual(['a.jpg']);
    take('a.jpg').resolve('id-a');
    await settle();
    expect(batch.uploadedIds()).toEqual(['id-a', 'id-b', 'id-c']);
    expect(screen.getByTestId('stats').textContent).toBe('3/3 done, 0 failed, 0 active');
  });

  it('removing an uploading file aborts it and starts the next; close hands back the staged ids', async () => {
    const batch = new UploadBatch(CATALOG_KINDS.disease, { concurrency: 1 });
    render(<BatchView batch={batch} />);
    act(() => batch.add([file('x.jpg'), file('y.jpg')]));
    await settle();
    const x = uploads.pending[0]!;
    expect(x.name).toBe('x.jpg');
    act(() => {
      expect(batch.remove(batch.items[0]!.key)).toBeNull();
    });
    await settle();
    expect(x.signal.aborted).toBe(true);
    expect(screen.queryByText(/^x\.jpg/)).toBeNull();
    take('y.jpg').resolve('id-y');
    await settle();
    expect(screen.getByText('y.jpg: done')).toBeTruthy();
    expect(batch.close()).toEqual(['id-y']);
  });

  it('leaves out a photo with the same bytes as another of the entry: not counted, its upload discarded', async () => {
    const discarded: string[][] = [];
    const batch = new UploadBatch(CATALOG_KINDS.disease, { concurrency: 3, entryId: 'blast', discard: (ids) => discarded.push(ids) });
    render(<BatchView batch={batch} />);
    act(() => batch.add([file('a.jpg'), file('b.jpg'), file('c.jpg')]));
    await settle();
    take('a.jpg').resolve('id-a', { sha256: 'same', similar: [] });
    await settle();
    const chosenBefore = batch.itemsVersion;
    take('b.jpg').resolve('id-b', { sha256: 'same', similar: [] });
    // A saved photo of this very entry, byte for byte.
    take('c.jpg').resolve('id-c', {
      sha256: 'other',
      similar: [{ imageId: 'saved-1', entryId: 'blast', entryName: 'Rice blast', distance: 0, exact: true, thumbUrl: null }],
    });
    await settle();
    expect(screen.getByText('b.jpg: skipped')).toBeTruthy();
    expect(screen.getByText('c.jpg: skipped')).toBeTruthy();
    expect(screen.getByTestId('stats').textContent).toBe('1/1 done, 0 failed, 0 active');
    expect(batch.stats.skipped).toBe(2);
    expect(discarded).toEqual([['id-b'], ['id-c']]);
    expect(batch.uploadedIds()).toEqual(['id-a']);
    expect(batch.chosenIds()).toEqual(['id-a']);
    // The dialog's chosen photos (kept per itemsVersion) drop the copies; a save waits for them no more.
    expect(batch.itemsVersion).toBeGreaterThan(chosenBefore);
    expect(settlementOf(batch.items)).toEqual({ unsettled: 0, failed: 0 });
  });

  it('a save reads the files as they are now, not the counts shown, which trail them', async () => {
    const batch = new UploadBatch(CATALOG_KINDS.pest, { concurrency: 2 });
    render(<BatchView batch={batch} />);
    act(() => batch.add([file('a.jpg'), file('b.jpg'), file('c.jpg')]));
    await settle();
    take('a.jpg').resolve('id-a');
    take('b.jpg').reject(new ApiError(413, 'PAYLOAD_TOO_LARGE', 'The photo is too large.'));
    await act(async () => {
      await Promise.resolve();
      await Promise.resolve();
    });
    expect(screen.getByTestId('stats').textContent).toBe('0/3 done, 0 failed, 2 active');
    expect(settlementOf(batch.items)).toEqual({ unsettled: 1, failed: 1 });
    take('c.jpg').resolve('id-c');
    await settle();
    expect(settlementOf(batch.items)).toEqual({ unsettled: 0, failed: 1 });
  });
});
