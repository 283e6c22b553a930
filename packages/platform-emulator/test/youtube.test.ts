import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { threeSignificantFigures, youtubePlugin } from '../src/youtube/plugin';
import { newId, type ChatMessage } from '../src/world';
import { account, anyString, channel, objectContaining, startHarness, token, type Harness } from './plugin-harness';

const OWNER = 'UCowner000000000000000001';
const VIEWER = 'UCviewer00000000000000001';
const MOD = 'UCmoderator0000000000001';
const full = 'https://www.googleapis.com/auth/youtube.force-ssl';
const readonly = 'https://www.googleapis.com/auth/youtube.readonly';

interface GoogleError {
  error: { code: number; status: string; errors: { reason: string; domain: string }[] };
}
interface ChatItem {
  id: string;
  snippet: Record<string, unknown> & { type: string; displayMessage: string };
  authorDetails?: Record<string, unknown>;
}
interface ChatList {
  items: ChatItem[];
  nextPageToken: string;
  pollingIntervalMillis: number;
  offlineAt?: string;
}
interface ListOf<T> {
  items: T[];
}
interface Broadcast {
  id: string;
  snippet: { liveChatId: string };
}
interface Video {
  snippet: { title: string; description: string; tags?: string[] };
}

let h: Harness;
let ownerToken: string;

beforeEach(async () => {
  h = await startHarness(youtubePlugin);
  account(h.world, 'youtube', OWNER, 'owner', 'streamer');
  account(h.world, 'youtube', VIEWER, 'viewer');
  account(h.world, 'youtube', MOD, 'moddy');
  channel(h.world, 'youtube', OWNER, { categoryId: '20', categoryName: 'Gaming', moderators: new Set([MOD]) });
  ownerToken = token(h.world, 'youtube', OWNER, [full]);
});

afterEach(async () => {
  await h.close();
});

function api(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, bearer: string | null = ownerToken, body?: unknown) {
  return h.app.inject({
    method,
    url: `/youtube/youtube/v3${path}`,
    headers: bearer ? { authorization: `Bearer ${bearer}` } : {},
    ...(body !== undefined ? { payload: body as Record<string, unknown> } : {}),
  });
}

function chat(text: string, authorId = VIEWER): ChatMessage {
  return h.world.postChat({
    id: newId(),
    platform: 'youtube',
    channelId: OWNER,
    authorId,
    text,
    emotes: [],
    replyToId: null,
    origin: 'control',
    deleted: false,
    createdAt: new Date(),
  });
}

async function liveChatId(): Promise<string> {
  const res = await api('GET', '/liveBroadcasts?part=snippet,status&broadcastStatus=active&broadcastType=all');
  expect(res.statusCode).toBe(200);
  return res.json<ListOf<Broadcast>>().items[0]!.snippet.liveChatId;
}

