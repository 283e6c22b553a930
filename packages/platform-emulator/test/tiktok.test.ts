import type { WebcastChatMessage, WebcastGiftMessage } from 'tiktok-live-connector';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { tiktokPlugin } from '../src/tiktok/plugin';
import type { TikTokChatData, TikTokGiftData, TikTokLiveFrame } from '../src/tiktok/frames';
import { newId, type ChannelEvent } from '../src/world';
import { account, anyString, channel, containing, matching, startHarness, token, type Harness } from './plugin-harness';

// Compile-time check: the frame data satisfies the fields the real connector's types declare.
type Picked<T, K extends keyof T> = { [P in K]: NonNullable<T[P]> extends object ? unknown : T[P] };
const _chatCompat = (
  d: TikTokChatData,
): Picked<WebcastChatMessage, 'content'> & { user: { nickname: string; displayId: string; id: string } } => d;
const _giftCompat = (
  d: TikTokGiftData,
): Picked<WebcastGiftMessage, 'giftId' | 'repeatCount' | 'repeatEnd' | 'groupId'> & { gift: { diamondCount: number } } => d;

let h: Harness;
const STREAMER = '7000000000000000001';
const VIEWER = '7000000000000000002';

beforeEach(async () => {
  h = await startHarness(tiktokPlugin);
  account(h.world, 'tiktok', STREAMER, 'dancer', 'streamer');
  account(h.world, 'tiktok', VIEWER, 'fan');
  channel(h.world, 'tiktok', STREAMER);
  account(h.world, 'tiktok', '7000000000000000003', 'sleepy', 'streamer');
  channel(h.world, 'tiktok', '7000000000000000003', { live: false, startedAt: null });
});

afterEach(async () => {
  await h.close();
});

interface Connection {
  frames: TikTokLiveFrame[];
  closed: Promise<{ code: number; reason: string }>;
  next(count: number): Promise<TikTokLiveFrame[]>;
}

