/** Stale-chunk reload guard: after a deploy, old chunk names 404; reload once per 30 s. */
export const STALE_CHUNK_RELOAD_INTERVAL_MS = 30_000;
export const STALE_CHUNK_STORAGE_KEY = 'greenroom.stale_chunk_reload_at';

const chunkPatterns = [
  /failed to fetch dynamically imported module/i,
  /error loading dynamically imported module/i,
  /importing a module script failed/i,
  /unable to preload/i,
  /loading chunk [\w-]+ failed/i,
  /chunkloaderror/i,
];
const cssPatterns = [/unable to preload css/i, /loading css chunk/i, /\.css\b/i];

function textOf(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  if (typeof error === 'string') return error;
  return '';
}

export function isCssLoadError(error: unknown): boolean {
  const text = textOf(error);
  return cssPatterns.some((pattern) => pattern.test(text)) && /(preload|load|chunk)/i.test(text);
}

/** A failed dynamic import of a JavaScript chunk (CSS load errors are not, and are ignored). */
export function isChunkLoadError(error: unknown): boolean {
  if (isCssLoadError(error)) return false;
  const text = textOf(error);
  return chunkPatterns.some((pattern) => pattern.test(text));
}

interface GuardEnv {
  storage: Pick<Storage, 'getItem' | 'setItem'> | null;
  now: number;
  reload: () => void;
}

function defaultEnv(): GuardEnv {
  let storage: Storage | null = null;
  try {
    storage = window.sessionStorage;
  } catch {
    storage = null;
  }
  return { storage, now: Date.now(), reload: () => window.location.reload() };
}

/**
 * Reloads the page for a stale-chunk error unless it already did within the last 30 s
 * (timestamp in sessionStorage). Returns whether a reload was started.
 */
export function reloadForStaleChunk(error: unknown, env: GuardEnv = defaultEnv()): boolean {
  if (!isChunkLoadError(error) || !env.storage) return false;
  const last = Number(env.storage.getItem(STALE_CHUNK_STORAGE_KEY) ?? 0);
  if (Number.isFinite(last) && last > 0 && env.now - last < STALE_CHUNK_RELOAD_INTERVAL_MS) return false;
  env.storage.setItem(STALE_CHUNK_STORAGE_KEY, String(env.now));
  env.reload();
  return true;
}

/** Vite reports failed preloads with a `vite:preloadError` event; CSS failures are swallowed, JS ones reload. */
export function installStaleChunkGuard(target: Window = window): () => void {
  const listener = (event: Event) => {
    const payload = (event as Event & { payload?: unknown }).payload;
    if (isCssLoadError(payload)) {
      event.preventDefault();
      return;
    }
    if (reloadForStaleChunk(payload)) event.preventDefault();
  };
  target.addEventListener('vite:preloadError', listener);
  return () => target.removeEventListener('vite:preloadError', listener);
}
