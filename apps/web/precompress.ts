import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Text files worth compressing; images and fonts are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;
/** Below this a compressed copy saves less than the headers it costs. */
export const PRECOMPRESS_MIN_BYTES = 1024;

async function* filesUnder(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(file);
    else yield file;
  }
}

/**
 * Writes `<file>.br` (quality 11) and `<file>.gz` (level 9) beside every compressible file of a built folder,
 * so the server sends them by content negotiation without compressing per request. A copy that would not be
 * smaller than the file is not written. Returns how many files were compressed.
 */
export async function precompressFolder(dir: string): Promise<number> {
  const jobs: Promise<void>[] = [];
  for await (const file of filesUnder(dir)) {
    if (!COMPRESSIBLE.test(file) || path.basename(path.dirname(file)) === '.vite') continue;
    if ((await stat(file)).size < PRECOMPRESS_MIN_BYTES) continue;
    jobs.push(
      (async () => {
        const raw = await readFile(file);
        const [br, gzipped] = await Promise.all([
          brotli(raw, {
            params: {
              [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
            },
          }),
          gz(raw, { level: constants.Z_BEST_COMPRESSION }),
        ]);
        if (br.length < raw.length) await writeFile(`${file}.br`, br);
        if (gzipped.length < raw.length) await writeFile(`${file}.gz`, gzipped);
      })(),
    );
  }
  await Promise.all(jobs);
  return jobs.length;
}

/** Vite plugin: precompress the production build once it is written. */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'greenroom-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    // After the files are written (not called when the build fails or writes nothing).
    async writeBundle() {
      const count = await precompressFolder(outDir);
      this.info(`precompressed ${count} files (brotli, gzip)`);
    },
  };
}
