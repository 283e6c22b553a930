import type { z } from 'zod';
import { errorBodySchema } from '@greenroom/contracts/errors';
import { clearAccessToken, getAccessToken } from './auth-token';

/** A failed API call: HTTP status plus the `{ type, message }` body. Status 0 means the server was not reached. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly body: unknown = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function isApiError(error: unknown, status?: number): error is ApiError {
  return error instanceof ApiError && (status === undefined || error.status === status);
}

/** 401 types that end the session. */
export const SESSION_ENDED_TYPES: readonly string[] = ['unauthenticated', 'user_no_longer_exists'];

export function isSessionEnded(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401 && SESSION_ENDED_TYPES.includes(error.type);
}

export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'X-XSRF-TOKEN';

export function readCookie(name: string, cookies: string = typeof document === 'undefined' ? '' : document.cookie): string | null {
  for (const part of cookies.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      const raw = part.slice(eq + 1).trim();
      try {
        return decodeURIComponent(raw);
      } catch {
        return raw;
      }
    }
  }
  return null;
}

type SessionEndedHandler = (error: ApiError) => void;

/** Where to send the browser when the session has ended: /sign-in, with `next` unless at /. */
export function signInPathFor(location: { pathname: string; search: string }): string {
  const current = `${location.pathname}${location.search}`;
  if (location.pathname === '/sign-in') return current; // already there: keep its own `next`
  return location.pathname === '/' ? '/sign-in' : `/sign-in?next=${encodeURIComponent(current)}`;
}

let onSessionEnded: SessionEndedHandler = () => {
  window.location.assign(signInPathFor(window.location));
};

/** The app installs its router-aware handler here; the default does a full page navigation. */
export function setSessionEndedHandler(handler: SessionEndedHandler): void {
  onSessionEnded = handler;
}

/** The server ended the session another way (a live socket closed for it): same as a 401. */
export function sessionEnded(message: string): void {
  clearAccessToken();
  onSessionEnded(new ApiError(401, 'unauthenticated', message));
}

export type QueryValue = string | number | boolean | null | undefined;
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions<T> {
  method?: HttpMethod;
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** A file sent as is (`application/octet-stream`) instead of a JSON body: an upload. */
  file?: Blob;
  /** Validates and types the response body. Omit for empty (204) answers. */
  schema?: z.ZodType<T>;
  signal?: AbortSignal;
}

export function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${path}${path.includes('?') ? '&' : '?'}${qs}` : path;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function errorFromResponse(response: Response, body: unknown): ApiError {
  const parsed = errorBodySchema.safeParse(body);
  if (parsed.success) return new ApiError(response.status, parsed.data.type, parsed.data.message, body);
  const fallback = response.statusText ? `${response.status} ${response.statusText}` : `Request failed with status ${response.status}`;
  return new ApiError(response.status, 'http_error', fallback, body);
}

/**
 * The one way the web app calls the API: bearer token from localStorage, anti-forgery header on
 * state-changing methods, JSON bodies, `{ type, message }` errors as `ApiError`. No retry and no timeout.
 */
export async function apiRequest<T = void>(path: string, options: RequestOptions<T> = {}): Promise<T> {
  const method = options.method ?? 'GET';
  const headers = new Headers({ Accept: 'application/json' });
  const token = getAccessToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  if (method !== 'GET') {
    const xsrf = readCookie(XSRF_COOKIE);
    if (xsrf) headers.set(XSRF_HEADER, xsrf);
  }
  let body: string | Blob | undefined;
  if (options.file !== undefined) {
    headers.set('Content-Type', 'application/octet-stream');
    body = options.file;
  } else if (options.body !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(options.body);
  }

  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.query), { method, headers, body, signal: options.signal, credentials: 'same-origin' });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'network_error', 'Could not reach the server. Check your connection and try again.');
  }

  const data = await readBody(response);
  if (!response.ok) {
    const error = errorFromResponse(response, data);
    if (isSessionEnded(error)) {
      clearAccessToken();
      onSessionEnded(error);
    }
    throw error;
  }
  if (!options.schema) return undefined as T;
  const parsed = options.schema.safeParse(data);
  if (!parsed.success)
    throw new ApiError(response.status, 'invalid_response', `Unexpected answer from the server for ${method} ${path}.`, data);
  return parsed.data;
}

export const api = {
  get: <T>(path: string, options: Omit<RequestOptions<T>, 'method' | 'body'> = {}) => apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T = void>(path: string, body?: unknown, options: Omit<RequestOptions<T>, 'method' | 'body'> = {}) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T = void>(path: string, body?: unknown, options: Omit<RequestOptions<T>, 'method' | 'body'> = {}) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  patch: <T = void>(path: string, body?: unknown, options: Omit<RequestOptions<T>, 'method' | 'body'> = {}) =>
    apiRequest<T>(path, { ...options, method: 'PATCH', body }),
  delete: <T = void>(path: string, options: Omit<RequestOptions<T>, 'method' | 'body'> = {}) =>
    apiRequest<T>(path, { ...options, method: 'DELETE' }),
};
