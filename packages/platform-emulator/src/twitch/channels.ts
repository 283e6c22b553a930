import type { FastifyInstance } from 'fastify';
import { asObject, stringList, stringRecord } from '../http/params';
import type { Channel, World } from '../world';
import { twitchGame } from './games';
import { helixAuth, helixError, type HelixDeps } from './helix';

export function helixChannel(world: World, channel: Channel): Record<string, unknown> {
  const account = world.account('twitch', channel.id);
  return {
    broadcaster_id: channel.id,
    broadcaster_login: account?.login ?? '',
    broadcaster_name: account?.displayName ?? '',
    broadcaster_language: 'en',
    game_id: channel.categoryId,
    game_name: channel.categoryName,
    title: channel.title,
    delay: 0,
    tags: [],
    content_classification_labels: [],
    is_branded_content: false,
  };
}

const tagPattern = /^[\p{L}\p{N}]{1,25}$/u;

export async function channelsRoutes(app: FastifyInstance, deps: HelixDeps): Promise<void> {
  app.get('/mock/channels', async (request, reply) => {
    if (!helixAuth(deps, request, reply)) return reply;
    const ids = stringList((request.query as Record<string, unknown>).broadcaster_id);
    if (ids.length === 0) return helixError(reply, 400, 'Missing required parameter "broadcaster_id"');
    if (ids.length > 100) return helixError(reply, 400, 'The number of broadcaster_id parameters must not exceed 100.');
    const channels = ids.map((id) => deps.world.channel('twitch', id)).filter((c): c is Channel => c !== undefined);
    return reply.send({ data: channels.map((c) => helixChannel(deps.world, c)) });
  });

  app.patch('/mock/channels', async (request, reply) => {
    const token = helixAuth(deps, request, reply, { user: true, scopes: ['channel:manage:broadcast'] });
    if (!token) return reply;
    const broadcasterId = stringRecord(request.query).broadcaster_id;
    if (!broadcasterId) return helixError(reply, 400, 'Missing required parameter "broadcaster_id"');
    if (broadcasterId !== token.userId)
      return helixError(reply, 401, "The ID in broadcaster_id must match the user ID found in the request's OAuth token.");
    const channel = deps.world.channel('twitch', broadcasterId);
    if (!channel) return helixError(reply, 400, 'The ID in broadcaster_id is not valid.');
    const body = asObject(request.body);
    const { title, game_id: gameId, broadcaster_language: language, tags, delay } = body;
    if (
      title === undefined &&
      gameId === undefined &&
      language === undefined &&
      tags === undefined &&
      delay === undefined &&
      body.content_classification_labels === undefined &&
      body.is_branded_content === undefined
    ) {
      return helixError(reply, 400, 'The request must update at least one field.');
    }
    if (title !== undefined) {
      if (typeof title !== 'string' || title.trim() === '')
        return helixError(reply, 400, 'The title field may not contain an empty string.');
      if ([...title].length > 140) return helixError(reply, 400, 'Title is too long.');
    }
    let game: { id: string; name: string } | undefined;
    if (gameId !== undefined) {
      if (typeof gameId !== 'string') return helixError(reply, 400, 'The game_id field is not valid.');
      if (gameId === '' || gameId === '0') game = { id: '', name: '' };
      else {
        game = twitchGame(gameId);
        if (!game) return helixError(reply, 400, 'The game_id field is not valid.');
      }
    }
    if (language !== undefined && (typeof language !== 'string' || !/^([a-z]{2}|other)$/.test(language)))
      return helixError(reply, 400, 'The broadcaster_language field is not valid.');
    if (tags !== undefined) {
      if (!Array.isArray(tags) || tags.length > 10) return helixError(reply, 400, 'The tags field may contain a maximum of 10 tags.');
      for (const tag of tags)
        if (typeof tag !== 'string' || !tagPattern.test(tag))
          return helixError(reply, 400, 'A tag may contain a maximum of 25 characters and no spaces or special characters.');
    }
    if (delay !== undefined && (typeof delay !== 'number' || delay < 0 || delay > 900))
      return helixError(reply, 400, 'The delay field is not valid.');
    if (typeof title === 'string' && title !== channel.title) {
      const from = channel.title;
      channel.title = title;
      deps.world.record({ platform: 'twitch', type: 'title', channelId: channel.id, actorId: token.userId, data: { from, to: title } });
    }
    if (game && game.id !== channel.categoryId) {
      const from = channel.categoryId;
      channel.categoryId = game.id;
      channel.categoryName = game.name;
      deps.world.record({
        platform: 'twitch',
        type: 'category',
        channelId: channel.id,
        actorId: token.userId,
        data: { from, to: game.id, name: game.name },
      });
    }
    deps.world.emit('channel.updated', channel);
    return reply.code(204).send();
  });

  /**
   * Start Commercial: the broadcaster's own user token with channel:edit:commercial, partners and affiliates only,
   * while live; a length over 180 s is served as 180; another ad before `retry_after` (480 s) is refused with 429.
   */
  const nextCommercialAt = new Map<string, number>();
  app.post('/mock/channels/commercial', async (request, reply) => {
    const token = helixAuth(deps, request, reply, { user: true, scopes: ['channel:edit:commercial'] });
    if (!token) return reply;
    const body = asObject(request.body);
    const broadcasterId = typeof body.broadcaster_id === 'string' ? body.broadcaster_id : '';
    if (!broadcasterId) return helixError(reply, 400, 'Missing required parameter "broadcaster_id"');
    const length = body.length;
    if (typeof length !== 'number' || !Number.isInteger(length) || length < 1)
      return helixError(reply, 400, 'Missing required parameter "length"');
    if (broadcasterId !== token.userId)
      return helixError(reply, 401, "The ID in broadcaster_id must match the user ID found in the request's OAuth token.");
    const channel = deps.world.channel('twitch', broadcasterId);
    const account = deps.world.account('twitch', broadcasterId);
    if (!channel || !account) return helixError(reply, 404, 'The ID in broadcaster_id was not found.');
    if (account.kind !== 'streamer') return helixError(reply, 400, 'Only partners and affiliates may run commercials.');
    if (!channel.live) return helixError(reply, 400, 'To start a commercial, the broadcaster must be streaming live.');
    const now = Date.now();
    if ((nextCommercialAt.get(broadcasterId) ?? 0) > now)
      return helixError(reply, 429, 'The broadcaster may not run another commercial until the cooldown period expires.');
    const served = Math.min(length, COMMERCIAL_MAX_SECONDS);
    nextCommercialAt.set(broadcasterId, now + COMMERCIAL_COOLDOWN_SECONDS * 1000);
    deps.world.record({
      platform: 'twitch',
      type: 'commercial',
      channelId: broadcasterId,
      actorId: token.userId,
      data: { length: served },
    });
    return reply.send({ data: [{ length: served, message: '', retry_after: COMMERCIAL_COOLDOWN_SECONDS }] });
  });
}

const COMMERCIAL_MAX_SECONDS = 180;
const COMMERCIAL_COOLDOWN_SECONDS = 480;
