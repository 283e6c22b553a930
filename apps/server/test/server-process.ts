/**
 * The real server as a child process (`node --import tsx apps/server/src/main.ts`, so a signal
 * reaches the server itself), on its own port and data, using an emulator running in the test's
 * process (EMULATOR_URL) so the platforms outlive the server. Plus the seeding of a data directory
 * or database with a signed-in user and a channel whose Twitch, Kick and YouTube are connected.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Emulator } from '@greenroom/platform-emulator';
import { openDatabase } from '../src/db/client';
import { channelProviders } from '../src/db/schema';
import { TokenCipher } from '../src/lib/crypto';
import { newId } from '../src/lib/ids';
import { persistentSecret } from '../src/lib/secrets';
import { ChannelService } from '../src/modules/channels';
import { SessionService } from '../src/modules/auth';
import { UserService } from '../src/modules/user';
import { scopesFor } from '../src/platforms/scopes';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const seededPlatforms = ['twitch', 'kick', 'youtube'] as const;
export type SeededPlatform = (typeof seededPlatforms)[number];

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface Seeded {
  userId: string;
  channelId: string;
  token: string;
  cp: Record<SeededPlatform, string>;
}

/**
 * A user with a session, and a channel with Twitch, Kick and YouTube connected as the emulator's
 * `greenroomdemo` accounts (tokens for the server's local app ids), written straight into the data
 * the server will open.
 */
export async function seedChannel(emulator: Emulator, where: { dataDir: string; databaseUrl?: string }): Promise<Seeded> {
  const database = await openDatabase(where.databaseUrl ? { url: where.databaseUrl } : { dataDir: where.dataDir });
  try {
    const cipher = new TokenCipher(persistentSecret(undefined, where.dataDir, 'encryption-key', 32));
    const user = await new UserService(database.db, cipher, { disconnectPlatforms: async () => {} }).signIn(
      'twitch',
      { providerUserId: newId(), login: 'owner', displayName: 'Owner', avatarUrl: null },
      { accessToken: 'a', refreshToken: 'r', expiresAt: null, scopes: [] },
    );
    const session = await new SessionService(database.db, 30, []).create(user.id);
    const channelId = (
      await new ChannelService(database.db, { audit: { record: async () => {} }, disconnectPlatforms: async () => {} }).create(
        user.id,
        'Durable chat',
      )
    ).id;
    const cp = {} as Record<SeededPlatform, string>;
    for (const p of seededPlatforms) {
      const account = emulator.world.accountByLogin(p, 'greenroomdemo')!;
      const token = emulator.world.issueToken({
        platform: p,
        clientId: `greenroom-${p}`,
        userId: account.id,
        scopes: scopesFor[p].channel,
        ttlSeconds: 36_000,
        refreshable: true,
      });
      cp[p] = newId();
      await database.db.insert(channelProviders).values({
        id: cp[p],
        channelId,
        provider: p,
        providerChannelId: account.id,
        providerChannelName: account.login,
        accessTokenEnc: cipher.encrypt(token.accessToken),
        refreshTokenEnc: token.refreshToken ? cipher.encrypt(token.refreshToken) : null,
        tokenExpiresAt: new Date(Date.now() + 36_000_000),
        scopes: scopesFor[p].channel,
      });
    }
    return { userId: user.id, channelId, token: session.token, cp };
  } finally {
    await database.close();
  }
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** What the server wrote to stderr (its warnings and errors). */
  stderr: () => string;
  /** What the server logged (stdout: its pino lines at LOG_LEVEL). */
  stdout: () => string;
  /** Resolves with the exit code or signal. */
  exited: Promise<number | NodeJS.Signals | null>;
  get(path: string, token: string): Promise<Response>;
}

