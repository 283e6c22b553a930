import { describe, expect, it, vi } from 'vitest';
import {
  isChunkLoadError,
  isCssLoadError,
  reloadForStaleChunk,
  STALE_CHUNK_RELOAD_INTERVAL_MS,
  STALE_CHUNK_STORAGE_KEY,
} from './stale-chunk';

function memoryStorage() {
  const map = new Map<string, string>();
  return { getItem: (key: string) => map.get(key) ?? null, setItem: (key: string, value: string) => void map.set(key, value), map };
}

const chunkError = new TypeError('Failed to fetch dynamically imported module: https://example.com/assets/chat-abc123.js');

describe('stale chunk detection', () => {
  it('recognises the dynamic import errors of Chromium, Firefox and Safari', () => {
    expect(isChunkLoadError(chunkError)).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module: /assets/x.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('Unable to preload /assets/x.js'))).toBe(true);
  });

  it('ignores CSS load errors and unrelated errors', () => {
    const css = new Error('Unable to preload CSS for /assets/chat-abc123.css');
    expect(isCssLoadError(css)).toBe(true);
    expect(isChunkLoadError(css)).toBe(false);
    expect(isChunkLoadError(new Error('Channel not found'))).toBe(false);
    expect(isChunkLoadError(null)).toBe(false);
  });
});

describe('reloadForStaleChunk', () => {
  it('reloads once, then not again within 30 s, then again after', () => {
    const storage = memoryStorage();
    const reload = vi.fn();
    const t0 = 1_000_000;
    expect(reloadForStaleChunk(chunkError, { storage, now: t0, reload })).toBe(true);
    expect(storage.map.get(STALE_CHUNK_STORAGE_KEY)).toBe(String(t0));
    expect(reloadForStaleChunk(chunkError, { storage, now: t0 + STALE_CHUNK_RELOAD_INTERVAL_MS - 1, reload })).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(reloadForStaleChunk(chunkError, { storage, now: t0 + STALE_CHUNK_RELOAD_INTERVAL_MS, reload })).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it('never reloads for CSS errors or other errors', () => {
    const reload = vi.fn();
    const storage = memoryStorage();
    expect(reloadForStaleChunk(new Error('Unable to preload CSS for /a.css'), { storage, now: 1, reload })).toBe(false);
    expect(reloadForStaleChunk(new Error('boom'), { storage, now: 1, reload })).toBe(false);
    expect(reload).not.toHaveBeenCalled();
  });
});
