/** /_emulator/stream: a websocket feed of one channel's chat, events and product actions (batched, capped per batch). */
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { stringRecord } from '../http/params';
import { platforms, type ChannelEvent, type ChatMessage, type Platform, type ProductAction, type World } from '../world';

const flushMs = 100;
const maxPerFlush = 200;

function messageJson(world: World, m: ChatMessage): Record<string, unknown> {
  const author = world.account(m.platform, m.authorId);
  return {
    id: m.id,
    platform: m.platform,
    channelId: m.channelId,
    authorId: m.authorId,
    author: author?.displayName ?? m.authorId,
    color: author?.color ?? '',
    text: m.text,
    replyToId: m.replyToId,
    origin: m.origin,
    deleted: m.deleted,
    createdAt: m.createdAt.toISOString(),
  };
}

export function streamFeed(world: World, socket: WebSocket, platform: Platform | null, channelId: string | null): void {
  let pending: unknown[] = [];
  let dropped = 0;
  const matches = (p: Platform, c: string | null) => (platform === null || p === platform) && (channelId === null || c === channelId);
  const push = (item: unknown) => {
    if (pending.length >= maxPerFlush) dropped++;
    else pending.push(item);
  };
  const onChat = (m: ChatMessage) => matches(m.platform, m.channelId) && push({ kind: 'chat', message: messageJson(world, m) });
  const onDeleted = (m: ChatMessage) => matches(m.platform, m.channelId) && push({ kind: 'deleted', id: m.id });
  const onEvent = (e: ChannelEvent) =>
    matches(e.platform, e.channelId) &&
    push({
      kind: 'event',
      event: {
        ...e,
        createdAt: e.createdAt.toISOString(),
        user: e.userId ? (world.account(e.platform, e.userId)?.displayName ?? e.userId) : null,
      },
    });
  const onAction = (a: ProductAction) =>
    matches(a.platform, a.channelId) && push({ kind: 'action', action: { ...a, at: a.at.toISOString() } });
  world.on('chat', onChat);
  world.on('chat.deleted', onDeleted);
  world.on('event', onEvent);
  world.on('action', onAction);
  const timer = setInterval(() => {
    if (pending.length === 0 && dropped === 0) return;
    socket.send(JSON.stringify({ items: pending, dropped }));
    pending = [];
    dropped = 0;
  }, flushMs);
  socket.on('close', () => {
    clearInterval(timer);
    world.off('chat', onChat);
    world.off('chat.deleted', onDeleted);
    world.off('event', onEvent);
    world.off('action', onAction);
  });
  socket.on('error', () => undefined);
}

export async function streamRoute(app: FastifyInstance, world: World): Promise<void> {
  app.get('/_emulator/stream', { websocket: true }, (socket, request) => {
    const q = stringRecord(request.query);
    const platform = q.platform && (platforms as string[]).includes(q.platform) ? (q.platform as Platform) : null;
    streamFeed(world, socket, platform, q.channel ?? null);
  });
}