function connect(uniqueId: string): Promise<Connection> {
  const ws = new WebSocket(`${h.origin.replace('http', 'ws')}/tiktok-live/${uniqueId}`);
  const frames: TikTokLiveFrame[] = [];
  const waiters: (() => void)[] = [];
  ws.on('message', (data: Buffer) => {
    frames.push(JSON.parse(data.toString('utf8')) as TikTokLiveFrame);
    for (const w of waiters.splice(0)) w();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  const next = async (count: number): Promise<TikTokLiveFrame[]> => {
    while (frames.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
    return frames.slice(0, count);
  };
  return new Promise((resolve, reject) => {
    ws.on('open', () => resolve({ frames, closed, next }));
    ws.on('error', reject);
  });
}

function event(type: ChannelEvent['type'], data: Record<string, unknown>, userId: string | null = VIEWER): void {
  h.world.postEvent({ id: newId(), platform: 'tiktok', channelId: STREAMER, type, userId, data, createdAt: new Date() });
}

describe('TikTok LIVE stream', () => {
  it('sends connected, then chat frames shaped like WebcastChatMessage', async () => {
    const c = await connect('@dancer');
    const [connected] = await c.next(1);
    expect(connected).toMatchObject({ event: 'connected', data: { isConnected: true, roomId: matching(/^\d{19}$/) } });
    const message = h.world.postChat({
      id: newId(),
      platform: 'tiktok',
      channelId: STREAMER,
      authorId: VIEWER,
      text: 'hello live',
      emotes: [],
      replyToId: null,
      origin: 'control',
      deleted: false,
      createdAt: new Date(1_700_000_000_000),
    });
    const [, chat] = await c.next(2);
    expect(chat).toMatchObject({
      event: 'chat',
      data: {
        content: 'hello live',
        comment: 'hello live',
        user: { id: VIEWER, userId: VIEWER, displayId: 'fan', uniqueId: 'fan', nickname: 'Fan' },
        common: { method: 'WebcastChatMessage', msgId: matching(/^\d+$/), createTime: '1700000000000' },
      },
    });
    expect(message.id).toBeTruthy();
  });

  it('streams a gift streak ending with repeatEnd 1, and follow, like, member, subscribe frames', async () => {
    const c = await connect('dancer');
    await c.next(1);
    event('tiktok_gift', { giftName: 'Rose', count: 3 });
    event('tiktok_gift', { giftName: 'Galaxy', count: 1 });
    event('follow', {});
    event('like', { count: 15 });
    event('member_join', {});
    event('sub', { months: 2 });
    const frames = await c.next(1 + 4 + 1 + 4);
    const gifts = frames.filter((f) => f.event === 'gift').flatMap((f) => (f.event === 'gift' ? [f.data] : []));
    expect(gifts.map((g) => [g.gift.name, g.repeatCount, g.repeatEnd])).toEqual([
      ['Rose', 1, 0],
      ['Rose', 2, 0],
      ['Rose', 3, 0],
      ['Rose', 3, 1],
      ['Galaxy', 1, 1],
    ]);
    expect(gifts[3]).toMatchObject({
      giftId: '5655',
      gift: { diamondCount: 1, type: 1 },
      giftDetails: { giftName: 'Rose', diamondCount: 1 },
      user: { displayId: 'fan' },
    });
    expect(new Set(gifts.slice(0, 4).map((g) => g.groupId)).size).toBe(1);
    const rest = frames.slice(6);
    expect(rest.map((f) => f.event)).toEqual(['follow', 'like', 'member', 'subscribe']);
    expect(rest[0]!.data).toMatchObject({ common: { displayText: { key: containing('follow') } }, user: { displayId: 'fan' } });
    expect(rest[1]!.data).toMatchObject({ count: 15, total: '15' });
    expect(rest[3]!.data).toMatchObject({ subMonth: '2' });
  });

  it('sends streamEnd and closes when the stream ends', async () => {
    const c = await connect('dancer');
    await c.next(1);
    const ch = h.world.channel('tiktok', STREAMER)!;
    ch.live = false;
    event('stream_offline', {}, null);
    const frames = await c.next(2);
    expect(frames[1]).toEqual({ event: 'streamEnd', data: { action: 3 } });
    expect(await c.closed).toEqual({ code: 1000, reason: 'stream ended' });
  });

  it('refuses offline and unknown users like connect() fails', async () => {
    expect(await (await connect('sleepy')).closed).toEqual({ code: 4404, reason: 'user offline' });
    expect(await (await connect('nobody')).closed).toEqual({ code: 4404, reason: 'user not found' });
  });
});

describe('TikTok Login Kit', () => {
  it('returns the requested user fields in the TikTok envelope', async () => {
    const t = token(h.world, 'tiktok', STREAMER, ['user.info.basic']);
    const res = await h.app.inject({
      method: 'GET',
      url: '/tiktok/v2/user/info/?fields=open_id,union_id,avatar_url,display_name',
      headers: { authorization: `Bearer ${t}` },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ data: { user: Record<string, unknown> } }>();
    expect(Object.keys(body.data.user).sort()).toEqual(['avatar_url', 'display_name', 'open_id', 'union_id']);
    expect(body).toMatchObject({ data: { user: { display_name: 'Dancer' } }, error: { code: 'ok', message: '', log_id: anyString } });
  });

  it('rejects a bad token and a field outside the granted scopes', async () => {
    const bad = await h.app.inject({
      method: 'GET',
      url: '/tiktok/v2/user/info/?fields=open_id',
      headers: { authorization: 'Bearer nope' },
    });
    expect(bad.statusCode).toBe(401);
    expect(bad.json<{ error: { code: string } }>().error.code).toBe('access_token_invalid');
    const t = token(h.world, 'tiktok', STREAMER, ['user.info.basic']);
    const res = await h.app.inject({
      method: 'GET',
      url: '/tiktok/v2/user/info/?fields=username',
      headers: { authorization: `Bearer ${t}` },
    });
    expect(res.json<{ error: { code: string } }>().error.code).toBe('scope_not_authorized');
  });
});
