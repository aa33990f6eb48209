import { useState } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { CATALOG_KINDS } from '../../common/catalog';
import { PHOTO_ORDER_TEXTS as T } from '../../common/catalog-texts';
import type { CatalogImage } from '../../common/schemas/catalog';
import { CurrentImages } from '../../src/features/catalog/current-images';
import { catalogKeys, useCatalogEntry } from '../../src/features/catalog/api';
import { usePhotoOrder } from '../../src/features/catalog/photo-order';
import { json, stubServer, type Call } from './network';

const photos = (n: number): CatalogImage[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `img-${i + 1}`,
    position: i,
    status: 'ready',
    url: `/api/files/p/${i + 1}.png`,
    displayUrl: `/api/files/p/${i + 1}-d.jpg`,
    thumbUrl: `/api/files/p/${i + 1}-t.jpg`,
    width: 4,
    height: 4,
    sizeBytes: 10,
    originalName: `leaf_${i + 1}.png`,
  }));

/** The edit dialog's part that orders photos, on the entry as the query cache holds it (the moves made keep it current). */
function Harness() {
  const [version, setVersion] = useState(4);
  const entry = useCatalogEntry(CATALOG_KINDS.pest, 'pest-1');
  const order = usePhotoOrder({
    kind: CATALOG_KINDS.pest,
    entry: entry.data,
    version,
    onVersion: setVersion,
    onSentForReview: () => undefined,
  });
  return (
    <>
      <CurrentImages
        name="Stem borer"
        images={order.ordered}
        removed={new Set()}
        onToggle={() => undefined}
        onMove={order.move}
        saving={order.busy}
        error={order.error}
      />
      <output data-testid="version">{version}</output>
    </>
  );
}

function renderHarness(images: CatalogImage[]) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client.setQueryData(catalogKeys.detail(CATALOG_KINDS.pest, 'pest-1'), { id: 'pest-1', version: 4, images });
  return render(
    <QueryClientProvider client={client}>
      <Harness />
    </QueryClientProvider>,
  );
}

/** The photos' ids in the order shown (each tile's original name is its id's number). */
const shownOrder = () => screen.getAllByTestId('current-image').map((tile) => tile.getAttribute('data-photo-id'));

const moved = (calls: Call[]) => calls.filter((c) => c.method === 'POST' && c.url.pathname === '/api/rice_pests/pest-1/photos/move');

describe('photo order by keyboard', () => {
  it('moves a photo with the arrow keys, says where it went, keeps focus on it and sends one move', async () => {
    let version = 4;
    const { calls } = stubServer({
      'POST /api/rice_pests/pest-1/photos/move': (call) => {
        const body = call.body as { version: number; photoId: string; position: number };
        expect(body.version).toBe(version);
        version += 1;
        return json({
          id: 'pest-1',
          version,
          updatedAt: '2026-03-01T00:00:00.000Z',
          photoId: body.photoId,
          from: 2,
          position: body.position,
          count: 5,
          mainImageUrl: '/api/files/p/3.png',
        });
      },
    });
    renderHarness(photos(5));
    expect(within(screen.getAllByTestId('current-image')[0]!).getByText(T.mainPhoto)).toBeTruthy();

    const handle = screen.getByRole('button', { name: T.handle(3, 5) });
    handle.focus();
    fireEvent.keyDown(handle, { key: 'ArrowLeft' });
    expect(shownOrder()).toEqual(['img-1', 'img-3', 'img-2', 'img-4', 'img-5']);
    expect(screen.getByTestId('photo-order-announcement').textContent).toBe(T.moved(3, 2, 5));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: T.handle(2, 5) })));

    fireEvent.keyDown(document.activeElement!, { key: 'ArrowUp' });
    expect(shownOrder()).toEqual(['img-3', 'img-1', 'img-2', 'img-4', 'img-5']);
    expect(screen.getByTestId('photo-order-announcement').textContent).toBe(T.madeMain(2));
    const first = screen.getAllByTestId('current-image')[0]!;
    expect(within(first).getByText(T.mainPhoto)).toBeTruthy();
    expect(within(first).queryByRole('button', { name: T.makeMain(1) })).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: T.handle(1, 5) })));

    // The two presses on one photo go as one move, on the version the form has.
    await waitFor(() => expect(moved(calls)).toHaveLength(1));
    expect(moved(calls)[0]!.body).toEqual({ version: 4, photoId: 'img-3', position: 0 });
    await waitFor(() => expect(screen.getByTestId('version').textContent).toBe('5'));

    // The buttons do the same, and the next move is made on the new version.
    fireEvent.click(screen.getByRole('button', { name: T.moveLater(4) }));
    expect(shownOrder()).toEqual(['img-3', 'img-1', 'img-2', 'img-5', 'img-4']);
    expect(screen.getByTestId('photo-order-announcement').textContent).toBe(T.moved(4, 5, 5));
    await waitFor(() => expect(moved(calls)).toHaveLength(2));
    expect(moved(calls)[1]!.body).toEqual({ version: 5, photoId: 'img-4', position: 4 });
    // Move later is not offered on the last place: focus went to the photo's handle.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: T.handle(5, 5) })));
    expect((screen.getByRole('button', { name: T.moveLater(5) }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: T.makeMain(3) }));
    expect(shownOrder()[0]).toBe('img-2');
    await waitFor(() => expect(moved(calls)).toHaveLength(3));
    expect(moved(calls)[2]!.body).toEqual({ version: 6, photoId: 'img-2', position: 0 });
  });

  it('a move the server refuses (the entry changed meanwhile) shows the photos as saved and says why', async () => {
    stubServer({
      'POST /api/rice_pests/pest-1/photos/move': () => json({ error: { code: 'VERSION_CONFLICT', message: 'Changed.' } }, 409),
    });
    renderHarness(photos(3));
    const handle = screen.getByRole('button', { name: T.handle(2, 3) });
    handle.focus();
    fireEvent.keyDown(handle, { key: 'Home' });
    expect(shownOrder()).toEqual(['img-2', 'img-1', 'img-3']);
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', T.conflict);
    expect(shownOrder()).toEqual(['img-1', 'img-2', 'img-3']);
    expect(screen.getByTestId('version').textContent).toBe('4');
  });

  it('a photo moved past the first six opens the whole grid (where the browser test follows focus)', async () => {
    stubServer({
      'POST /api/rice_pests/pest-1/photos/move': (call) =>
        json({
          id: 'pest-1',
          version: 5,
          updatedAt: '2026-03-01T00:00:00.000Z',
          photoId: (call.body as { photoId: string }).photoId,
          from: 5,
          position: 6,
          count: 9,
          mainImageUrl: null,
        }),
    });
    vi.stubGlobal(
      'ResizeObserver',
      class {
        observe(): void {
          /* the grid keeps the width it read first */
        }
        unobserve(): void {
          /* nothing observed */
        }
        disconnect(): void {
          /* nothing observed */
        }
      },
    );
    renderHarness(photos(9));
    const later = screen.getByRole('button', { name: T.moveLater(6) });
    await act(async () => {
      later.focus();
      fireEvent.click(later);
    });
    expect(screen.getByTestId('photo-order-announcement').textContent).toBe(T.moved(6, 7, 9));
    expect(screen.getByTestId('current-images-grid')).toBeTruthy();
  });
});
