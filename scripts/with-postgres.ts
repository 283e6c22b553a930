/**
 * Runs a command against a real PostgreSQL server: `TEST_DATABASE_URL` when set, otherwise a
 * throw-away cluster started here from the installed PostgreSQL binaries (Debian: postgresql).
 * Usage: tsx scripts/with-postgres.ts <command> [args…]
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

function findBin(name: string): string | null {
  const fromPath = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
  if (fromPath) return fromPath;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  for (const version of readdirSync(root).sort().reverse()) {
    const candidate = path.join(root, version, 'bin', name);
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: 'inherit', env, shell: false });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function main(): Promise<void> {
  const [cmd, ...args] = process.argv.slice(2);
  if (!cmd) throw new Error('usage: with-postgres <command> [args…]');
  const npx = (c: string) => (c === 'vitest' || c === 'playwright' ? 'npx' : c);
  const fullArgs = npx(cmd) === 'npx' ? [cmd, ...args] : args;

  if (process.env.TEST_DATABASE_URL) {
    process.exit(await run(npx(cmd), fullArgs, process.env));
  }
  const initdb = findBin('initdb');
  const postgres = findBin('postgres');
  if (!initdb || !postgres) {
    console.error('PostgreSQL is not installed: the suite runs its database tests on a real PostgreSQL server too.\nInstall it (Debian: apt-get install -y postgresql) or set TEST_DATABASE_URL.');
    process.exit(1);
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'greenroom-pg-'));
  chmodSync(dir, 0o777);
  const dataDir = path.join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  // PostgreSQL refuses to run as root: run it as the `postgres` system user then.
  const wrap = (bin: string, binArgs: string[]) => (asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...binArgs]] : [bin, binArgs]) as [string, string[]];
  const [c1, a1] = wrap(initdb, ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
  const init = spawnSync(c1, a1, { encoding: 'utf8' });
  if (init.status !== 0) {
    console.error(init.stdout, init.stderr);
    process.exit(1);
  }
  const port = await freePort();
  const [c2, a2] = wrap(postgres, ['-D', dataDir, '-p', String(port), '-k', dir, '-h', '127.0.0.1', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200']);
  const server = spawn(c2, a2, { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  server.stderr.on('data', (d: Buffer) => (log += d.toString()));
  const url = `postgresql://postgres@127.0.0.1:${port}/postgres`;
  const ready = Date.now() + 30_000;
  while (!/ready to accept connections/.test(log)) {
    if (Date.now() > ready || server.exitCode != null) {
      console.error(log);
      process.exit(1);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  console.log(`PostgreSQL test server on ${url}`);
  const code = await run(npx(cmd), fullArgs, { ...process.env, TEST_DATABASE_URL: url });
  server.kill('SIGINT');
  await new Promise((r) => server.once('exit', r));
  rmSync(dir, { recursive: true, force: true });
  process.exit(code);
}

void main();
