import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sendForm } from '../../src/lib/upload';

/** An XMLHttpRequest that sends when told: upload progress, the end of the upload, then (maybe) an answer. */
class HeldRequest {
  static last: HeldRequest | null = null;
  upload: { onprogress: ((e: ProgressEvent) => void) | null; onload: (() => void) | null } = { onprogress: null, onload: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  status = 0;
  responseText = '';
  aborted = false;
  constructor() {
    HeldRequest.last = this;
  }
  open() {}
  setRequestHeader() {}
  send() {}
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  /** Every byte sent. */
  sent() {
    this.upload.onprogress?.({ lengthComputable: true, loaded: 100, total: 100 } as ProgressEvent);
    this.upload.onload?.();
  }
  answer(body: unknown) {
    this.status = 201;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

describe('sendForm', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal('XMLHttpRequest', HeldRequest);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('takes a silent connection for lost after 45 s, also once every byte is sent', async () => {
    const answer = sendForm('/x', new FormData(), () => {}, new AbortController().signal);
    const outcome = answer.then(
      () => 'answered',
      (err: Error) => err.message,
    );
    HeldRequest.last!.sent();
    await vi.advanceTimersByTimeAsync(47_000);
    expect(HeldRequest.last!.aborted).toBe(true);
    expect(await outcome).toMatch(/Cannot reach the server/);
  });

  it('waits answerWithinMs for the answer once every byte is sent, while the server works on the file', async () => {
    const progress: number[] = [];
    const answer = sendForm('/x', new FormData(), (f) => progress.push(f), new AbortController().signal, { answerWithinMs: 10 * 60_000 });
    HeldRequest.last!.sent();
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(HeldRequest.last!.aborted).toBe(false);
    HeldRequest.last!.answer({ id: 'set-1' });
    expect(await answer).toEqual({ id: 'set-1' });
    expect(progress).toEqual([1]);
  });
});
