/**
 * Runs a command against a real PostgreSQL server: `TEST_DATABASE_URL` when set, otherwise a
 * throw-away cluster started here from the installed PostgreSQL binaries (Debian: postgresql).
 * Usage: tsx scripts/with-postgres.ts <command> [args…]
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
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

function postgresUser(): { uid: number; gid: number } {
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  const uid = id('-u');
  const gid = id('-g');
  if (!Number.isInteger(uid) || !Number.isInteger(gid) || uid <= 0) {
    console.error('Running as root needs the `postgres` system user (Debian: apt-get install -y postgresql).');
    process.exit(1);
  }
  return { uid, gid };
}

/** Fast shutdown (SIGINT); SIGKILL if the server has not gone after 15 s, so the suite never hangs here. */
async function stop(server: ChildProcess): Promise<void> {
  if (server.exitCode != null || server.signalCode != null) return;
  const exited = new Promise((r) => server.once('exit', r));
  server.kill('SIGINT');
  const timer = setTimeout(() => server.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
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
    console.error(
      'PostgreSQL is not installed: the suite runs its database tests on a real PostgreSQL server too.\nInstall it (Debian: apt-get install -y postgresql) or set TEST_DATABASE_URL.',
    );
    process.exit(1);
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'greenroom-pg-'));
  chmodSync(dir, 0o777);
  const dataDir = path.join(dir, 'data');
  // PostgreSQL refuses to run as root: run it as the `postgres` system user then. The process is
  // spawned with that uid directly (no runuser/su in between: su ignores SIGINT, so the cluster
  // would never be told to stop and this script would never exit).
  const user = process.getuid?.() === 0 ? postgresUser() : {};
  const init = spawnSync(initdb, ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8'], {
    encoding: 'utf8',
    ...user,
  });
  if (init.status !== 0) {
    console.error(init.stdout, init.stderr);
    process.exit(1);
  }
  const port = await freePort();
  const server = spawn(
    postgres,
    [
      '-D',
      dataDir,
      '-p',
      String(port),
      '-k',
      dir,
      '-h',
      '127.0.0.1',
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'max_connections=200',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], ...user },
  );
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
  await stop(server);
  rmSync(dir, { recursive: true, force: true });
  process.exit(code);
}

void main();
