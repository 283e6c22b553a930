/**
 * 7TV (`/7tv/v3/*`, CDN `/7tv-cdn/emote/{id}/{size}.{ext}`), BetterTTV (`/bttv/3/*`, CDN `/bttv-cdn/emote/{id}/{size}`)
 * and Twitch's own emote CDN (`/twitch-cdn/emoticons/v2/{id}/{format}/{theme_mode}/{scale}`, the layout of
 * https://static-cdn.jtvnw.net).
 *
 * Public, unauthenticated. A channel is "linked" when the world has a streamer channel with that id on
 * the platform (7TV: twitch, kick, youtube; BTTV: twitch, youtube). Emote sets default to every channel
 * emote name in src/emote-names.ts, so codes typed by the crowd resolve; `ctx.emotes` changes them.
 * The CDN serves small generated PNGs for every extension (the URL names stay the real ones).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EmulatorContext } from '../context';
import type { Platform } from '../world';
import { emotePng } from './png';
import {
  bttvChannelDefault,
  bttvEmote,
  bttvGlobalNames,
  hexId,
  sevenTvChannelDefault,
  sevenTvEmote,
  sevenTvGlobalNames,
  type EmoteDef,
} from './sets';

export type EmoteProvider = '7tv' | 'bttv';

export interface EmoteControls {
  /** Replaces a channel's emote names (null = back to the default set). Bumps the 7TV set id so caches can tell. */
  setChannelEmotes(provider: EmoteProvider, platform: Platform, channelId: string, names: readonly string[] | null): void;
  /** Makes a channel answer 404 (not linked) or linked again. */
  setLinked(provider: EmoteProvider, platform: Platform, channelId: string, linked: boolean): void;
  /** The emote names a channel currently serves. */
  channelEmotes(provider: EmoteProvider, platform: Platform, channelId: string): readonly string[];
}

declare module '../context' {
  interface EmulatorContext {
    /** Set by emotesPlugin. */
    emotes?: EmoteControls;
  }
}

const sevenTvPlatforms: Record<string, Platform> = { twitch: 'twitch', kick: 'kick', youtube: 'youtube' };
const bttvPlatforms: Record<string, Platform> = { twitch: 'twitch', youtube: 'youtube' };
const sizes: Record<string, number> = { '1': 28, '2': 56, '3': 84, '4': 112 };

interface ChannelOverride {
  names: readonly string[] | null;
  linked: boolean;
  version: number;
}

