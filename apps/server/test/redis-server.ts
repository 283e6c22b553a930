/**
 * A throw-away Redis for tests, like scripts/with-postgres.ts starts a throw-away PostgreSQL: `redis-server` from
 * the installed package (Debian: redis-server), on a free port, with nothing saved to disk. `redisServerBin()` is
 * null when it is not installed; tests that need it skip and say so.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { freePort } from './server-process';

export function redisServerBin(): string | null {
  if (process.env.REDIS_SERVER_BIN) return process.env.REDIS_SERVER_BIN;
  for (const candidate of ['/usr/bin/redis-server', '/usr/local/bin/redis-server']) if (existsSync(candidate)) return candidate;
  const fromPath = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).stdout.trim();
  return fromPath || null;
}

export const redisMissing = 'redis-server is not installed (Debian: apt-get install -y redis-server): the cluster tests are skipped';

export interface RedisServer {
  url: string;
  port: number;
  /** Stops it (SIGKILL: Redis gone at once, as a crash); `start()` brings it back on the same port. */
  kill(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export async function startRedisServer(options: { port?: number } = {}): Promise<RedisServer> {
  const bin = redisServerBin();
  if (!bin) throw new Error(redisMissing);
  const port = options.port ?? (await freePort());
  let child: ChildProcess | null = null;
  const start = async () => {
    const proc = spawn(bin, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = proc;
    let log = '';
    proc.stdout.on('data', (d: Buffer) => (log += d.toString()));
    proc.stderr.on('data', (d: Buffer) => (log += d.toString()));
    const deadline = Date.now() + 15_000;
    while (!/Ready to accept connections/i.test(log)) {
      if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`redis-server did not start:\n${log}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const halt = async (signal: NodeJS.Signals) => {
    const proc = child;
    child = null;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill(signal);
    await exited;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, port, start, kill: () => halt('SIGKILL'), stop: () => halt('SIGTERM') };
}
