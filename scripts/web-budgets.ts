/**
 * JavaScript budgets of the built web app (`npm run budgets`, part of `npm test` after the web build).
 *
 * Reads Vite's manifest (apps/web/dist/.vite/manifest.json) and, for each page, follows the static imports of the
 * app's entry and of every lazy route module the page's URL matches — everything the browser must fetch before the
 * page can render. Sizes are the files as sent: the precompressed `.br` / `.gz` beside each file (written by the
 * build), or the file itself when it was too small to compress. The budget applies to brotli, what browsers receive
 * (every current browser accepts it, Chromium on http://localhost too); gzip, for other clients, is printed beside.
 *
 * Run: npm run build -w @greenroom/web && npm run budgets
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export interface PageBudget {
  name: string;
  /** Manifest keys of the modules the page loads: the entry, then each lazy route module its URL matches. */
  modules: string[];
  /** Budget for the page's JavaScript as sent brotli-compressed, in KB (1,000 bytes). */
  maxBrotliKb: number;
}

/** The app's entry: every page loads it first. */
const everyPage = ['index.html'];

export const pages: PageBudget[] = [
  { name: 'sign-in (/sign-in)', modules: [...everyPage, 'src/app/routes/sign-in.tsx'], maxBrotliKb: 150 },
  {
    name: 'chat (/channels/:id/chat)',
    modules: [
      ...everyPage,
      'src/app/routes/signed-in-layout.tsx',
      'src/app/routes/channels/channel-layout.tsx',
      'src/app/routes/channels/chat.tsx',
    ],
    maxBrotliKb: 250,
  },
];

export interface FileSizes {
  file: string;
  raw: number;
  gzip: number;
  brotli: number;
}

export interface PageReport {
  page: PageBudget;
  js: FileSizes[];
  css: FileSizes[];
}

function sizeOf(dist: string, file: string): FileSizes {
  const full = path.join(dist, file);
  const raw = statSync(full).size;
  const variant = (ext: string) => (existsSync(full + ext) ? statSync(full + ext).size : raw);
  return { file, raw, gzip: variant('.gz'), brotli: variant('.br') };
}

/** Every chunk and stylesheet the page's modules import statically, each once. */
export function pageFiles(manifest: Manifest, modules: string[]): { js: string[]; css: string[] } {
  const js = new Set<string>();
  const css = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the build manifest (was the route module renamed? update scripts/web-budgets.ts)`);
    if (chunk.file.endsWith('.js')) js.add(chunk.file);
    for (const sheet of chunk.css ?? []) css.add(sheet);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of modules) visit(key);
  return { js: [...js], css: [...css] };
}

export function measure(dist: string): PageReport[] {
  const manifestPath = path.join(dist, '.vite', 'manifest.json');
  if (!existsSync(manifestPath)) throw new Error(`${manifestPath} is missing: run \`npm run build -w @greenroom/web\` first`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  return pages.map((page) => {
    const files = pageFiles(manifest, page.modules);
    return { page, js: files.js.map((f) => sizeOf(dist, f)), css: files.css.map((f) => sizeOf(dist, f)) };
  });
}

export const sum = (files: FileSizes[], key: 'raw' | 'gzip' | 'brotli') => files.reduce((total, f) => total + f[key], 0);
export const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;

function main(): void {
  const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/web/dist');
  let over = false;
  for (const { page, js, css } of measure(dist)) {
    const brotli = sum(js, 'brotli');
    const ok = brotli <= page.maxBrotliKb * 1000;
    over ||= !ok;
    console.log(
      `${ok ? 'ok  ' : 'OVER'} ${page.name}: JavaScript ${js.length} files, ${kb(sum(js, 'raw'))} raw, ${kb(brotli)} brotli ` +
        `(budget ${page.maxBrotliKb} KB), ${kb(sum(js, 'gzip'))} gzip; CSS ${kb(sum(css, 'raw'))} raw, ${kb(sum(css, 'brotli'))} brotli`,
    );
    if (!ok || process.argv.includes('--verbose')) {
      for (const f of [...js].sort((a, b) => b.brotli - a.brotli).slice(0, 12))
        console.log(`       ${kb(f.brotli).padStart(9)}  ${f.file}`);
    }
  }
  if (over) {
    console.error(
      'A page is over its JavaScript budget: load what it does not need at first render lazily (a dialog, a menu, a rarely used ' +
        'form), or see how apps/web/chunks.ts groups modules.',
    );
    process.exit(1);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
