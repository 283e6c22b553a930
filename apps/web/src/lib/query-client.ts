import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isApiError, isSessionEnded } from './api-client';
import { notifyError } from './notify';

/** Data cache lifetime. */
export const CACHE_TIME_MS = 5 * 60 * 1000;

interface ErrorMeta extends Record<string, unknown> {
  /**
   * `false` when the component shows the error itself (an error view or an inline alert), so no red toast.
   * A number list: statuses the component handles itself (e.g. `[403, 404]`); other statuses still toast.
   */
  errorToast?: false | number[];
}

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: ErrorMeta;
    mutationMeta: ErrorMeta;
  }
}

function shouldToast(error: unknown, meta: ErrorMeta | undefined): boolean {
  if (isSessionEnded(error)) return false; // the api client already sends the browser to /sign-in
  if (error instanceof DOMException && error.name === 'AbortError') return false;
  const rule = meta?.errorToast;
  if (rule === false) return false;
  if (Array.isArray(rule) && isApiError(error) && rule.includes(error.status)) return false;
  return true;
}

/** One QueryClient: 5 min cache, no retry, and a red 5 s toast for errors. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (shouldToast(error, query.meta)) notifyError(error);
      },
    }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        if (shouldToast(error, mutation.meta)) notifyError(error);
      },
    }),
    defaultOptions: {
      queries: { staleTime: CACHE_TIME_MS, gcTime: CACHE_TIME_MS, retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
