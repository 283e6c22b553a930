/** Builds a small Fastify app with a fresh World and one or more platform plugins, listening on 127.0.0.1. */
import { expect } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EmulatorContext, RegisteredApp } from '../src/context';
import { World, type Account, type Channel, type Platform } from '../src/world';

type Plugin = (app: FastifyInstance, ctx: EmulatorContext) => Promise<void>;

export interface Harness {
  app: FastifyInstance;
  world: World;
  ctx: EmulatorContext;
  origin: string;
  close(): Promise<void>;
}

function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function startHarness(...plugins: Plugin[]): Promise<Harness> {
  const app = Fastify();
  const world = new World();
  let origin = 'http://127.0.0.1:0';
  const apps: Record<string, RegisteredApp> = {};
  for (const platform of ['twitch', 'youtube', 'kick', 'tiktok', 'spotify', 'discord']) {
    apps[platform] = {
      clientId: `${platform}-client`,
      clientSecret: `${platform}-secret`,
      redirectUris: ['http://127.0.0.1/cb'],
      webhookUrl: null,
    };
  }
  const ctx: EmulatorContext = { world, apps, origin: () => origin, random: seeded(42) };
  for (const plugin of plugins) await plugin(app, ctx);
  await app.listen({ host: '127.0.0.1', port: 0 });
  origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return { app, world, ctx, origin, close: () => app.close() };
}

export function account(
  world: World,
  platform: Platform,
  id: string,
  login: string,
  kind: Account['kind'] = 'viewer',
  extra: Partial<Account> = {},
): Account {
  return world.addAccount({
    id,
    platform,
    kind,
    login,
    displayName: login.charAt(0).toUpperCase() + login.slice(1),
    color: '#FF5733',
    avatarUrl: `https://example.test/${login}.png`,
    email: `${login}@example.test`,
    createdAt: new Date('2024-01-01T00:00:00Z'),
    ...extra,
  });
}

export function channel(world: World, platform: Platform, id: string, extra: Partial<Channel> = {}): Channel {
  return world.addChannel({
    id,
    platform,
    title: 'Hello stream',
    categoryId: '15',
    categoryName: 'Just Chatting',
    live: true,
    startedAt: new Date(),
    viewerCount: 42,
    broadcastId: null,
    liveChatId: null,
    moderators: new Set(),
    vips: new Set(),
    subscribers: new Set(),
    followers: new Map(),
    chatters: new Set(),
    bans: new Map(),
    ...extra,
  });
}

export function token(world: World, platform: Platform, userId: string | null, scopes: string[], clientId = `${platform}-client`): string {
  return world.issueToken({ platform, clientId, userId, scopes, ttlSeconds: 3600, refreshable: true }).accessToken;
}

export interface ReceivedRequest {
  headers: IncomingHttpHeaders;
  body: string;
  url: string;
}

/** A plain HTTP server that records every request; `respond` picks the status per request. */
export async function startReceiver(
  respond: (request: ReceivedRequest, index: number) => number = () => 200,
): Promise<{ url: string; received: ReceivedRequest[]; close(): Promise<void> }> {
  const received: ReceivedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), url: req.url ?? '' };
      received.push(entry);
      res.statusCode = respond(entry, received.length - 1);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/webhooks/kick`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Asymmetric matchers typed as `unknown` (vitest types them as `any`). */
export const anyString: unknown = expect.any(String);
export const anyNumber: unknown = expect.any(Number);
export const anyBoolean: unknown = expect.any(Boolean);
export function matching(pattern: RegExp | string): unknown {
  return expect.stringMatching(pattern);
}
export function containing(text: string): unknown {
  return expect.stringContaining(text);
}
export function objectContaining(object: Record<string, unknown>): unknown {
  return expect.objectContaining(object);
}
