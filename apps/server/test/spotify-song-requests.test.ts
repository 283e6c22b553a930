/**
 * Spotify against the emulator, end to end:
 *  - connecting: the channel's Admins connect Spotify through the authorization code flow with PKCE (S256) and
 *    `state`, the exact redirect URI; tokens are stored encrypted, refreshed when Spotify refuses an expired one,
 *    and forgotten on disconnect; the emulator's accounts service refuses a wrong verifier or redirect URI.
 *  - `!sr` typed in Twitch chat: accepted (queued in Spotify, paid with a ledger row), too long, blocked, not enough
 *    points, over the per-viewer limit, no Premium and no active device (both refunded), `!wrongsong`; the queue
 *    API removes (refunded, skipped when Spotify reaches it) and skips.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '@greenroom/platform-emulator';
import { AccessLevel } from '@greenroom/contracts/access';
import type { SongRequestList, SongRequestSettingsBody } from '@greenroom/contracts/api/spotify';
import { channelProviders, pointLedger, songRequests } from '../src/db/schema';
import { pkceChallenge } from '../src/lib/crypto';
import { walletIdFor } from '../src/modules/points';
import { testApps } from './helper';
import { connectSystemBot, startChatWorld, type ChatWorld } from './chat-world';
import { actionsSince, connectChannelProvider, control, lastActionSeq, until } from './platform-fixtures';

let world: ChatWorld;
let spotifyCp: string;
let listenerId: string;
const catalogue = {
  neon: { name: 'Neon Skyline', artist: 'The Midnight Drivers', length: '3:34' },
  outro: { name: 'Outro Credits', length: '4:22' },
  pixel: { name: 'Pixel Hearts' },
};

beforeAll(async () => {
  world = await startChatWorld('Spotify song requests');
  await connectSystemBot(world, 'twitch');
  await world.t.s.chatbot.start();
  spotifyCp = await connectChannelProvider(world.t, world.emulator, world.owner, world.channelId, 'spotify', 'greenroomdemo');
  listenerId = world.emulator.world.accountByLogin('spotify', 'greenroomdemo')!.id;
}, 90_000);

afterAll(async () => {
  await world?.close();
});

async function said(): Promise<string[]> {
  const body = await control<{ data: ChatMessage[] }>(
    world.emulator,
    'GET',
    `/messages?platform=twitch&channel=${world.streamer.twitch.id}&origin=product`,
  );
  return body.data.map((m) => m.text);
}

/** Types `text` as `viewer` and waits for the bot's answer addressed to them. */
async function ask(viewer: { id: string; displayName: string }, text: string): Promise<string> {
  const before = (await said()).length;
  await world.chat('twitch', text, viewer.id);
  return until(async () => (await said()).slice(before).find((t) => t.includes(viewer.displayName)), 30_000);
}

async function settings(body: SongRequestSettingsBody): Promise<void> {
  const res = await world.t.inject(world.owner, {
    method: 'PUT',
    url: `/api/2/channels/${world.channelId}/spotify/request-settings`,
    payload: { enabled: true, level: 0, cost: 10, max_duration_seconds: 600, max_per_user: 3, blocked: [], ...body },
  });
  expect(res.statusCode, res.body).toBe(200);
}

