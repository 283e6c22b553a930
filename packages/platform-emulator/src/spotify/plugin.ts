/**
 * Spotify Web API subset under `/spotify/v1/*`: me, player (currently-playing, queue view/add, next), search, tracks.
 * Each account has a simulated player that advances through its queue, then the catalogue, in real time.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EmulatorContext } from '../context';
import type { Account, Token } from '../world';
import { spotifyCatalogue, spotifyId, type CatalogueTrack } from './catalogue';

interface Player {
  deviceActive: boolean;
  playing: boolean;
  /** Catalogue index of the current track when it came from autoplay. */
  autoplayIndex: number;
  current: CatalogueTrack;
  /** When the current track was at progress 0 (ms since epoch); while paused, the progress is `pausedProgressMs`. */
  startedAt: number;
  pausedProgressMs: number;
  queue: CatalogueTrack[];
}

export interface SpotifyControls {
  /** Active device on/off (off → 404 NO_ACTIVE_DEVICE on queue add, 204 on currently-playing). */
  setDevice(accountId: string, active: boolean): void;
  setPlaying(accountId: string, playing: boolean): void;
  /** The next track starts (the queue first, then the catalogue), as the user pressing "next" in the app. */
  skip(accountId: string): void;
  /** The queued tracks of an account (uris). */
  queue(accountId: string): string[];
}

declare module '../context' {
  interface EmulatorContext {
    /** Set by spotifyPlugin. */
    spotify?: SpotifyControls;
  }
}

function spotifyError(reply: FastifyReply, status: number, message: string, reason?: string): FastifyReply {
  return reply.code(status).send({ error: { status, message, ...(reason ? { reason } : {}) } });
}