describe('YouTube identity, broadcasts and videos', () => {
  it('returns the token channel with customUrl handle', async () => {
    const res = await api('GET', '/channels?part=snippet&mine=true');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      kind: 'youtube#channelListResponse',
      items: [{ kind: 'youtube#channel', id: OWNER, snippet: { title: 'Owner', customUrl: '@owner' } }],
    });
  });

  it('gives the subscriber count in statistics, rounded down to three significant figures; a follow adds one', async () => {
    const count = async () =>
      (await api('GET', '/channels?part=statistics&mine=true')).json<ListOf<{ statistics: { subscriberCount: string } }>>().items[0]!
        .statistics.subscriberCount;
    expect(await count()).toBe('0');
    h.world.postEvent({
      id: newId(),
      platform: 'youtube',
      channelId: OWNER,
      type: 'follow',
      userId: VIEWER,
      data: {},
      createdAt: new Date(),
    });
    h.world.postEvent({
      id: newId(),
      platform: 'youtube',
      channelId: OWNER,
      type: 'follow',
      userId: VIEWER,
      data: {},
      createdAt: new Date(),
    });
    expect(await count()).toBe('1');
    const followers = h.world.channel('youtube', OWNER)!.followers;
    for (let i = 0; i < 12_344; i++) followers.set(`UCfan${i}`, new Date());
    expect(followers.size).toBe(12_345);
    expect(await count()).toBe('12300');
    expect([999, 1000, 1999, 123_456_789].map(threeSignificantFigures)).toEqual([999, 1000, 1990, 123_000_000]);
  });

  it('answers Google 401 for a bad token and 403 insufficientPermissions for a read-only token writing', async () => {
    const bad = await api('GET', '/channels?part=snippet&mine=true', 'nope');
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toMatchObject({
      error: { code: 401, status: 'UNAUTHENTICATED', errors: [{ reason: 'authError', domain: 'global' }] },
    });
    const ro = token(h.world, 'youtube', OWNER, [readonly]);
    const id = await liveChatId();
    const res = await api('POST', '/liveChat/messages?part=snippet', ro, {
      snippet: { liveChatId: id, type: 'textMessageEvent', textMessageDetails: { messageText: 'hi' } },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json<GoogleError>().error.errors[0]!.reason).toBe('insufficientPermissions');
  });

  it('finds the live chat from liveBroadcasts and from videos.liveStreamingDetails', async () => {
    const res = await api('GET', '/liveBroadcasts?part=snippet,status&broadcastStatus=active&broadcastType=all');
    const broadcast = res.json<ListOf<Broadcast>>().items[0]!;
    expect(broadcast).toMatchObject({
      kind: 'youtube#liveBroadcast',
      snippet: { channelId: OWNER, title: 'Hello stream' },
      status: { lifeCycleStatus: 'live' },
    });
    const video = await api('GET', `/videos?part=snippet,liveStreamingDetails&id=${broadcast.id}`);
    expect(video.json<ListOf<unknown>>().items[0]).toMatchObject({
      id: broadcast.id,
      snippet: { categoryId: '20', liveBroadcastContent: 'live' },
      liveStreamingDetails: { activeLiveChatId: broadcast.snippet.liveChatId, concurrentViewers: '42' },
    });
  });

  it('takes exactly one filter, and lists only scheduled events unless broadcastType says otherwise', async () => {
    const both = await api('GET', '/liveBroadcasts?part=snippet&broadcastStatus=active&mine=true');
    expect(both.statusCode).toBe(400);
    expect(both.json<GoogleError>().error.errors[0]!.reason).toBe('incompatibleParameters');
    const withId = await api('GET', '/liveBroadcasts?part=snippet&id=x&broadcastType=all');
    expect(withId.statusCode).toBe(400);
    const badType = await api('GET', '/liveBroadcasts?part=snippet&mine=true&broadcastType=scheduled');
    expect(badType.statusCode).toBe(400);
    expect(badType.json<GoogleError>().error.errors[0]!.reason).toBe('invalidValue');

    // The channel streams with "Stream now": its persistent broadcast is not an event.
    const ids = (query: string) => api('GET', `/liveBroadcasts?part=snippet&${query}`).then((r) => r.json<ListOf<Broadcast>>().items);
    expect(await ids('broadcastStatus=active')).toEqual([]);
    const persistent = await ids('broadcastStatus=active&broadcastType=persistent');
    expect(persistent).toHaveLength(1);
    expect(persistent[0]!.snippet).toMatchObject({ isDefaultBroadcast: true });
    expect(await ids('mine=true&broadcastType=all')).toHaveLength(1);

    // A scheduled event: the next stream.
    h.ctx.youtube!.setBroadcastType(OWNER, 'event');
    const ch = h.world.channel('youtube', OWNER)!;
    h.world.setLive(ch, false);
    h.world.setLive(ch, true);
    const events = await ids('broadcastStatus=active');
    expect(events).toHaveLength(1);
    expect(events[0]!.snippet).toMatchObject({ isDefaultBroadcast: false });
    expect(events[0]!.id).not.toBe(persistent[0]!.id);
  });

  it('replaces the whole snippet on videos.update and rejects bad titles and a missing category', async () => {
    const { items } = (await api('GET', '/liveBroadcasts?part=snippet&broadcastStatus=active&broadcastType=all')).json<ListOf<Broadcast>>();
    const id = items[0]!.id;
    const put = (snippet: Record<string, unknown>) => api('PUT', '/videos?part=snippet', ownerToken, { id, snippet });

    const first = await put({ title: 'Speedrun', categoryId: '20', description: 'desc', tags: ['a'] });
    expect(first.statusCode).toBe(200);
    expect(first.json<Video>().snippet).toMatchObject({ title: 'Speedrun', description: 'desc', tags: ['a'] });
    expect(h.world.channel('youtube', OWNER)!.title).toBe('Speedrun');

    const second = await put({ title: 'Speedrun 2', categoryId: '24' });
    expect(second.json<Video>().snippet.description).toBe('');
    expect(second.json<Video>().snippet.tags).toBeUndefined();
    expect(h.world.channel('youtube', OWNER)).toMatchObject({ categoryId: '24', categoryName: 'Entertainment' });

    const noCategory = await put({ title: 'x' });
    expect(noCategory.statusCode).toBe(400);
    expect(noCategory.json<GoogleError>().error.errors[0]!.reason).toBe('invalidCategoryId');
    for (const title of ['a'.repeat(101), 'less <than', 'greater > than']) {
      const res = await put({ title, categoryId: '20' });
      expect(res.statusCode).toBe(400);
      expect(res.json<GoogleError>().error).toMatchObject({ code: 400, errors: [{ reason: 'invalidTitle', domain: 'youtube.video' }] });
    }
    expect((await put({ title: 'a'.repeat(100), categoryId: '20' })).statusCode).toBe(200);
    expect(h.world.actions.filter((a) => a.type === 'title')).toHaveLength(3);
  });

  it('lists video categories for a region', async () => {
    const res = await api('GET', '/videoCategories?part=snippet&regionCode=US');
    expect(res.json<ListOf<unknown>>().items).toContainEqual(
      objectContaining({ id: '20', snippet: objectContaining({ title: 'Gaming', assignable: true }) }),
    );
  });
});

