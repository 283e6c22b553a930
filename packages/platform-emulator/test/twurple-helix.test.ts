/** @twurple/api and @twurple/auth, unmodified, against the emulator through TWURPLE_MOCK_API_PORT. */
import { ApiClient } from '@twurple/api';
import { RefreshingAuthProvider, type AccessToken } from '@twurple/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../src/index';
import { emulator, httpError, postJson, twitchUserToken, type TwitchTokens } from './helpers';

let e: Emulator;
let streamer: TwitchTokens;

const allScopes = [
  'user:read:chat',
  'user:write:chat',
  'channel:manage:broadcast',
  'moderator:manage:banned_users',
  'moderator:manage:chat_messages',
  'moderator:read:followers',
];

function clientFor(
  tokens: TwitchTokens,
  onRefresh?: (userId: string, token: AccessToken) => void,
): { api: ApiClient; auth: RefreshingAuthProvider } {
  const auth = new RefreshingAuthProvider({ clientId: e.config.twitch.clientId, clientSecret: e.config.twitch.clientSecret });
  if (onRefresh) auth.onRefresh(onRefresh);
  auth.addUser(
    tokens.userId,
    {
      accessToken: tokens.accessToken,
      refreshToken: tokens.refreshToken,
      expiresIn: tokens.expiresIn,
      obtainmentTimestamp: Date.now(),
      scope: tokens.scope,
    },
    ['chat'],
  );
  return { api: new ApiClient({ authProvider: auth }), auth };
}

beforeAll(async () => {
  e = await emulator();
  process.env.TWURPLE_MOCK_API_PORT = String(e.port);
  streamer = await twitchUserToken(e, 'greenroomdemo', allScopes);
});

afterAll(async () => {
  delete process.env.TWURPLE_MOCK_API_PORT;
  await e.close();
});