export async function spotifyPlugin(app: FastifyInstance, ctx: EmulatorContext): Promise<void> {
  const { world } = ctx;
  const players = new Map<string, Player>();
  const api = (): string => `${ctx.origin()}/spotify/v1`;

  function player(accountId: string): Player {
    let p = players.get(accountId);
    if (!p) {
      const index = Number.parseInt(spotifyId(accountId).slice(0, 4), 36) % spotifyCatalogue.length;
      p = {
        deviceActive: true,
        playing: true,
        autoplayIndex: index,
        current: spotifyCatalogue[index]!,
        startedAt: Date.now() - 30_000,
        pausedProgressMs: 0,
        queue: [],
      };
      players.set(accountId, p);
    }
    advance(p);
    return p;
  }

  function advance(p: Player): void {
    if (!p.playing) return;
    const now = Date.now();
    while (now - p.startedAt >= p.current.durationMs) {
      p.startedAt += p.current.durationMs;
      const next = p.queue.shift();
      if (next) p.current = next;
      else {
        p.autoplayIndex = (p.autoplayIndex + 1) % spotifyCatalogue.length;
        p.current = spotifyCatalogue[p.autoplayIndex]!;
      }
    }
  }

  const controls: SpotifyControls = {
    setDevice(accountId, active) {
      player(accountId).deviceActive = active;
    },
    setPlaying(accountId, playing) {
      const p = player(accountId);
      if (p.playing === playing) return;
      if (!playing) p.pausedProgressMs = Date.now() - p.startedAt;
      else p.startedAt = Date.now() - p.pausedProgressMs;
      p.playing = playing;
    },
    skip(accountId) {
      const p = player(accountId);
      const next = p.queue.shift();
      if (next) p.current = next;
      else {
        p.autoplayIndex = (p.autoplayIndex + 1) % spotifyCatalogue.length;
        p.current = spotifyCatalogue[p.autoplayIndex]!;
      }
      p.startedAt = Date.now();
      p.pausedProgressMs = 0;
    },
    queue: (accountId) => player(accountId).queue.map((t) => `spotify:track:${t.id}`),
  };
  ctx.spotify = controls;
  const onReset = (): void => players.clear();
  world.on('reset', onReset);
  app.addHook('onClose', async () => void world.off('reset', onReset));

  function auth(request: FastifyRequest, reply: FastifyReply, anyOf: string[] | null, needsUser: boolean): Token | null {
    const header = request.headers.authorization;
    const bearer = header ? /^Bearer\s+(\S+)$/i.exec(header)?.[1] : undefined;
    const checked = world.checkToken('spotify', bearer);
    if (!checked.ok) {
      if (checked.reason === 'missing') spotifyError(reply, 401, 'No token provided');
      else if (checked.reason === 'expired') spotifyError(reply, 401, 'The access token expired');
      else spotifyError(reply, 401, 'Invalid access token');
      return null;
    }
    if (needsUser && !checked.token.userId) {
      spotifyError(reply, 403, 'Insufficient client scope');
      return null;
    }
    if (anyOf && !anyOf.some((s) => checked.token.scopes.includes(s))) {
      spotifyError(reply, 403, 'Insufficient client scope');
      return null;
    }
    return checked.token;
  }

  function account(token: Token, reply: FastifyReply): Account | null {
    const a = token.userId ? world.account('spotify', token.userId) : undefined;
    if (!a) {
      spotifyError(reply, 401, 'Invalid access token');
      return null;
    }
    return a;
  }

  const artistJson = (name: string) => {
    const id = spotifyId(`artist:${name}`);
    return {
      external_urls: { spotify: `https://open.spotify.com/artist/${id}` },
      href: `${api()}/artists/${id}`,
      id,
      name,
      type: 'artist',
      uri: `spotify:artist:${id}`,
    };
  };

  function trackJson(t: CatalogueTrack): Record<string, unknown> {
    const albumId = spotifyId(`album:${t.album}`);
    const artists = [artistJson(t.artist)];
    const cover = `https://i.scdn.co/image/ab67616d0000b273${spotifyId(`cover:${t.album}`).toLowerCase()}`;
    return {
      album: {
        album_type: 'album',
        artists,
        available_markets: ['US', 'GB', 'DE', 'FR'],
        external_urls: { spotify: `https://open.spotify.com/album/${albumId}` },
        href: `${api()}/albums/${albumId}`,
        id: albumId,
        images: [
          { url: cover, height: 640, width: 640 },
          { url: cover, height: 300, width: 300 },
          { url: cover, height: 64, width: 64 },
        ],
        name: t.album,
        release_date: t.releaseDate,
        release_date_precision: 'day',
        total_tracks: spotifyCatalogue.filter((x) => x.album === t.album).length,
        type: 'album',
        uri: `spotify:album:${albumId}`,
      },
      artists,
      available_markets: ['US', 'GB', 'DE', 'FR'],
      disc_number: 1,
      duration_ms: t.durationMs,
      explicit: false,
      external_ids: { isrc: `QZ${spotifyId(`isrc:${t.id}`).slice(0, 10).toUpperCase()}` },
      external_urls: { spotify: `https://open.spotify.com/track/${t.id}` },
      href: `${api()}/tracks/${t.id}`,
      id: t.id,
      is_local: false,
      is_playable: true,
      name: t.name,
      popularity: 50 + (t.name.length % 40),
      preview_url: null,
      track_number: spotifyCatalogue.filter((x) => x.album === t.album).indexOf(t) + 1,
      type: 'track',
      uri: `spotify:track:${t.id}`,
    };
  }

  const device = (a: Account, p: Player) => ({
    id: spotifyId(`device:${a.id}`).toLowerCase(),
    is_active: p.deviceActive,
    is_private_session: false,
    is_restricted: false,
    name: `${a.displayName}'s PC`,
    type: 'Computer',
    volume_percent: 70,
    supports_volume: true,
  });

  app.get('/spotify/v1/me', async (request, reply) => {
    const token = auth(request, reply, null, true);
    if (!token) return reply;
    const a = account(token, reply);
    if (!a) return reply;
    const body: Record<string, unknown> = {
      display_name: a.displayName,
      external_urls: { spotify: `https://open.spotify.com/user/${a.id}` },
      followers: { href: null, total: 0 },
      href: `${api()}/users/${a.id}`,
      id: a.id,
      images: [{ url: a.avatarUrl, height: 300, width: 300 }],
      type: 'user',
      uri: `spotify:user:${a.id}`,
    };
    if (token.scopes.includes('user-read-private')) {
      body.country = 'US';
      body.product = a.premium === false ? 'free' : 'premium';
      body.explicit_content = { filter_enabled: false, filter_locked: false };
    }
    if (token.scopes.includes('user-read-email')) body.email = a.email;
    return body;
  });

  app.get('/spotify/v1/me/player/currently-playing', async (request, reply) => {
    const token = auth(request, reply, ['user-read-currently-playing', 'user-read-playback-state'], true);
    if (!token) return reply;
    const a = account(token, reply);
    if (!a) return reply;
    const p = player(a.id);
    if (!p.deviceActive) return reply.code(204).send();
    const progress = p.playing ? Date.now() - p.startedAt : p.pausedProgressMs;
    return {
      device: device(a, p),
      repeat_state: 'off',
      shuffle_state: false,
      timestamp: Date.now(),
      context: null,
      progress_ms: progress,
      item: trackJson(p.current),
      currently_playing_type: 'track',
      actions: { disallows: p.playing ? { resuming: true } : { pausing: true } },
      is_playing: p.playing,
    };
  });

  app.get('/spotify/v1/me/player/queue', async (request, reply) => {
    const token = auth(request, reply, ['user-read-playback-state', 'user-read-currently-playing'], true);
    if (!token) return reply;
    const a = account(token, reply);
    if (!a) return reply;
    const p = player(a.id);
    if (!p.deviceActive) return { currently_playing: null, queue: [] };
    const upcoming = [...p.queue];
    for (let i = 1; upcoming.length < 20; i++) upcoming.push(spotifyCatalogue[(p.autoplayIndex + i) % spotifyCatalogue.length]!);
    return { currently_playing: trackJson(p.current), queue: upcoming.map(trackJson) };
  });

  app.post('/spotify/v1/me/player/queue', async (request: FastifyRequest<{ Querystring: { uri?: string; device_id?: string } }>, reply) => {
    const token = auth(request, reply, ['user-modify-playback-state'], true);
    if (!token) return reply;
    const a = account(token, reply);
    if (!a) return reply;
    const uri = request.query.uri;
    if (!uri) return spotifyError(reply, 400, 'Required parameter uri missing');
    const match = /^spotify:track:([0-9A-Za-z]{22})$/.exec(uri);
    if (!match) return spotifyError(reply, 400, `Invalid track uri: ${uri}`);
    if (a.premium === false) return spotifyError(reply, 403, 'Player command failed: Premium required', 'PREMIUM_REQUIRED');
    const p = player(a.id);
    if (!p.deviceActive || (request.query.device_id && request.query.device_id !== spotifyId(`device:${a.id}`).toLowerCase())) {
      return spotifyError(reply, 404, 'Player command failed: No active device found', 'NO_ACTIVE_DEVICE');
    }
    const track = spotifyCatalogue.find((t) => t.id === match[1]);
    if (!track) return spotifyError(reply, 400, 'Invalid track uri');
    p.queue.push(track);
    world.record({
      platform: 'spotify',
      type: 'spotify.queue',
      channelId: null,
      actorId: a.id,
      data: { uri, name: track.name, artist: track.artist },
    });
    return reply.code(204).send();
  });

  /** Skips to the next track (the user's queue first, then autoplay). Premium only, on the active device. */
  app.post('/spotify/v1/me/player/next', async (request: FastifyRequest<{ Querystring: { device_id?: string } }>, reply) => {
    const token = auth(request, reply, ['user-modify-playback-state'], true);
    if (!token) return reply;
    const a = account(token, reply);
    if (!a) return reply;
    if (a.premium === false) return spotifyError(reply, 403, 'Player command failed: Premium required', 'PREMIUM_REQUIRED');
    const p = player(a.id);
    if (!p.deviceActive || (request.query.device_id && request.query.device_id !== spotifyId(`device:${a.id}`).toLowerCase())) {
      return spotifyError(reply, 404, 'Player command failed: No active device found', 'NO_ACTIVE_DEVICE');
    }
    const skipped = p.current;
    const next = p.queue.shift();
    if (next) p.current = next;
    else {
      p.autoplayIndex = (p.autoplayIndex + 1) % spotifyCatalogue.length;
      p.current = spotifyCatalogue[p.autoplayIndex]!;
    }
    p.startedAt = Date.now();
    p.pausedProgressMs = 0;
    world.record({
      platform: 'spotify',
      type: 'spotify.next',
      channelId: null,
      actorId: a.id,
      data: { skipped: `spotify:track:${skipped.id}`, now: `spotify:track:${p.current.id}` },
    });
    return reply.code(204).send();
  });

  app.get('/spotify/v1/tracks/:id', async (request: FastifyRequest<{ Params: { id: string } }>, reply) => {
    const token = auth(request, reply, null, false);
    if (!token) return reply;
    const track = spotifyCatalogue.find((t) => t.id === request.params.id);
    if (!track) return spotifyError(reply, 404, 'Resource not found');
    return trackJson(track);
  });

  app.get(
    '/spotify/v1/search',
    async (request: FastifyRequest<{ Querystring: { q?: string; type?: string; limit?: string; offset?: string } }>, reply) => {
      const token = auth(request, reply, null, false);
      if (!token) return reply;
      const { q, type } = request.query;
      if (!q) return spotifyError(reply, 400, 'No search query');
      if (!type) return spotifyError(reply, 400, 'Missing parameter type');
      const types = type.split(',');
      if (types.some((t) => !['album', 'artist', 'playlist', 'track', 'show', 'episode', 'audiobook'].includes(t)))
        return spotifyError(reply, 400, 'Bad search type field');
      const limit = Math.min(50, Math.max(1, Number(request.query.limit ?? 20) || 20));
      const offset = Math.max(0, Number(request.query.offset ?? 0) || 0);
      const body: Record<string, unknown> = {};
      if (types.includes('track')) {
        const terms = q
          .toLowerCase()
          .replace(/\b(track|artist|album):/g, '')
          .split(/\s+/)
          .filter(Boolean);
        const matches = spotifyCatalogue.filter((t) => {
          const hay = `${t.name} ${t.artist} ${t.album}`.toLowerCase();
          return terms.every((term) => hay.includes(term));
        });
        const href = (o: number): string => `${api()}/search?offset=${o}&limit=${limit}&query=${encodeURIComponent(q)}&type=track`;
        body.tracks = {
          href: href(offset),
          items: matches.slice(offset, offset + limit).map(trackJson),
          limit,
          next: offset + limit < matches.length ? href(offset + limit) : null,
          offset,
          previous: offset > 0 ? href(Math.max(0, offset - limit)) : null,
          total: matches.length,
        };
      }
      return body;
    },
  );

  /**
   * Control (tests, the control page): what an account's player does, as its user would in the Spotify app —
   * `device` false closes the app (nothing playing), `playing` pauses or resumes, `skip` starts the next track.
   * Answers what the player plays now.
   */
  app.post(
    '/_emulator/spotify/:login/player',
    async (
      request: FastifyRequest<{ Params: { login: string }; Body: { device?: unknown; playing?: unknown; skip?: unknown } | null }>,
      reply,
    ) => {
      const a = world.accountByLogin('spotify', request.params.login);
      if (!a) return reply.code(404).send({ error: 'not_found', message: 'No Spotify account with that login' });
      const body = request.body ?? {};
      for (const key of ['device', 'playing', 'skip'] as const)
        if (body[key] !== undefined && typeof body[key] !== 'boolean')
          return reply.code(400).send({ error: 'bad_request', message: `${key} must be true or false` });
      if (typeof body.device === 'boolean') controls.setDevice(a.id, body.device);
      if (typeof body.playing === 'boolean') controls.setPlaying(a.id, body.playing);
      if (body.skip === true) controls.skip(a.id);
      const p = player(a.id);
      return {
        device: p.deviceActive,
        playing: p.playing,
        track: { id: p.current.id, name: p.current.name, artist: p.current.artist, album: p.current.album },
        progress_ms: p.playing ? Date.now() - p.startedAt : p.pausedProgressMs,
      };
    },
  );
}