/** Starts the server and waits until it answers /api/health. */
export async function startServer(options: {
  port: number;
  dataDir: string;
  emulatorUrl: string;
  env?: Record<string, string>;
  /** Extra node options (e.g. --cpu-prof for a benchmark). */
  nodeArgs?: string[];
  /** Run the production build (apps/server/dist/main.js, as `npm start` does) instead of the sources under tsx. */
  built?: boolean;
  timeoutMs?: number;
}): Promise<ServerProcess> {
  const url = `http://127.0.0.1:${options.port}`;
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.DATABASE_URL;
  const entry = options.built ? ['--enable-source-maps', 'apps/server/dist/main.js'] : ['--import', 'tsx', 'apps/server/src/main.ts'];
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...entry], {
    cwd: root,
    env: {
      ...env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(options.port),
      PUBLIC_URL: url,
      DATA_DIR: options.dataDir,
      EMULATOR: 'true',
      EMULATOR_URL: options.emulatorUrl,
      LOG_LEVEL: 'warn',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    if (stdout.length > 200_000) stdout = stdout.slice(-100_000);
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    if (stderr.length > 200_000) stderr = stderr.slice(-100_000);
  });
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  const deadline = Date.now() + (options.timeoutMs ?? 90_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the server exited at start:\n${stderr}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not start:\n${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    child,
    stderr: () => stderr,
    stdout: () => stdout,
    exited,
    get: (p, token) => fetch(`${url}${p}`, { headers: { authorization: `Bearer ${token}` } }),
  };
}

/** Waits until every connection of the channel reports `connected`. */
/**
 * Another channel of the seeded user with only Twitch connected, as a new emulator account `login` (its own
 * EventSub connection). Returns the channel and connection ids.
 */
export async function seedTwitchChannel(
  emulator: Emulator,
  where: { dataDir: string; databaseUrl?: string },
  userId: string,
  login: string,
): Promise<{ channelId: string; cp: string }> {
  const res = await fetch(`${emulator.origin}/_emulator/accounts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ platform: 'twitch', kind: 'streamer', displayName: login, login }),
  });
  const account = (await res.json()) as { id: string };
  const database = await openDatabase(where.databaseUrl ? { url: where.databaseUrl } : { dataDir: where.dataDir });
  try {
    const cipher = new TokenCipher(persistentSecret(undefined, where.dataDir, 'encryption-key', 32));
    const channelId = (
      await new ChannelService(database.db, { audit: { record: async () => {} }, disconnectPlatforms: async () => {} }).create(
        userId,
        `Channel of ${login}`,
      )
    ).id;
    const token = emulator.world.issueToken({
      platform: 'twitch',
      clientId: 'greenroom-twitch',
      userId: account.id,
      scopes: scopesFor.twitch.channel,
      ttlSeconds: 36_000,
      refreshable: true,
    });
    const cp = newId();
    await database.db.insert(channelProviders).values({
      id: cp,
      channelId,
      provider: 'twitch',
      providerChannelId: account.id,
      providerChannelName: login,
      accessTokenEnc: cipher.encrypt(token.accessToken),
      refreshTokenEnc: token.refreshToken ? cipher.encrypt(token.refreshToken) : null,
      tokenExpiresAt: new Date(Date.now() + 36_000_000),
      scopes: scopesFor.twitch.channel,
    });
    return { channelId, cp };
  } finally {
    await database.close();
  }
}

export async function connectionsUp(server: ServerProcess, seeded: Seeded, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await server.get(`/api/2/channels/${seeded.channelId}/providers`, seeded.token);
    if (res.ok) {
      const list = (await res.json()) as { health: { state: string } | null }[];
      if (list.length === seededPlatforms.length && list.every((p) => p.health?.state === 'connected')) return;
    }
    if (Date.now() > deadline) throw new Error(`connections did not come up: ${await res.text()}\n${server.stderr()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Every message of the channel's chat log (following the history cursor). */
export async function fullHistory(server: ServerProcess, seeded: Seeded): Promise<{ id: string; text: string }[]> {
  const out: { id: string; text: string }[] = [];
  let before: string | null = null;
  for (;;) {
    const res = await server.get(
      `/api/2/channels/${seeded.channelId}/chat/messages?limit=500${before ? `&before=${before}` : ''}`,
      seeded.token,
    );
    if (!res.ok) throw new Error(`history: HTTP ${res.status} ${await res.text()}`);
    const page = (await res.json()) as { records: { id: string; text: string }[]; cursor: string | null };
    out.push(...page.records);
    if (!page.cursor) return out;
    before = page.cursor;
  }
}