describe('Helix through @twurple/api', () => {
  it('gets users by name and the token user', async () => {
    const { api } = clientFor(streamer);
    const user = await api.users.getUserByName('greenroomdemo');
    expect(user?.id).toBe(streamer.userId);
    expect(user?.displayName).toBe('GreenroomDemo');
    const info = await api.asUser(streamer.userId, (ctx) => ctx.getTokenInfo());
    expect(info.userName).toBe('greenroomdemo');
    expect(info.scopes).toContain('user:write:chat');
  });

  it('updates the channel title and category, and records the action', async () => {
    const { api } = clientFor(streamer);
    const [game] = await api.search.searchCategories('minecraft').then((p) => p.data);
    expect(game?.name).toBe('Minecraft');
    await api.channels.updateChannelInfo(streamer.userId, { title: 'Building a castle', gameId: game!.id });
    const channel = await api.channels.getChannelInfoById(streamer.userId);
    expect(channel?.title).toBe('Building a castle');
    expect(channel?.gameName).toBe('Minecraft');
    const actions = (await (await fetch(`${e.origin}/_emulator/actions?platform=twitch&type=title`)).json()) as {
      data: { data: { to: string } }[];
    };
    expect(actions.data.at(-1)?.data.to).toBe('Building a castle');
  });

  it('gives the follower total to any user token, and the list only with moderator:read:followers as a moderator', async () => {
    const channel = e.world.channel('twitch', streamer.userId)!;
    const { api } = clientFor(streamer);
    const before = await api.channels.getChannelFollowerCount(streamer.userId);
    expect(before).toBe(channel.followers.size);
    const fan = e.world.accountsOf('twitch', 'viewer').find((v) => !channel.followers.has(v.id))!;
    e.world.postEvent({
      id: 'follow-1',
      platform: 'twitch',
      channelId: streamer.userId,
      type: 'follow',
      userId: fan.id,
      data: {},
      createdAt: new Date(),
    });
    expect(await api.channels.getChannelFollowerCount(streamer.userId)).toBe(before + 1);
    const list = await api.channels.getChannelFollowers(streamer.userId);
    expect(list.total).toBe(before + 1);
    expect(list.data[0]).toMatchObject({ userId: fan.id, userName: fan.login });
    // Another user, without the scope and not a moderator: the total alone (twurple refuses to ask for the list).
    const stranger = await twitchUserToken(e, 'pixelpioneer', []);
    const res = await fetch(`${e.origin}/mock/channels/followers?broadcaster_id=${streamer.userId}`, {
      headers: { authorization: `Bearer ${stranger.accessToken}`, 'client-id': e.config.twitch.clientId },
    });
    expect(await res.json()).toEqual({ data: [], pagination: {}, total: before + 1 });
  });

  it('rejects a 141-character title with 400 "Title is too long."', async () => {
    const { api } = clientFor(streamer);
    const error = await api.channels.updateChannelInfo(streamer.userId, { title: 'x'.repeat(141) }).catch((err: unknown) => err);
    expect(httpError(error).statusCode).toBe(400);
    expect(httpError(error).body).toContain('Title is too long.');
    await api.channels.updateChannelInfo(streamer.userId, { title: 'y'.repeat(140) });
  });

  it('sends chat (and a reply) that appear in the world as product messages', async () => {
    const { api } = clientFor(streamer);
    const sent = await api.chat.sendChatMessage(streamer.userId, 'hello from the product Kappa');
    expect(sent.isSent).toBe(true);
    const reply = await api.chat.sendChatMessage(streamer.userId, 'a reply', { replyParentMessageId: sent.id });
    expect(reply.isSent).toBe(true);
    const message = e.world.messages.get(reply.id);
    expect(message?.origin).toBe('product');
    expect(message?.replyToId).toBe(sent.id);
    expect(e.world.messages.get(sent.id)?.emotes[0]?.name).toBe('Kappa');
  });

  it('bans, times out and unbans; a banned sender is dropped with is_sent false', async () => {
    const viewer = e.world.accountsOf('twitch', 'viewer')[10]!;
    const viewerTokens = await twitchUserToken(e, viewer.login, ['user:write:chat']);
    const { api } = clientFor(streamer);
    const [timeout] = await api.moderation.banUser(streamer.userId, { user: viewer.id, duration: 600, reason: 'calm down' });
    expect(timeout?.expiryDate).not.toBeNull();
    const viewerApi = clientFor(viewerTokens).api;
    const dropped = await viewerApi
      .asUser(viewer.id, (ctx) => ctx.chat.sendChatMessage(streamer.userId, 'let me talk'))
      .catch((err: unknown) => err);
    expect(String(dropped)).toMatch(/timed out/);
    await api.moderation.banUser(streamer.userId, { user: viewer.id, reason: 'spam' });
    const again = await api.moderation.banUser(streamer.userId, { user: viewer.id, reason: 'spam' }).catch((err: unknown) => err);
    expect(httpError(again).body).toContain('already banned');
    const tooLong = await api.moderation
      .banUser(streamer.userId, { user: viewer.id, duration: 1_209_601, reason: '' })
      .catch((err: unknown) => err);
    expect(httpError(tooLong).statusCode).toBe(400);
    await api.moderation.unbanUser(streamer.userId, viewer.id);
    const types = e.world.actions.filter((a) => a.platform === 'twitch' && ['ban', 'timeout', 'unban'].includes(a.type)).map((a) => a.type);
    expect(types).toEqual(['timeout', 'ban', 'unban']);
  });

  it('answers 401 "Missing scope: …" when the token lacks a scope', async () => {
    const limited = await twitchUserToken(e, 'pixelpioneer', ['user:read:chat']);
    const res = await fetch(`${e.config.twitch.helixUrl}/channels?broadcaster_id=${limited.userId}`, {
      method: 'PATCH',
      headers: {
        authorization: `Bearer ${limited.accessToken}`,
        'client-id': e.config.twitch.clientId,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ title: 'nope' }),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'Unauthorized', status: 401, message: 'Missing scope: channel:manage:broadcast' });
  });

  it('refuses a token used with another Client-Id', async () => {
    const res = await fetch(`${e.config.twitch.helixUrl}/users`, {
      headers: { authorization: `Bearer ${streamer.accessToken}`, 'client-id': 'someone-else' },
    });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { message: string }).message).toBe('Client ID and OAuth token do not match');
  });

  it('recovers from a 429 with Ratelimit-Reset like Helix clients expect', async () => {
    await postJson(`${e.origin}/_emulator/faults`, {
      platform: 'twitch',
      match: '/mock/users',
      kind: 'rate_limit',
      delayMs: 1000,
      count: 1,
    });
    const raw = await fetch(`${e.config.twitch.helixUrl}/users`, {
      headers: { authorization: `Bearer ${streamer.accessToken}`, 'client-id': e.config.twitch.clientId },
    });
    expect(raw.status).toBe(429);
    expect(raw.headers.get('ratelimit-remaining')).toBe('0');
    expect(Number(raw.headers.get('ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000 - 1);
    await postJson(`${e.origin}/_emulator/faults`, {
      platform: 'twitch',
      match: '/mock/users',
      kind: 'rate_limit',
      delayMs: 1000,
      count: 1,
    });
    const { api } = clientFor(streamer);
    const user = await api.users.getUserById(streamer.userId);
    expect(user?.name).toBe('greenroomdemo');
  });
});

describe('RefreshingAuthProvider against the emulator', () => {
  it('refreshes on 401 after expiry, persists the rotated token, and the old refresh token dies', async () => {
    const tokens = await twitchUserToken(e, 'nightowlgg', ['user:read:chat']);
    const refreshed: AccessToken[] = [];
    const { api } = clientFor(tokens, (_userId, token) => refreshed.push(token));
    await postJson(`${e.origin}/_emulator/tokens/expire`, { platform: 'twitch', userId: tokens.userId });
    const me = await api.users.getUserById(tokens.userId);
    expect(me?.name).toBe('nightowlgg');
    expect(refreshed).toHaveLength(1);
    expect(refreshed[0]!.refreshToken).not.toBe(tokens.refreshToken);
    expect(refreshed[0]!.accessToken).not.toBe(tokens.accessToken);
    const reuse = await fetch(e.config.twitch.tokenUrl, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: tokens.refreshToken,
        client_id: e.config.twitch.clientId,
        client_secret: e.config.twitch.clientSecret,
      }),
    });
    expect(reuse.status).toBe(400);
    expect(await reuse.json()).toEqual({ status: 400, message: 'Invalid refresh token' });
  });

  it('validate answers 401 for a revoked token', async () => {
    const tokens = await twitchUserToken(e, 'pixelpioneer', []);
    const revoke = await fetch(`${e.config.twitch.revokeUrl}?client_id=${e.config.twitch.clientId}&token=${tokens.accessToken}`, {
      method: 'POST',
    });
    expect(revoke.status).toBe(200);
    const res = await fetch(e.config.twitch.validateUrl, { headers: { authorization: `OAuth ${tokens.accessToken}` } });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ status: 401, message: 'invalid access token' });
  });

  it('issues app tokens with client_credentials', async () => {
    const res = await fetch(
      `${e.config.twitch.tokenUrl}?client_id=${e.config.twitch.clientId}&client_secret=${e.config.twitch.clientSecret}&grant_type=client_credentials`,
      { method: 'POST' },
    );
    const body = (await res.json()) as { access_token: string; token_type: string; refresh_token?: string };
    expect(body.token_type).toBe('bearer');
    expect(body.refresh_token).toBeUndefined();
    const v = (await (
      await fetch(e.config.twitch.validateUrl, { headers: { authorization: `OAuth ${body.access_token}` } })
    ).json()) as Record<string, unknown>;
    expect(v.user_id).toBeUndefined();
    expect(v.client_id).toBe(e.config.twitch.clientId);
  });
});
