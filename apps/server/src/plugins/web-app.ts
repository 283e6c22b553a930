import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import compress from '@fastify/compress';
import fastifyStatic from '@fastify/static';

/** API bodies smaller than this go out as they are: compressing them costs more than it saves. */
export const API_COMPRESSION_THRESHOLD_BYTES = 1024;

/** Files the web build precompresses (`.br`, `.gz` beside them): responses vary by Accept-Encoding. */
const PRECOMPRESSED = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;

/** Vite's output folder: every file name there carries a hash of its content. */
const HASHED = /^assets[\\/][^\\/]+$/;

/**
 * Compresses API answers (JSON above the threshold: brotli at a fast level, else gzip) and leaves everything else
 * alone: websocket upgrades, small bodies, and the web app's files, which the build precompressed. Register before
 * the routes. Compressed request bodies are not accepted (no decompression, so no decompression bombs).
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  const options = { threshold: API_COMPRESSION_THRESHOLD_BYTES, encodings: ['br', 'gzip'] as ('br' | 'gzip')[] };
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api/') && !route.websocket) route.compress ??= options;
  });
  await app.register(compress, { ...options, global: false, globalDecompression: false });
}

/**
 * Serves the built web app (apps/web/dist) when it exists: each file as the precompressed `.br` or `.gz` the browser
 * accepts; hashed assets immutable for a year, everything else (`index.html`, also the SPA fallback for app routes;
 * the favicon) revalidated every time. Source maps are never served. Unknown API paths and missing files stay JSON 404s.
 */
export async function registerWebApp(app: FastifyInstance, webDist: string | null): Promise<void> {
  const serveWeb = Boolean(webDist && existsSync(path.join(webDist, 'index.html')));
  if (serveWeb && webDist) {
    // `wildcard: true` looks files up per request, so a web build made while the server runs is served too.
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: true,
      index: false,
      // Cache-Control is set below, per file (the option's value would be applied to index.html too when a
      // precompressed copy is missing).
      cacheControl: false,
      preCompressed: true,
      // The precompressed copies are served by negotiation, not by name; source maps are not served at all.
      allowedPath: (pathname) => !/\.(?:map|br|gz)$/.test(pathname),
      setHeaders: (res, filePath) => {
        const file = filePath.replace(/\.(?:br|gz)$/, '');
        if (PRECOMPRESSED.test(file)) res.setHeader('vary', 'accept-encoding');
        res.setHeader('cache-control', HASHED.test(path.relative(webDist, file)) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    // The wildcard route would answer `/` as a directory (403): the root is the app's index page.
    app.get('/', (_request, reply) => reply.sendFile('index.html'));
  }
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    // The web app's routes: any GET that is not the API and not a file gets index.html (SPA fallback).
    if (serveWeb && request.method === 'GET' && !pathname.startsWith('/api/') && path.extname(pathname) === '') {
      return reply.sendFile('index.html');
    }
    return reply.status(404).send({ type: 'not_found', message: `No route ${request.method} ${pathname}` });
  });
}
