import type { ApiErrorBody } from '../../common/schemas/auth';
import { ERRORS } from '../../common/texts';

/** A failed API call, carrying the server's catalogue code, SPEC text and field messages. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: Record<string, string> = {},
    readonly reason?: string,
    readonly body?: Record<string, unknown>,
  ) {
    super(message);
  }
}

type Listener = (error: ApiError) => void;
const unauthenticatedListeners = new Set<Listener>();

/** Called when any request learns that the session is gone (the shell then goes to /login). */
export function onUnauthenticated(listener: Listener): () => void {
  unauthenticatedListeners.add(listener);
  return () => unauthenticatedListeners.delete(listener);
}

export interface RequestOptions {
  method?: string;
  body?: unknown;
  signal?: AbortSignal;
  /** Suppress the global 401 handling (the login form handles its own errors). */
  skipAuthHandling?: boolean;
}

export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(path, { method: options.method ?? 'GET', headers, body, credentials: 'same-origin', signal: options.signal });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, 'NETWORK', 'Cannot reach the server. Check your connection and try again.');
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  const data = text ? safeJson(text) : undefined;
  if (!response.ok) {
    const err = errorOf(data);
    const error = new ApiError(
      response.status,
      err?.code ?? 'INTERNAL',
      err?.message ?? ERRORS.internal,
      err?.fields ?? {},
      err?.reason,
      err as Record<string, unknown>,
    );
    if (response.status === 401 && !options.skipAuthHandling) unauthenticatedListeners.forEach((l) => l(error));
    throw error;
  }
  return data as T;
}

type ErrorFields = ApiErrorBody['error'] & { reason?: string } & Record<string, unknown>;

/**
 * The error of a refused request's body: `{error: {code, message, fields?, …}}`, or the flat
 * `{error: message, fields?, …}` some routes answer (its other fields become the error's).
 */
export function errorOf(data: unknown): ErrorFields | undefined {
  const body = data as { error?: unknown } | undefined;
  if (typeof body?.error === 'string') {
    const { error: message, ...rest } = body as { error: string } & Record<string, unknown>;
    return {
      code: typeof rest.code === 'string' ? rest.code : 'INTERNAL',
      ...rest,
      message,
      fields: (rest.fields as Record<string, string> | undefined) ?? {},
    };
  }
  return body?.error && typeof body.error === 'object' ? (body.error as ErrorFields) : undefined;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