export async function emotesPlugin(app: FastifyInstance, ctx: EmulatorContext): Promise<void> {
  const { world } = ctx;
  const overrides = new Map<string, ChannelOverride>();
  const images = new Map<string, Buffer>();
  const key = (provider: EmoteProvider, platform: Platform, channelId: string): string => `${provider}:${platform}:${channelId}`;
  const override = (provider: EmoteProvider, platform: Platform, channelId: string): ChannelOverride => {
    const k = key(provider, platform, channelId);
    let o = overrides.get(k);
    if (!o) {
      o = { names: null, linked: true, version: 0 };
      overrides.set(k, o);
    }
    return o;
  };
  const names = (provider: EmoteProvider, platform: Platform, channelId: string): readonly string[] =>
    overrides.get(key(provider, platform, channelId))?.names ?? (provider === '7tv' ? sevenTvChannelDefault : bttvChannelDefault);
  const isLinked = (provider: EmoteProvider, platform: Platform, channelId: string): boolean =>
    world.channel(platform, channelId) !== undefined && (overrides.get(key(provider, platform, channelId))?.linked ?? true);

  const controls: EmoteControls = {
    setChannelEmotes(provider, platform, channelId, list) {
      const o = override(provider, platform, channelId);
      o.names = list ? [...list] : null;
      o.version++;
    },
    setLinked(provider, platform, channelId, linked) {
      override(provider, platform, channelId).linked = linked;
    },
    channelEmotes: names,
  };
  ctx.emotes = controls;
  const onReset = (): void => overrides.clear();
  world.on('reset', onReset);
  app.addHook('onClose', async () => void world.off('reset', onReset));

  const cdnHost = (path: string): string => `//${ctx.origin().replace(/^https?:\/\//, '')}${path}`;

  // ---- 7TV ----
  function sevenTvUser(platform: Platform, channelId: string): Record<string, unknown> {
    const account = world.account(platform, channelId);
    return {
      id: hexId(`7tv:user:${platform}:${channelId}`),
      username: account?.login ?? channelId,
      display_name: account?.displayName ?? channelId,
      avatar_url: account?.avatarUrl ?? '',
      style: {},
      roles: [],
    };
  }

  function sevenTvEmoteJson(emote: EmoteDef, owner: Record<string, unknown> | null): Record<string, unknown> {
    const files: Record<string, unknown>[] = [];
    for (const [n, px] of Object.entries(sizes)) {
      for (const format of ['AVIF', 'WEBP'] as const) {
        const ext = format.toLowerCase();
        files.push({
          name: `${n}x.${ext}`,
          static_name: `${n}x_static.${ext}`,
          width: px,
          height: px,
          frame_count: emote.animated ? 8 : 1,
          size: 0,
          format,
        });
      }
    }
    return {
      id: emote.id,
      name: emote.name,
      flags: 0,
      timestamp: 1_700_000_000_000,
      actor_id: null,
      data: {
        id: emote.id,
        name: emote.name,
        flags: 0,
        tags: [],
        lifecycle: 3,
        state: ['LISTED', 'PERSONAL'],
        listed: true,
        animated: emote.animated,
        owner,
        host: { url: cdnHost(`/7tv-cdn/emote/${emote.id}`), files },
      },
    };
  }

  function sevenTvSet(
    id: string,
    name: string,
    emoteNames: readonly string[],
    owner: Record<string, unknown> | null,
  ): Record<string, unknown> {
    const emotes = emoteNames.map((n) => sevenTvEmoteJson(sevenTvEmote(n), owner));
    return { id, name, flags: 0, tags: [], immutable: false, privileged: false, emotes, emote_count: emotes.length, capacity: 1000, owner };
  }

  const globalSetId = hexId('7tv:set:global');
  const sevenTvNotFound = (reply: FastifyReply, what: string): FastifyReply =>
    reply
      .code(404)
      .send({ status_code: 404, status: 'Not Found', error: `${what} not found`, error_code: what === 'user' ? 70442 : 70440 });

  function channelSetId(platform: Platform, channelId: string): string {
    return hexId(`7tv:set:${platform}:${channelId}:${overrides.get(key('7tv', platform, channelId))?.version ?? 0}`);
  }

  /** Finds a channel by its current 7TV set id. */
  function channelBySetId(setId: string): { platform: Platform; channelId: string } | null {
    for (const channel of world.channels.values()) {
      if (!(channel.platform in sevenTvPlatforms)) continue;
      if (channelSetId(channel.platform, channel.id) === setId) return { platform: channel.platform, channelId: channel.id };
    }
    return null;
  }

  app.get('/7tv/v3/users/:platform/:id', async (request: FastifyRequest<{ Params: { platform: string; id: string } }>, reply) => {
    const platform = sevenTvPlatforms[request.params.platform.toLowerCase()];
    const channelId = request.params.id;
    if (!platform || !isLinked('7tv', platform, channelId)) return sevenTvNotFound(reply, 'user');
    const account = world.account(platform, channelId);
    const user = sevenTvUser(platform, channelId);
    const setId = channelSetId(platform, channelId);
    return {
      id: channelId,
      platform: platform.toUpperCase(),
      username: account?.login ?? channelId,
      display_name: account?.displayName ?? channelId,
      linked_at: 1_700_000_000_000,
      emote_capacity: 1000,
      emote_set_id: null,
      emote_set: sevenTvSet(setId, `${account?.displayName ?? channelId}'s Emotes`, names('7tv', platform, channelId), user),
      user: {
        ...user,
        created_at: 1_600_000_000_000,
        editors: [],
        connections: [
          {
            id: channelId,
            platform: platform.toUpperCase(),
            username: account?.login ?? channelId,
            display_name: account?.displayName ?? channelId,
            linked_at: 1_700_000_000_000,
            emote_capacity: 1000,
            emote_set_id: setId,
          },
        ],
      },
    };
  });

  app.get('/7tv/v3/emote-sets/:id', async (request: FastifyRequest<{ Params: { id: string } }>, reply) => {
    const { id } = request.params;
    if (id === 'global' || id === globalSetId) return sevenTvSet(globalSetId, 'Global Emotes', sevenTvGlobalNames, null);
    const owner = channelBySetId(id);
    if (!owner) return sevenTvNotFound(reply, 'emote set');
    const account = world.account(owner.platform, owner.channelId);
    return sevenTvSet(
      id,
      `${account?.displayName ?? owner.channelId}'s Emotes`,
      names('7tv', owner.platform, owner.channelId),
      sevenTvUser(owner.platform, owner.channelId),
    );
  });

  // ---- BetterTTV ----
  const bttvGlobal = (): Record<string, unknown>[] =>
    bttvGlobalNames.map((n) => {
      const e = bttvEmote(n);
      return {
        id: e.id,
        code: e.name,
        imageType: e.animated ? 'gif' : 'png',
        animated: e.animated,
        userId: hexId('bttv:user:global'),
        modifier: false,
      };
    });

  app.get('/bttv/3/cached/emotes/global', async () => bttvGlobal());

  app.get('/bttv/3/cached/users/:platform/:id', async (request: FastifyRequest<{ Params: { platform: string; id: string } }>, reply) => {
    const platform = bttvPlatforms[request.params.platform.toLowerCase()];
    const channelId = request.params.id;
    if (!platform || !isLinked('bttv', platform, channelId)) return reply.code(404).send({ message: 'user not found' });
    const account = world.account(platform, channelId);
    const userId = hexId(`bttv:user:${platform}:${channelId}`);
    const list = names('bttv', platform, channelId).map(bttvEmote);
    const half = Math.ceil(list.length / 2);
    const sharer = { id: hexId('bttv:user:sharer'), name: 'emotesharer', displayName: 'EmoteSharer', providerId: '11111111' };
    return {
      id: userId,
      bots: [],
      avatar: account?.avatarUrl ?? '',
      channelEmotes: list
        .slice(0, half)
        .map((e) => ({ id: e.id, code: e.name, imageType: e.animated ? 'gif' : 'png', animated: e.animated, userId })),
      sharedEmotes: list
        .slice(half)
        .map((e) => ({ id: e.id, code: e.name, imageType: e.animated ? 'gif' : 'png', animated: e.animated, user: sharer })),
    };
  });

  // ---- CDN ----
  function image(reply: FastifyReply, id: string, scale: string, px = sizes[scale]!): FastifyReply {
    const k = `${id}:${px}`;
    let png = images.get(k);
    if (!png) {
      png = emotePng(id, px);
      if (images.size < 10_000) images.set(k, png);
    }
    return reply.header('content-type', 'image/png').header('cache-control', 'public, max-age=31536000, immutable').send(png);
  }

  app.get('/7tv-cdn/emote/:id/:file', async (request: FastifyRequest<{ Params: { id: string; file: string } }>, reply) => {
    const match = /^([1-4])x(?:_static)?\.(webp|avif|gif|png)$/.exec(request.params.file);
    if (!match || !/^[0-9a-zA-Z]{1,32}$/.test(request.params.id)) return reply.code(404).send();
    return image(reply, request.params.id, match[1]!);
  });

  // Twitch: https://dev.twitch.tv/docs/irc/emotes/#cdn-template — format static|animated|default, theme light|dark, scale 1.0|2.0|3.0 (28/56/112 px).
  const twitchScales: Record<string, number> = { '1.0': 28, '2.0': 56, '3.0': 112 };
  app.get(
    '/twitch-cdn/emoticons/v2/:id/:format/:theme/:scale',
    async (request: FastifyRequest<{ Params: { id: string; format: string; theme: string; scale: string } }>, reply) => {
      const { id, format, theme, scale } = request.params;
      const px = twitchScales[scale];
      if (
        !px ||
        !['static', 'animated', 'default'].includes(format) ||
        !['light', 'dark'].includes(theme) ||
        !/^(?:\d{1,12}|emotesv2_[0-9a-f]{32})$/.test(id)
      )
        return reply.code(404).send();
      return image(reply, `twitch:${id}`, scale, px);
    },
  );

  app.get('/bttv-cdn/emote/:id/:file', async (request: FastifyRequest<{ Params: { id: string; file: string } }>, reply) => {
    const match = /^([1-3])x(?:\.(webp|png|gif))?$/.exec(request.params.file);
    if (!match || !/^[0-9a-f]{24}$/.test(request.params.id)) return reply.code(404).send();
    return image(reply, request.params.id, match[1]!);
  });
}
