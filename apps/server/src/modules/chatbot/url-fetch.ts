/**
 * `$(urlfetch <url>)`: a GET that cannot be turned against the server's own network. http(s) only;
 * the host is resolved here and every address must be public (no loopback, private, link-local,
 * multicast or unspecified ranges), and the connection goes to the address that was checked (no DNS
 * rebinding); 2 s for the whole request; at most 2 KB of a text/* (or JSON) body; at most 3
 * redirects, each checked the same way.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

export const URLFETCH_TIMEOUT_MS = 2_000;
export const URLFETCH_MAX_BYTES = 2_048;
const MAX_REDIRECTS = 3;

export class UrlFetchError extends Error {}

/** True for addresses a fetch must never reach. */
export function isPrivateAddress(address: string): boolean {
  if (net.isIPv4(address)) {
    const [a = 0, b = 0] = address.split('.').map(Number);
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 192 && b === 0) ||
      (a === 198 && (b === 18 || b === 19)) ||
      a >= 224
    );
  }
  if (net.isIPv6(address)) {
    const v = address.toLowerCase();
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(v);
    if (mapped) return isPrivateAddress(mapped[1]!);
    return (
      v === '::' ||
      v === '::1' ||
      v.startsWith('fc') ||
      v.startsWith('fd') ||
      v.startsWith('fe8') ||
      v.startsWith('fe9') ||
      v.startsWith('fea') ||
      v.startsWith('feb') ||
      v.startsWith('ff')
    );
  }
  return true;
}

export interface UrlFetchOptions {
  /** Tests only: allows addresses that would be refused (the emulator on loopback). */
  allowAddress?: (address: string) => boolean;
  resolve?: (host: string) => Promise<{ address: string; family: number }[]>;
}

/** Fetches a URL as text under the rules above; throws `UrlFetchError` with a short reason. */
export async function urlFetch(raw: string, options: UrlFetchOptions = {}): Promise<string> {
  const deadline = Date.now() + URLFETCH_TIMEOUT_MS;
  let url = parseUrl(raw);
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const address = await checkedAddress(url, options);
    const result = await get(url, address, deadline);
    if (result.redirect) {
      url = parseUrl(new URL(result.redirect, url).toString());
      continue;
    }
    return result.body;
  }
  throw new UrlFetchError('too many redirects');
}

function parseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UrlFetchError('not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UrlFetchError('only http and https');
  if (url.username || url.password) throw new UrlFetchError('no credentials in URLs');
  return url;
}

async function checkedAddress(url: URL, options: UrlFetchOptions): Promise<{ address: string; family: number }> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const found = net.isIP(host)
    ? [{ address: host, family: net.isIPv6(host) ? 6 : 4 }]
    : await (options.resolve ?? ((h: string) => dnsLookup(h, { all: true })))(host).catch(() => {
        throw new UrlFetchError('unknown host');
      });
  if (found.length === 0) throw new UrlFetchError('unknown host');
  for (const a of found) {
    if (isPrivateAddress(a.address) && !options.allowAddress?.(a.address)) throw new UrlFetchError('address not allowed');
  }
  return found[0]!;
}

function get(url: URL, target: { address: string; family: number }, deadline: number): Promise<{ body: string; redirect: string | null }> {
  return new Promise((resolve, reject) => {
    const remaining = deadline - Date.now();
    if (remaining <= 0) return reject(new UrlFetchError('timed out'));
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(
      url,
      {
        method: 'GET',
        headers: { accept: 'text/plain, text/*;q=0.9, application/json;q=0.8', 'user-agent': 'Greenroom-Chatbot' },
        // Connect to the address that was checked (SNI and Host still name the host).
        lookup: (_host, _opts, cb: (err: Error | null, address: string, family: number) => void) => cb(null, target.address, target.family),
        timeout: remaining,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400 && res.headers.location) {
          res.resume();
          return resolve({ body: '', redirect: res.headers.location });
        }
        if (status >= 400) {
          res.resume();
          return reject(new UrlFetchError(`HTTP ${status}`));
        }
        const type = (res.headers['content-type'] ?? '').toLowerCase();
        if (!type.startsWith('text/') && !type.startsWith('application/json')) {
          res.resume();
          return reject(new UrlFetchError('not text'));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size >= URLFETCH_MAX_BYTES) return;
          chunks.push(chunk);
          size += chunk.length;
          if (size >= URLFETCH_MAX_BYTES) {
            res.destroy();
            finish();
          }
        });
        let done = false;
        const finish = () => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          const text = Buffer.concat(chunks)
            .subarray(0, URLFETCH_MAX_BYTES)
            .toString('utf8')
            .replace(/\uFFFD+$/, '');
          resolve({ body: text.replace(/\s+/g, ' ').trim(), redirect: null });
        };
        res.on('end', finish);
        res.on('error', (e) => (done ? undefined : reject(new UrlFetchError(e.message))));
      },
    );
    const timer = setTimeout(() => req.destroy(new UrlFetchError('timed out')), remaining);
    req.on('timeout', () => req.destroy(new UrlFetchError('timed out')));
    req.on('error', (e) => {
      clearTimeout(timer);
      reject(e instanceof UrlFetchError ? e : new UrlFetchError(e.message));
    });
    req.end();
  });
}