async function list(): Promise<SongRequestList> {
  const res = await world.t.inject(world.owner, { method: 'GET', url: `/api/2/channels/${world.channelId}/spotify/requests` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<SongRequestList>();
}

async function viewerWithPoints(name: string, points: number) {
  const viewer = await world.newViewer('twitch', name);
  const wallet = await world.t.s.points.service.walletOf(world.channelId, {
    provider: 'twitch',
    providerUserId: viewer.id,
    login: viewer.displayName.toLowerCase(),
    displayName: viewer.displayName,
  });
  if (points > 0) await world.t.s.points.service.adjust(world.channelId, wallet.id, { delta: points, reason: 'test' }, world.owner.id);
  return viewer;
}

/** The song request ledger rows of a viewer (payments negative, refunds positive). */
async function songLedger(viewerId: string): Promise<{ kind: string; delta: number }[]> {
  const rows = await world.t.s.db
    .select({ kind: pointLedger.kind, delta: pointLedger.delta })
    .from(pointLedger)
    .where(eq(pointLedger.walletId, walletIdFor(world.channelId, 'twitch', viewerId)))
    .orderBy(pointLedger.seq);
  return rows.filter((r) => r.kind.startsWith('song_')).map((r) => ({ kind: r.kind, delta: Number(r.delta) }));
}

const uriOf = async (query: string): Promise<string> => {
  const res = await fetch(`${world.emulator.origin}/spotify/v1/search?q=${encodeURIComponent(query)}&type=track&limit=1`, {
    headers: { authorization: `Bearer ${spotifyAccess()}` },
  });
  return ((await res.json()) as { tracks: { items: { uri: string }[] } }).tracks.items[0]!.uri;
};

/** A live access token of the connected account (read from the emulator, for test lookups only). */
function spotifyAccess(): string {
  const token = [...world.emulator.world.tokens.values()].find(
    (t) => t.platform === 'spotify' && t.userId === listenerId && !t.revoked && t.expiresAt.getTime() > Date.now(),
  );
  return token!.accessToken;
}

describe('Connecting Spotify', () => {
  it('asks for the playback scopes with PKCE (S256), state and the exact redirect URI; Mods may not connect', async () => {
    const res = await world.t.inject(world.owner, {
      method: 'GET',
      url: `/api/2/spotify/connect-chat-url?channel_id=${world.channelId}&bot=false&redirect_to=/channels/${world.channelId}/providers`,
    });
    expect(res.statusCode).toBe(200);
    const url = new URL(res.json<{ url: string }>().url);
    expect(url.pathname).toBe('/spotify-accounts/authorize');
    const q = url.searchParams;
    expect(q.get('response_type')).toBe('code');
    expect(q.get('client_id')).toBe(testApps.spotify.clientId);
    expect(q.get('redirect_uri')).toBe(`${world.t.s.publicUrl}/oauth/spotify`);
    expect(q.get('scope')!.split(' ')).toEqual(
      expect.arrayContaining(['user-read-currently-playing', 'user-read-playback-state', 'user-modify-playback-state']),
    );
    expect(q.get('state')!.length).toBeGreaterThanOrEqual(32);
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const mod = await world.member('Moderator', AccessLevel.MOD);
    const refused = await world.t.inject(mod, {
      method: 'GET',
      url: `/api/2/spotify/connect-chat-url?channel_id=${world.channelId}&bot=false&redirect_to=/`,
    });
    expect(refused.statusCode).toBe(403);
  });

  it('refuses a code exchanged with a wrong verifier or another redirect URI (Spotify accounts service rules)', async () => {
    const app = world.emulator.config.spotify;
    const verifier = 'v'.repeat(64);
    const code = async () => {
      const auth = await control<{ redirect_url: string }>(world.emulator, 'POST', '/oauth/authorize', {
        platform: 'spotify',
        client_id: app.clientId,
        redirect_uri: app.redirectUris[0],
        scope: 'user-read-currently-playing',
        state: 'abc',
        code_challenge: pkceChallenge(verifier),
        code_challenge_method: 'S256',
        account_login: 'greenroomdemo',
      });
      return new URL(auth.redirect_url).searchParams.get('code')!;
    };
    const exchange = async (params: Record<string, string>) => {
      const res = await fetch(app.tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'authorization_code', client_id: app.clientId, ...params }),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const wrong = await exchange({ code: await code(), redirect_uri: app.redirectUris[0]!, code_verifier: 'w'.repeat(64) });
    expect(wrong).toEqual({ status: 400, body: { error: 'invalid_grant', error_description: 'code_verifier was incorrect' } });
    const missing = await exchange({ code: await code(), redirect_uri: app.redirectUris[0]! });
    expect(missing.status).toBe(400);
    const elsewhere = await exchange({ code: await code(), redirect_uri: `${app.redirectUris[0]!}/`, code_verifier: verifier });
    expect(elsewhere).toEqual({ status: 400, body: { error: 'invalid_grant', error_description: 'Invalid redirect URI' } });
    const right = await exchange({ code: await code(), redirect_uri: app.redirectUris[0]!, code_verifier: verifier });
    expect(right.status).toBe(200);
    expect(right.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'user-read-currently-playing' });
  });

  it('stores the tokens encrypted and refreshes an expired one (the refresh token rotates)', async () => {
    const [row] = await world.t.s.db.select().from(channelProviders).where(eq(channelProviders.id, spotifyCp));
    const access = world.t.s.cipher.decrypt(row!.accessTokenEnc!);
    expect(world.emulator.world.checkToken('spotify', access).ok).toBe(true);
    expect(row!.accessTokenEnc).not.toContain(access);
    expect(row!.scopeNeeded).toBe(false);
    await control(world.emulator, 'POST', '/tokens/expire', { platform: 'spotify', token: access });
    world.t.s.spotify.nowPlaying.forget(world.channelId);
    expect((await world.t.s.spotify.nowPlaying.get(world.channelId)).state).toBe('playing');
    const [after] = await world.t.s.db.select().from(channelProviders).where(eq(channelProviders.id, spotifyCp));
    expect(world.t.s.cipher.decrypt(after!.accessTokenEnc!)).not.toBe(access);
    expect(after!.refreshTokenEnc).not.toBe(row!.refreshTokenEnc);
  });
});

describe('!sr', { timeout: 90_000 }, () => {
  it('queues a found song in Spotify, paid with a ledger row, and lists it', async () => {
    await settings({ cost: 10 });
    const viewer = await viewerWithPoints('Requester', 25);
    const seq = await lastActionSeq(world.emulator);
    const reply = await ask(viewer, `!sr ${catalogue.neon.name}`);
    expect(reply).toBe(
      `${viewer.displayName} added “${catalogue.neon.name}” by ${catalogue.neon.artist} [${catalogue.neon.length}] to the queue (next) for 10 points.`,
    );
    const [queued] = (await actionsSince(world.emulator, 'spotify', seq)).filter((a) => a.type === 'spotify.queue');
    expect(queued!.data).toMatchObject({ name: catalogue.neon.name });
    expect(world.emulator.ctx.spotify!.queue(listenerId)).toContain(queued!.data.uri);
    expect(await songLedger(viewer.id)).toEqual([{ kind: 'song_request', delta: -10 }]);
    const { active } = await list();
    expect(active.map((r) => [r.display_name, r.track.name, r.status, r.cost])).toEqual([
      [viewer.displayName, catalogue.neon.name, 'queued', 10],
    ]);
  });

  it('refuses a song over the length limit and a blocked song, without charging', async () => {
    const long = await viewerWithPoints('Long', 100);
    const picky = await viewerWithPoints('Picky', 100);
    const pixel = await uriOf(catalogue.pixel.name);
    await settings({ max_duration_seconds: 180, blocked: [{ uri: pixel, name: catalogue.pixel.name, artists: [] }] });
    expect(await ask(long, `!sr ${catalogue.outro.name}`)).toBe(
      `${long.displayName}, “${catalogue.outro.name}” by Fade Out is ${catalogue.outro.length} long; the limit is 3:00.`,
    );
    expect(await ask(picky, `!sr https://open.spotify.com/track/${pixel.slice('spotify:track:'.length)}?si=x`)).toBe(
      `${picky.displayName}, “${catalogue.pixel.name}” by 8-Bit Orchestra is blocked in this channel.`,
    );
    expect(await songLedger(long.id)).toEqual([]);
    expect(await songLedger(picky.id)).toEqual([]);
    await settings({});
  });

  it('refuses a viewer without enough points, and one over the per-viewer limit', async () => {
    const poor = await viewerWithPoints('Broke', 5);
    // Chatting earns a point or so on the way: the balance said is what the wallet holds.
    expect(await ask(poor, '!sr Speedrun')).toMatch(
      new RegExp(`^${poor.displayName}, a song request costs 10 points and you have [5-9]\\.$`),
    );
    expect(await songLedger(poor.id)).toEqual([]);
    await settings({ max_per_user: 1 });
    const eager = await viewerWithPoints('Eager', 100);
    expect(await ask(eager, '!sr Respawn')).toContain('to the queue');
    // `!sr` has a 5 s cooldown per viewer.
    await new Promise((r) => setTimeout(r, 5_500));
    expect(await ask(eager, '!sr Raid Train')).toBe(`${eager.displayName}, you already have 1 song waiting (the limit is 1).`);
    expect(await songLedger(eager.id)).toEqual([{ kind: 'song_request', delta: -10 }]);
    // !wrongsong takes it back (refunded), which frees the place.
    expect(await ask(eager, '!wrongsong')).toBe(
      `${eager.displayName}, removed “Respawn” by Drop Zone from the queue (10 points refunded).`,
    );
    expect(await songLedger(eager.id)).toEqual([
      { kind: 'song_request', delta: -10 },
      { kind: 'song_refund', delta: 10 },
    ]);
    await settings({});
  });

  it('says clearly when the streamer has no Premium or no active device, and refunds', async () => {
    const free = await viewerWithPoints('Hopeful', 100);
    const idle = await viewerWithPoints('Patient', 100);
    const account = world.emulator.world.account('spotify', listenerId)!;
    account.premium = false;
    try {
      expect(await ask(free, '!sr Clip That')).toBe(
        `${free.displayName}, song requests need Spotify Premium on the streamer’s account. Your points were refunded.`,
      );
    } finally {
      account.premium = true;
    }
    world.emulator.ctx.spotify!.setDevice(listenerId, false);
    try {
      expect(await ask(idle, '!sr Cozy Rain')).toBe(
        `${idle.displayName}, the streamer’s Spotify has no active device: requests work while Spotify is playing. Your points were refunded.`,
      );
    } finally {
      world.emulator.ctx.spotify!.setDevice(listenerId, true);
    }
    for (const v of [free, idle]) {
      expect(await songLedger(v.id)).toEqual([
        { kind: 'song_request', delta: -10 },
        { kind: 'song_refund', delta: 10 },
      ]);
    }
    const { recent } = await list();
    expect(recent.filter((r) => r.display_name === free.displayName || r.display_name === idle.displayName).map((r) => r.status)).toEqual([
      'refused',
      'refused',
    ]);
  });

  it('a retried command (the same effect) queues and pays once', async () => {
    const viewer = await viewerWithPoints('Retry', 100);
    const caller = {
      channelId: world.channelId,
      channelProviderId: world.cp.twitch,
      provider: 'twitch' as const,
      user: { providerUserId: viewer.id, login: viewer.displayName.toLowerCase(), displayName: viewer.displayName },
      level: 0,
      subscriber: false,
      args: ['Boss', 'Fight', 'Theme'],
      query: 'Boss Fight Theme',
      effectId: `effect-${viewer.id}`,
      now: Date.now(),
    };
    const seq = await lastActionSeq(world.emulator);
    const [first, second] = await Promise.all([
      world.t.s.spotify.songRequests.request(caller),
      world.t.s.spotify.songRequests.request(caller),
    ]);
    expect(first).toContain('added “Boss Fight Theme”');
    expect(second).toBe(first);
    expect(await world.t.s.spotify.songRequests.request(caller)).toBe(first);
    const adds = (await actionsSince(world.emulator, 'spotify', seq)).filter((a) => a.type === 'spotify.queue');
    expect(adds.length).toBeGreaterThanOrEqual(1);
    expect(await songLedger(viewer.id)).toEqual([{ kind: 'song_request', delta: -10 }]);
  });

  it('is refused below the level the channel sets, and while requests are off', async () => {
    await settings({ level: AccessLevel.SUB });
    const lurker = await viewerWithPoints('Lurker', 100);
    expect(await ask(lurker, '!sr Speedrun')).toBe(`${lurker.displayName}, song requests are for Sub and up.`);
    await settings({ enabled: false });
    try {
      const other = await viewerWithPoints('Early', 100);
      expect(await ask(other, '!sr Speedrun')).toBe(`${other.displayName}, song requests are off right now.`);
    } finally {
      await settings({});
    }
  });
});

describe('The request queue', { timeout: 90_000 }, () => {
  it('removes a waiting request (refunded) and skips it when Spotify reaches it; skip moves Spotify on', async () => {
    const viewer = await viewerWithPoints('Changer', 100);
    expect(await ask(viewer, '!sr Golden Kappa')).toContain('to the queue');
    const request = (await list()).active.find((r) => r.display_name === viewer.displayName)!;
    const removed = await world.t.inject(world.owner, {
      method: 'DELETE',
      url: `/api/2/channels/${world.channelId}/spotify/requests/${request.id}`,
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toMatchObject({ status: 'removed', reason: 'Removed by the channel staff.' });
    expect(await songLedger(viewer.id)).toEqual([
      { kind: 'song_request', delta: -10 },
      { kind: 'song_refund', delta: 10 },
    ]);
    const again = await world.t.inject(world.owner, {
      method: 'DELETE',
      url: `/api/2/channels/${world.channelId}/spotify/requests/${request.id}`,
    });
    expect(again.statusCode).toBe(409);

    // Skip until Spotify reaches the removed track: the sync skips it by itself (Spotify cannot unqueue).
    const seq = await lastActionSeq(world.emulator);
    for (let i = 0; i < 10 && world.emulator.ctx.spotify!.queue(listenerId).includes(request.track.uri); i++) {
      const res = await world.t.inject(world.owner, { method: 'POST', url: `/api/2/channels/${world.channelId}/spotify/skip` });
      expect(res.statusCode, res.body).toBe(200);
    }
    const nexts = (await actionsSince(world.emulator, 'spotify', seq)).filter((a) => a.type === 'spotify.next');
    expect(nexts.some((a) => a.data.skipped === request.track.uri)).toBe(true);
    const [row] = await world.t.s.db
      .select()
      .from(songRequests)
      .where(and(eq(songRequests.channelId, world.channelId), eq(songRequests.id, request.id)));
    expect(row!.skipWhenPlaying).toBe(false);
    // The earlier requests played out (or were skipped) on the way.
    expect((await list()).active.filter((r) => r.status === 'queued')).toEqual([]);
  });

  it('refuses skipping without Premium with the reason, and Mods may use the queue but not its settings', async () => {
    const account = world.emulator.world.account('spotify', listenerId)!;
    account.premium = false;
    try {
      const res = await world.t.inject(world.owner, { method: 'POST', url: `/api/2/channels/${world.channelId}/spotify/skip` });
      expect(res.statusCode).toBe(422);
      expect(res.json<{ message: string }>().message).toMatch(/Premium/);
    } finally {
      account.premium = true;
    }
    const mod = await world.member('Queue mod', AccessLevel.MOD);
    expect((await world.t.inject(mod, { method: 'GET', url: `/api/2/channels/${world.channelId}/spotify/requests` })).statusCode).toBe(200);
    expect(
      (await world.t.inject(mod, { method: 'GET', url: `/api/2/channels/${world.channelId}/spotify/request-settings` })).statusCode,
    ).toBe(403);
  });

  it('disconnecting Spotify forgets the connection', async () => {
    const res = await world.t.inject(world.owner, { method: 'DELETE', url: `/api/2/channels/${world.channelId}/providers/${spotifyCp}` });
    expect(res.statusCode).toBe(204);
    world.t.s.spotify.nowPlaying.forget(world.channelId);
    expect(await world.t.s.spotify.nowPlaying.get(world.channelId)).toEqual({ state: 'not_connected' });
    const viewer = await viewerWithPoints('Late', 100);
    expect(await ask(viewer, '!sr Speedrun')).toBe(`${viewer.displayName}, Spotify is not connected to this channel.`);
  });
});