describe('YouTube live chat', () => {
  it('pages with pageToken without losing messages, including bursts larger than a page', async () => {
    const id = await liveChatId();
    chat('before first poll');
    const first = await api('GET', `/liveChat/messages?liveChatId=${id}&part=snippet,authorDetails`);
    const body = first.json<ChatList>();
    expect(body.items.map((i) => i.snippet.displayMessage)).toEqual(['before first poll']);
    expect(body.pollingIntervalMillis).toBeGreaterThan(0);
    expect(body.items[0]!.authorDetails).toMatchObject({
      channelId: VIEWER,
      displayName: 'Viewer',
      isChatOwner: false,
      isChatModerator: false,
    });

    const sent: string[] = [];
    for (let i = 0; i < 450; i++) sent.push(chat(`m${i}`).id);
    const seen: string[] = [];
    let pageToken = body.nextPageToken;
    for (let round = 0; round < 5; round++) {
      const res = (
        await api('GET', `/liveChat/messages?liveChatId=${id}&part=snippet&maxResults=200&pageToken=${pageToken}`)
      ).json<ChatList>();
      seen.push(...res.items.map((i) => i.id));
      pageToken = res.nextPageToken;
      if (res.items.length === 0) break;
    }
    expect(seen).toEqual(sent);
  });

  it('carries Super Chats, memberships and gifts as message types', async () => {
    const id = await liveChatId();
    const ev = (type: 'superchat' | 'membership' | 'membership_gift', data: Record<string, unknown>) =>
      h.world.postEvent({ id: newId(), platform: 'youtube', channelId: OWNER, type, userId: VIEWER, data, createdAt: new Date() });
    ev('superchat', { amount: 5, currency: 'USD', message: 'gg' });
    ev('membership', { months: 1, level: 'Fan' });
    ev('membership', { months: 6, level: 'Fan', message: 'half a year' });
    ev('membership_gift', { count: 1, level: 'Fan', recipientIds: [MOD] });
    const items = (await api('GET', `/liveChat/messages?liveChatId=${id}&part=snippet`)).json<ChatList>().items;
    expect(items.map((i) => i.snippet.type)).toEqual([
      'superChatEvent',
      'newSponsorEvent',
      'memberMilestoneChatEvent',
      'membershipGiftingEvent',
      'giftMembershipReceivedEvent',
    ]);
    expect(items[0]!.snippet.superChatDetails).toMatchObject({
      amountMicros: '5000000',
      currency: 'USD',
      amountDisplayString: '$5.00',
      userComment: 'gg',
    });
    expect(items[2]!.snippet.memberMilestoneChatDetails).toMatchObject({ memberMonth: 6, memberLevelName: 'Fan' });
    expect(items[4]!.snippet.giftMembershipReceivedDetails).toMatchObject({ gifterChannelId: VIEWER, memberLevelName: 'Fan' });
  });

  it('sends one giftMembershipReceivedEvent per membership gifted, naming the gifting message', async () => {
    const id = await liveChatId();
    for (let i = 0; i < 4; i++) account(h.world, 'youtube', `UCcrowd${i}`.padEnd(24, '0'), `crowd${i}`);
    const gift = h.world.postEvent({
      id: newId(),
      platform: 'youtube',
      channelId: OWNER,
      type: 'membership_gift',
      userId: VIEWER,
      data: { count: 3, level: 'Fan' },
      createdAt: new Date(),
    });
    const items = (await api('GET', `/liveChat/messages?liveChatId=${id}&part=snippet,authorDetails`)).json<ChatList>().items;
    const gifting = items.find((i) => i.snippet.type === 'membershipGiftingEvent')!;
    expect(gifting.snippet.membershipGiftingDetails).toMatchObject({ giftMembershipsCount: 3 });
    const received = items.filter((i) => i.snippet.type === 'giftMembershipReceivedEvent');
    expect(received).toHaveLength(3);
    expect(new Set(received.map((i) => i.authorDetails!.channelId)).size).toBe(3);
    expect(received.map((i) => i.authorDetails!.channelId)).not.toContain(VIEWER);
    for (const r of received)
      expect(r.snippet.giftMembershipReceivedDetails).toMatchObject({
        associatedMembershipGiftingMessageId: gift.id,
        gifterChannelId: VIEWER,
      });
  });

  it('names the Super Sticker language altTextLanguage, and takes maxResults from 200 to 2000 only', async () => {
    const id = await liveChatId();
    h.world.postEvent({
      id: newId(),
      platform: 'youtube',
      channelId: OWNER,
      type: 'supersticker',
      userId: VIEWER,
      data: {},
      createdAt: new Date(),
    });
    const items = (await api('GET', `/liveChat/messages?liveChatId=${id}&part=snippet&maxResults=2000`)).json<ChatList>().items;
    expect(items[0]!.snippet.superStickerDetails).toMatchObject({ superStickerMetadata: { altText: 'Sticker', altTextLanguage: 'en' } });
    for (const bad of ['199', '2001', 'abc', '500.5']) {
      const res = await api('GET', `/liveChat/messages?liveChatId=${id}&part=snippet&maxResults=${bad}`);
      expect(res.statusCode).toBe(400);
      expect(res.json<GoogleError>().error.errors[0]!.reason).toBe('invalidValue');
    }
  });

  it('inserts messages with the length rule and reports liveChatEnded with offlineAt after the stream', async () => {
    const id = await liveChatId();
    const send = (text: string) =>
      api('POST', '/liveChat/messages?part=snippet', ownerToken, {
        snippet: { liveChatId: id, type: 'textMessageEvent', textMessageDetails: { messageText: text } },
      });
    const ok = await send('hello chat');
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      kind: 'youtube#liveChatMessage',
      snippet: { type: 'textMessageEvent', authorChannelId: OWNER, textMessageDetails: { messageText: 'hello chat' } },
    });
    expect(h.world.actions.at(-1)).toMatchObject({ type: 'chat.send', data: { text: 'hello chat' } });
    expect((await send('x'.repeat(201))).statusCode).toBe(400);

    const c = h.world.channel('youtube', OWNER)!;
    c.live = false;
    h.world.postEvent({
      id: newId(),
      platform: 'youtube',
      channelId: OWNER,
      type: 'stream_offline',
      userId: null,
      data: {},
      createdAt: new Date(),
    });
    const ended = await send('too late');
    expect(ended.statusCode).toBe(403);
    expect(ended.json<GoogleError>().error.errors[0]!).toMatchObject({ reason: 'liveChatEnded', domain: 'youtube.liveChat' });
    const list = (await api('GET', `/liveChat/messages?liveChatId=${id}&part=snippet`)).json<ChatList>();
    expect(list.offlineAt).toEqual(anyString);
  });

  it('answers rateLimitExceeded when one author sends too fast', async () => {
    const id = await liveChatId();
    h.ctx.youtube!.sendRateLimit = { max: 2, windowMs: 60_000 };
    const send = () =>
      api('POST', '/liveChat/messages?part=snippet', ownerToken, {
        snippet: { liveChatId: id, type: 'textMessageEvent', textMessageDetails: { messageText: 'spam' } },
      });
    expect((await send()).statusCode).toBe(200);
    expect((await send()).statusCode).toBe(200);
    const third = await send();
    expect(third.statusCode).toBe(403);
    expect(third.json<GoogleError>().error.errors[0]!.reason).toBe('rateLimitExceeded');
  });

  it('deletes viewer messages (204) but not moderator messages, and shows a messageDeletedEvent', async () => {
    const id = await liveChatId();
    const viewerMsg = chat('bad');
    const modMsg = chat('I am mod', MOD);
    const res = await api('DELETE', `/liveChat/messages?id=${viewerMsg.id}`);
    expect(res.statusCode).toBe(204);
    const mod = await api('DELETE', `/liveChat/messages?id=${modMsg.id}`);
    expect(mod.statusCode).toBe(403);
    expect(mod.json<GoogleError>().error.errors[0]!.reason).toBe('modificationNotAllowed');
    const items = (await api('GET', `/liveChat/messages?liveChatId=${id}&part=snippet`)).json<ChatList>().items;
    expect(items.at(-1)!.snippet).toMatchObject({ type: 'messageDeletedEvent', messageDeletedDetails: { deletedMessageId: viewerMsg.id } });
  });

  it('bans with the default 300 s, unbans with the returned id, and posts userBannedEvent', async () => {
    const id = await liveChatId();
    const res = await api('POST', '/liveChat/bans?part=snippet', ownerToken, {
      snippet: { liveChatId: id, type: 'temporary', bannedUserDetails: { channelId: VIEWER } },
    });
    expect(res.statusCode).toBe(200);
    const ban = res.json<{ id: string }>();
    expect(ban).toMatchObject({
      kind: 'youtube#liveChatBan',
      id: anyString,
      snippet: { type: 'temporary', banDurationSeconds: '300', bannedUserDetails: { channelId: VIEWER } },
    });
    expect(h.world.channel('youtube', OWNER)!.bans.get(VIEWER)?.banId).toBe(ban.id);
    const items = (await api('GET', `/liveChat/messages?liveChatId=${id}&part=snippet`)).json<ChatList>().items;
    expect(items.at(-1)!.snippet).toMatchObject({
      type: 'userBannedEvent',
      userBannedDetails: { banType: 'temporary', banDurationSeconds: '300', bannedUserDetails: { channelId: VIEWER } },
    });

    expect((await api('DELETE', '/liveChat/bans?id=unknown')).statusCode).toBe(404);
    const unban = await api('DELETE', `/liveChat/bans?id=${encodeURIComponent(ban.id)}`);
    expect(unban.statusCode).toBe(204);
    expect(h.world.channel('youtube', OWNER)!.bans.has(VIEWER)).toBe(false);
    expect(h.world.actions.map((a) => a.type)).toEqual(['timeout', 'unban']);
  });

  it('answers quotaExceeded once the daily quota is spent', async () => {
    h.ctx.youtube!.quotaLimit = 60;
    const id = await liveChatId(); // 1 unit
    expect(
      (
        await api('POST', '/liveChat/messages?part=snippet', ownerToken, {
          snippet: { liveChatId: id, type: 'textMessageEvent', textMessageDetails: { messageText: 'a' } },
        })
      ).statusCode,
    ).toBe(200); // 20
    expect(h.ctx.youtube!.quotaUsed('youtube-client')).toBe(21);
    const update = await api('PUT', '/videos?part=snippet', ownerToken, { id: 'whatever', snippet: { title: 't', categoryId: '20' } }); // 50 > 39 left
    expect(update.statusCode).toBe(403);
    expect(update.json<GoogleError>().error.errors[0]!).toMatchObject({ reason: 'quotaExceeded', domain: 'youtube.quota' });
  });
});
