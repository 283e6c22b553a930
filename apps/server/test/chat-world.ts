/**
 * A channel with Twitch, Kick and YouTube connected (the emulator's `greenroomdemo` accounts) through the real
 * connection manager — EventSub WebSocket, signed Kick webhooks, YouTube polling — and a ws client for the staff
 * and public chat sockets. Shared by the chat and moderation integration tests.
 */
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { startEmulator, type Account, type Emulator } from '@greenroom/platform-emulator';
import type { AccessLevelValue } from '@greenroom/contracts/access';
import { providers } from '@greenroom/contracts/providers';
import { channelProviders, channelUsers } from '../src/db/schema';
import { newId } from '../src/lib/ids';
import { scopesFor } from '../src/platforms/scopes';
import { createTestApp, testApps, type TestApp, type TestUser } from './helper';
import { control, until } from './platform-fixtures';

export const chatPlatforms = ['twitch', 'kick', 'youtube'] as const;
export type ChatPlatform = (typeof chatPlatforms)[number];

export interface ChatWorld {
  emulator: Emulator;
  t: TestApp;
  /** ws://host:port of the app. */
  base: string;
  owner: TestUser;
  channelId: string;
  /** Channel provider id per platform. */
  cp: Record<ChatPlatform, string>;
  streamer: Record<ChatPlatform, Account>;
  /** A new user with `level` in the channel. */
  member(displayName: string, level: AccessLevelValue): Promise<TestUser>;
  newViewer(p: ChatPlatform, name: string): Promise<{ id: string; displayName: string }>;
  chat(p: ChatPlatform, text: string, user?: string): Promise<{ id: string }>;
  close(): Promise<void>;
}

export async function startChatWorld(channelName: string, appOptions: Parameters<typeof createTestApp>[0] = {}): Promise<ChatWorld> {
  const emulator = await startEmulator({ port: 0, apps: testApps, crowd: false });
  emulator.ctx.youtube!.pollingIntervalMillis = 50;
  emulator.ctx.kick!.delivery.retryDelaysMs = [50, 100];
  process.env.TWURPLE_MOCK_API_PORT = String(emulator.port);
  // A YouTube channel that is offline is polled every 30 s by default; tests that take a stream live would wait that long.
  const platformOptions = {
    ...appOptions.platformOptions,
    youtube: { offlinePoll: { baseMs: 500, maxMs: 2_000 }, ...appOptions.platformOptions?.youtube },
  };
  const t = await createTestApp({ ...appOptions, platformOptions, emulatorOrigin: emulator.origin });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (t.app.server.address() as AddressInfo).port;
  await control(emulator, 'PUT', '/apps/kick', { webhookUrl: `http://127.0.0.1:${port}/api/2/webhooks/kick` });

  const owner = await t.createUser({ displayName: 'Owner' });
  const channelId = (await t.s.channels.create(owner.id, channelName)).id;
  const cp = {} as Record<ChatPlatform, string>;
  const streamer = {} as Record<ChatPlatform, Account>;
  for (const p of chatPlatforms) {
    streamer[p] = emulator.world.accountByLogin(p, 'greenroomdemo')!;
    const token = emulator.world.issueToken({
      platform: p,
      clientId: testApps[p].clientId,
      userId: streamer[p].id,
      scopes: scopesFor[p].channel,
      ttlSeconds: 3600,
      refreshable: true,
    });
    cp[p] = newId();
    await t.s.db.insert(channelProviders).values({
      id: cp[p],
      channelId,
      provider: p,
      providerChannelId: streamer[p].id,
      providerChannelName: streamer[p].login,
      accessTokenEnc: t.s.cipher.encrypt(token.accessToken),
      refreshTokenEnc: token.refreshToken ? t.s.cipher.encrypt(token.refreshToken) : null,
      tokenExpiresAt: new Date(Date.now() + 3600_000),
      scopes: scopesFor[p].channel,
    });
    await t.s.connections.restart(cp[p]);
  }
  await until(() => chatPlatforms.every((p) => t.s.connections.health(cp[p])?.state === 'connected'));

  let viewers = 0;
  return {
    emulator,
    t,
    base: `ws://127.0.0.1:${port}`,
    owner,
    channelId,
    cp,
    streamer,
    async member(displayName, level) {
      const user = await t.createUser({ displayName });
      await t.s.db.insert(channelUsers).values({ channelId, userId: user.id, level });
      return user;
    },
    newViewer: (p, name) => control(emulator, 'POST', '/accounts', { platform: p, displayName: `${name}${++viewers}`, kind: 'viewer' }),
    chat: (p, text, user) => control(emulator, 'POST', '/chat', { platform: p, channel: streamer[p].id, text, ...(user ? { user } : {}) }),
    async close() {
      await t.close();
      await t.s.chat.close();
      await emulator.close();
    },
  };
}

/**
 * Connects Greenroom's system bots on the platforms that have them (the emulator's bot accounts moderate every
 * channel): they answer where the channel has no bot of its own.
 */
export async function connectSystemBots(world: ChatWorld): Promise<void> {
  for (const p of chatPlatforms) if (providers[p].systemBot) await connectSystemBot(world, p);
}

/** Connects the emulator's first bot account of `p` as Greenroom's system bot for that platform. */
export async function connectSystemBot(world: ChatWorld, p: ChatPlatform): Promise<void> {
  const bot = world.emulator.world.accountsOf(p, 'bot')[0]!;
  const token = world.emulator.world.issueToken({
    platform: p,
    clientId: testApps[p].clientId,
    userId: bot.id,
    scopes: scopesFor[p].bot,
    ttlSeconds: 3600,
    refreshable: true,
  });
  await world.t.s.systemBots.connect(
    p,
    { providerUserId: bot.id, login: bot.login, displayName: bot.displayName, avatarUrl: null },
    {
      accessToken: token.accessToken,
      refreshToken: token.refreshToken,
      expiresAt: new Date(Date.now() + 3600_000),
      scopes: scopesFor[p].bot,
    },
  );
}

export type Frame = { type: string; data: Record<string, unknown> };

/** A ws client that records frames and resolves waits on them. */
export class SocketClient {
  readonly frames: Frame[] = [];
  readonly ws: WebSocket;
  closed: { code: number } | null = null;
  constructor(url: string, token?: string) {
    this.ws = new WebSocket(url, token ? ['greenroom', token] : []);
    this.ws.on('message', (data: Buffer) => this.frames.push(JSON.parse(data.toString('utf8')) as Frame));
    this.ws.on('close', (code) => (this.closed = { code }));
  }
  opened(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
      this.ws.once('error', reject);
    });
  }
  async waitFor<T>(pick: (frames: Frame[]) => T | undefined | null | false, timeoutMs = 15_000): Promise<T> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const v = pick(this.frames);
      if (v) return v;
      if (Date.now() > until)
        throw new Error(`timed out; frames: ${JSON.stringify(this.frames.map((f) => [f.type, f.data.kind ?? f.data.text]))}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  close() {
    this.ws.close();
  }
}
