import type { FastifyInstance } from 'fastify';
import { stringList, stringRecord } from '../http/params';
import type { Channel, World } from '../world';
import { boxArtUrl, twitchGames } from './games';
import { helixAuth, helixError, paginate, type HelixDeps } from './helix';

/** Twitch stream ids are numeric; derive a stable one from the start time. */
export function streamId(channel: Channel): string {
  return String(Math.floor((channel.startedAt?.getTime() ?? 0) / 1000) * 10 + (Number(channel.id.slice(-1)) || 0));
}

export function helixStream(world: World, channel: Channel): Record<string, unknown> {
  const account = world.account('twitch', channel.id);
  const login = account?.login ?? '';
  return {
    id: streamId(channel),
    user_id: channel.id,
    user_login: login,
    user_name: account?.displayName ?? '',
    game_id: channel.categoryId,
    game_name: channel.categoryName,
    type: 'live',
    title: channel.title,
    tags: [],
    viewer_count: channel.viewerCount,
    started_at: channel.startedAt?.toISOString() ?? '',
    language: 'en',
    thumbnail_url: `https://static-cdn.jtvnw.net/previews-ttv/live_user_${login}-{width}x{height}.jpg`,
    tag_ids: [],
    is_mature: false,
  };
}

export async function streamsRoutes(app: FastifyInstance, deps: HelixDeps): Promise<void> {
  app.get('/mock/streams', async (request, reply) => {
    if (!helixAuth(deps, request, reply)) return reply;
    const raw = request.query as Record<string, unknown>;
    const q = stringRecord(raw);
    const userIds = stringList(raw.user_id);
    const logins = stringList(raw.user_login).map((l) => l.toLowerCase());
    const gameIds = stringList(raw.game_id);
    if (userIds.length > 100 || logins.length > 100)
      return helixError(reply, 400, 'The number of user_id or user_login parameters must not exceed 100.');
    let live = deps.world.channelsOf('twitch').filter((c) => c.live);
    if (userIds.length || logins.length) {
      live = live.filter((c) => userIds.includes(c.id) || logins.includes(deps.world.account('twitch', c.id)?.login ?? ''));
    }
    if (gameIds.length) live = live.filter((c) => gameIds.includes(c.categoryId));
    live.sort((a, b) => b.viewerCount - a.viewerCount);
    const result = paginate(live, q);
    if ('error' in result) return helixError(reply, 400, result.error);
    return reply.send({
      data: result.page.map((c) => helixStream(deps.world, c)),
      pagination: result.cursor ? { cursor: result.cursor } : {},
    });
  });

  app.get('/mock/search/categories', async (request, reply) => {
    if (!helixAuth(deps, request, reply)) return reply;
    const q = stringRecord(request.query);
    if (!q.query) return helixError(reply, 400, 'Missing required parameter "query"');
    const needle = q.query.toLowerCase();
    const matches = twitchGames.filter((g) => g.name.toLowerCase().includes(needle));
    const result = paginate(matches, q);
    if ('error' in result) return helixError(reply, 400, result.error);
    return reply.send({
      data: result.page.map((g) => ({ box_art_url: boxArtUrl(g).replace('{width}x{height}', '52x72'), name: g.name, id: g.id })),
      pagination: result.cursor ? { cursor: result.cursor } : {},
    });
  });

  app.get('/mock/games', async (request, reply) => {
    if (!helixAuth(deps, request, reply)) return reply;
    const raw = request.query as Record<string, unknown>;
    const ids = stringList(raw.id);
    const names = stringList(raw.name);
    const igdb = stringList(raw.igdb_id);
    if (ids.length + names.length + igdb.length === 0)
      return helixError(reply, 400, 'Missing required parameter "id", "name" or "igdb_id"');
    if (ids.length + names.length + igdb.length > 100)
      return helixError(reply, 400, 'The combined number of id, name and igdb_id parameters must not exceed 100.');
    const games = twitchGames.filter((g) => ids.includes(g.id) || names.includes(g.name) || (g.igdbId !== '' && igdb.includes(g.igdbId)));
    return reply.send({
      data: games.map((g) => ({ id: g.id, name: g.name, box_art_url: boxArtUrl(g), igdb_id: g.igdbId })),
      pagination: {},
    });
  });
}
