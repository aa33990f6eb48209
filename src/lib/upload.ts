import { SESSION_PATH } from '../../common/first-visit';
import type { ApiErrorBody } from '../../common/schemas/auth';
import { ERRORS } from '../../common/texts';
import { api, ApiError } from './api';

/**
 * Posts a multipart form with XMLHttpRequest, so the browser reports how much of it has gone
 * (fetch cannot tell upload progress). Resolves with the JSON answer of a 2xx; rejects with
 * ApiError (the server's message) or an AbortError.
 */
export function sendForm<T>(url: string, form: FormData, onProgress: (fraction: number) => void, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) { reject(new DOMException('Aborted', 'AbortError')); return; }
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (e) => { if (e.lengthComputable && e.total > 0) onProgress(Math.min(1, e.loaded / e.total)); };
    xhr.onload = () => {
      let data: unknown;
      try { data = JSON.parse(xhr.responseText); } catch { data = undefined; }
      if (xhr.status >= 200 && xhr.status < 300 && data) { resolve(data as T); return; }
      const err = (data as ApiErrorBody | undefined)?.error;
      // The session check tells the shell when the session is gone (it then goes to /login).
      if (xhr.status === 401) void api(SESSION_PATH).catch(() => undefined);
      reject(new ApiError(xhr.status, err?.code ?? 'INTERNAL', err?.message ?? (xhr.status === 413 ? ERRORS.payloadTooLarge : ERRORS.internal), err?.fields ?? {}));
    };
    xhr.onerror = () => reject(new ApiError(0, 'NETWORK', 'Cannot reach the server. Check your connection and try again.'));
    xhr.onabort = () => reject(new DOMException('Aborted', 'AbortError'));
    signal.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}
