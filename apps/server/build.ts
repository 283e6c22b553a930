/**
 * Production build of the server (`npm run build -w @greenroom/server`, part of `npm start`): one ES module bundle of
 * src/main.ts in dist/, with the workspace packages (TypeScript sources) and most npm packages compiled in — loading
 * one file instead of thousands of small modules is most of a fast start. The emulator stays a separate chunk, loaded
 * only when the server runs against it. The migrations are copied beside the bundle, where src/db/client.ts looks for
 * them; dist/ sits at the same depth as src/, so paths relative to the module (the web app's dist) resolve alike.
 *
 * It also makes dist/pglite-template: an empty embedded database, initialised and migrated, which a fresh DATA_DIR
 * starts as a copy of (PGlite's initdb takes seconds). It is made again only when the migrations or the PGlite or
 * Drizzle versions change (dist/pglite-template.stamp).
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { openDatabase } from './src/db/client';

const root = path.dirname(fileURLToPath(import.meta.url));
const outdir = path.join(root, 'dist');

/**
 * Dependencies loaded from node_modules at run time instead of being bundled: PGlite finds its wasm and data files
 * beside its own module; pg and ws look for optional native bindings; pino starts transports from files in worker
 * threads; tiktok-live-connector (protobuf, the real TikTok only) is loaded on first use.
 */
const external = [
  '@electric-sql/pglite',
  'pg',
  'pg-native',
  'pino',
  'thread-stream',
  'bufferutil',
  'utf-8-validate',
  'tiktok-live-connector',
];

const migrations = path.join(root, 'src/db/migrations');
const template = path.join(outdir, 'pglite-template');
const templateStamp = `${template}.stamp`;

/** The installed version of a dependency (its package.json may not be exported). */
function versionOf(pkg: string): string {
  let dir = path.dirname(createRequire(import.meta.url).resolve(pkg));
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest)) {
      const { name, version } = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
      if (name === pkg && version) return version;
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no package.json found for ${pkg}`);
    dir = parent;
  }
}

/** What the template depends on: the migrations and the versions of the engine and the migrator. */
function templateKey(): string {
  const hash = createHash('sha256');
  for (const pkg of ['@electric-sql/pglite', 'drizzle-orm']) hash.update(`${pkg}@${versionOf(pkg)}\n`);
  for (const file of readdirSync(migrations, { recursive: true, encoding: 'utf8' }).sort()) {
    const full = path.join(migrations, file);
    if (file.endsWith('.sql') || file.endsWith('.json')) hash.update(`${file}\n`).update(readFileSync(full));
  }
  return hash.digest('hex');
}

async function buildTemplate(key: string): Promise<void> {
  const scratch = mkdtempSync(path.join(tmpdir(), 'greenroom-pglite-'));
  try {
    const database = await openDatabase({ dataDir: scratch });
    await database.close();
    rmSync(template, { recursive: true, force: true });
    renameSync(path.join(scratch, 'pglite'), template);
    writeFileSync(templateStamp, key);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

const started = performance.now();
const key = templateKey();
const templateCurrent = existsSync(templateStamp) && readFileSync(templateStamp, 'utf8') === key && existsSync(template);
for (const entry of existsSync(outdir) ? readdirSync(outdir) : []) {
  if (templateCurrent && (entry === 'pglite-template' || entry === 'pglite-template.stamp')) continue;
  rmSync(path.join(outdir, entry), { recursive: true, force: true });
}
await build({
  // The embedded database's thread is its own entry: src/db/pglite-remote.ts starts dist/pglite-worker.js beside itself.
  entryPoints: { main: path.join(root, 'src/main.ts'), 'pglite-worker': path.join(root, 'src/db/pglite-worker.ts') },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  // Maps without the original sources: `--enable-source-maps` (npm start) keeps a loaded map in the heap, and the
  // sources of every bundled package made ~35 MB of it; stack traces map to files and lines all the same.
  sourcesContent: false,
  // Stack traces keep function and class names.
  keepNames: true,
  // V8 keeps each script's text in the heap: minified (names kept above) and ASCII only, so it is held as one-byte
  // strings (5.7 MB) instead of two-byte ones (16.7 MB: a single non-ASCII character in 8.7 MB of text doubles it).
  minifyWhitespace: true,
  minifySyntax: true,
  charset: 'ascii',
  legalComments: 'none',
  // Chunks sit beside the entries: every module of the bundle resolves relative paths from dist/.
  chunkNames: '[name]-[hash]',
  // Everything else is compiled in: loading one file instead of thousands of small modules is most of a fast start.
  external: external.flatMap((pkg) => [pkg, `${pkg}/*`]),
  // Bundled CommonJS modules call require() and read __dirname/__filename.
  banner: {
    js: [
      "import { createRequire as __greenroomCreateRequire } from 'node:module';",
      "import { fileURLToPath as __greenroomFileURLToPath } from 'node:url';",
      'const require = __greenroomCreateRequire(import.meta.url);',
      'const __filename = __greenroomFileURLToPath(import.meta.url);',
      "const __dirname = __greenroomFileURLToPath(new URL('.', import.meta.url));",
    ].join('\n'),
  },
  logLevel: 'warning',
});
cpSync(migrations, path.join(outdir, 'migrations'), { recursive: true });
if (!templateCurrent) await buildTemplate(key);
console.log(
  `server built into ${path.relative(process.cwd(), outdir) || '.'} in ${Math.round(performance.now() - started)} ms` +
    (templateCurrent ? '' : ' (with a new empty-database template)'),
);
