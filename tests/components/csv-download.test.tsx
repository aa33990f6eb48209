import { afterEach, describe, expect, it, vi } from 'vitest';
import { downloadCsv, type ExportProgress } from '../../src/features/history/api';
import { ApiError } from '../../src/lib/api';
import { json, stubServer } from './network';

afterEach(() => {
  vi.restoreAllMocks();
});

/** A streamed response in the given chunks, as the server sends the CSV. */
function streamed(chunks: string[], headers: Record<string, string>): Response {
  const bytes = chunks.map((c) => new TextEncoder().encode(c));
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = bytes.shift();
      if (next) controller.enqueue(next);
      else controller.close();
    },
  });
  return new Response(body, { status: 200, headers });
}

/** Catches the download the way the browser would receive it: the link's name and the Blob behind it. */
function catchDownload() {
  const saved: { name: string; blob: Blob | null } = { name: '', blob: null };
  const blobs = new Map<string, Blob>();
  vi.stubGlobal(
    'URL',
    Object.assign(globalThis.URL, {
      createObjectURL: (blob: Blob) => {
        const url = `blob:test/${blobs.size}`;
        blobs.set(url, blob);
        return url;
      },
      revokeObjectURL: (url: string) => {
        blobs.delete(url);
      },
    }),
  );
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.name = this.download;
    saved.blob = blobs.get(this.href) ?? null;
  });
  return saved;
}

describe('History export (CSV download)', () => {
  it("streams the file in chunks, counts rows as they come, and saves it under the server's name", async () => {
    const csv = [
      'Timestamp,User,Action,Collection,Document,Description\n',
      '2026-01-05 08:00,Ana,CREATE,Rice Varieties,NSIC Rc 222,"Created, with a comma"\n2026-01-05',
      ' 09:00,Ben,DELETE,Rice Pests,Black bug,Deleted\n',
    ];
    const server = stubServer({
      'GET /api/history/export.csv': () =>
        streamed(csv, {
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': 'attachment; filename="history-logs-2026-01-05.csv"',
        }),
    });
    const saved = catchDownload();
    const progress: ExportProgress[] = [];
    const result = await downloadCsv(
      { range: 'all', action: 'DELETE', q: 'black bug' },
      (p) => progress.push(p),
      new AbortController().signal,
    );

    expect(result).toEqual({ fileName: 'history-logs-2026-01-05.csv', rows: 2 });
    expect(server.calls[0]!.url.search).toBe('?action=DELETE&q=black+bug');
    expect(progress.at(-1)).toEqual({ bytes: new TextEncoder().encode(csv.join('')).length, rows: 2 });
    expect(saved.name).toBe('history-logs-2026-01-05.csv');
    expect(await saved.blob!.text()).toBe(csv.join(''));
    expect(saved.blob!.type).toBe('text/csv;charset=utf-8');
  });

  it("turns a refused export into the server's message, saving nothing", async () => {
    stubServer({
      'GET /api/history/export.csv': () => json({ error: { code: 'FORBIDDEN', message: 'You do not have access to this.' } }, 403),
    });
    const saved = catchDownload();
    const failed = await downloadCsv({ range: 'all' }, () => undefined, new AbortController().signal).catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(ApiError);
    expect(failed).toMatchObject({ status: 403, message: 'You do not have access to this.' });
    expect(saved.blob).toBeNull();
  });
});
