import { SESSION_PATH } from '../../common/first-visit';
import { ERRORS } from '../../common/texts';
import { api, ApiError, errorOf } from './api';

/** No byte sent and no answer for this long: the connection is taken as lost (a brownout leaves requests hanging). */
const STALL_MS = 45_000;
const connectionLost = () => new ApiError(0, 'NETWORK', 'Cannot reach the server. Check your connection and try again.');

/**
 * Posts a multipart form with XMLHttpRequest, so the browser reports how much of it has gone
 * (fetch cannot tell upload progress). Resolves with the JSON answer of a 2xx; rejects with
 * ApiError (the server's message; status 0 when the connection is lost: the browser went
 * offline, or the request stalled) or an AbortError. Once every byte is sent, the answer may take
 * `answerWithinMs` (default as long as a stall) while the server works on the file.
 */
export function sendForm<T>(
  url: string,
  form: FormData,
  onProgress: (fraction: number) => void,
  signal: AbortSignal,
  { answerWithinMs = STALL_MS }: { answerWithinMs?: number } = {},
): Promise<T> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new DOMException('Aborted', 'AbortError'));
      return;
    }
    const xhr = new XMLHttpRequest();
    let lastActivity = Date.now();
    let sent = false;
    let lost = false;
    const giveUp = () => {
      lost = true;
      xhr.abort();
    };
    const watchdog = setInterval(() => {
      if (Date.now() - lastActivity > (sent ? answerWithinMs : STALL_MS)) giveUp();
    }, 1000);
    globalThis.addEventListener?.('offline', giveUp);
    const done = () => {
      clearInterval(watchdog);
      globalThis.removeEventListener?.('offline', giveUp);
    };
    xhr.open('POST', url);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (e) => {
      lastActivity = Date.now();
      if (e.lengthComputable && e.total > 0) onProgress(Math.min(1, e.loaded / e.total));
    };
    xhr.upload.onload = () => {
      lastActivity = Date.now();
      sent = true;
    };
    xhr.onload = () => {
      done();
      let data: unknown;
      try {
        data = JSON.parse(xhr.responseText);
      } catch {
        data = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300 && data) {
        resolve(data as T);
        return;
      }
      const err = errorOf(data);
      // The session check tells the shell when the session is gone (it then goes to /login).
      if (xhr.status === 401) void api(SESSION_PATH).catch(() => undefined);
      reject(
        new ApiError(
          xhr.status,
          err?.code ?? 'INTERNAL',
          err?.message ?? (xhr.status === 413 ? ERRORS.payloadTooLarge : ERRORS.internal),
          err?.fields ?? {},
          err?.reason,
          err,
        ),
      );
    };
    xhr.onerror = () => {
      done();
      reject(connectionLost());
    };
    xhr.onabort = () => {
      done();
      reject(lost ? connectionLost() : new DOMException('Aborted', 'AbortError'));
    };
    signal.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}
