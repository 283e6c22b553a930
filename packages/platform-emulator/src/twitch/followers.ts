/**
 * GET /helix/channels/followers: who follows a broadcaster, as Twitch serves it — a user token;
 * `broadcaster_id` required; `total` always. The list (`data`, newest first, `first` 1–100, default
 * 20, cursor pagination with `after`, `user_id` to check one user) only for a token with
 * `moderator:read:followers` whose user is the broadcaster or one of their moderators; any other
 * user token gets `total` alone and an empty list.
 */
import type { FastifyInstance } from 'fastify';
import { stringRecord } from '../http/params';
import { helixAuth, helixError, paginate, type HelixDeps } from './helix';
import { isModerator } from './moderation-rules';

export async function followersRoutes(app: FastifyInstance, deps: HelixDeps): Promise<void> {
  app.get('/mock/channels/followers', async (request, reply) => {
    const token = helixAuth(deps, request, reply, { user: true });
    if (!token) return reply;
    const query = stringRecord(request.query);
    if (!query.broadcaster_id) return helixError(reply, 400, 'Missing required parameter "broadcaster_id"');
    const channel = deps.world.channel('twitch', query.broadcaster_id);
    if (!channel) return helixError(reply, 400, 'The ID in broadcaster_id is not valid.');
    const total = channel.followers.size;
    const mayList = token.scopes.includes('moderator:read:followers') && token.userId !== null && isModerator(channel, token.userId);
    if (!mayList) return reply.send({ data: [], pagination: {}, total });
    let entries = [...channel.followers.entries()].sort((a, b) => b[1].getTime() - a[1].getTime());
    if (query.user_id) entries = entries.filter(([id]) => id === query.user_id);
    const page = paginate(entries, {
      ...(query.first !== undefined ? { first: query.first } : {}),
      ...(query.after ? { after: query.after } : {}),
    });
    if ('error' in page) return helixError(reply, 400, page.error);
    const data = page.page.flatMap(([id, at]) => {
      const account = deps.world.account('twitch', id);
      return account
        ? [{ user_id: account.id, user_login: account.login, user_name: account.displayName, followed_at: at.toISOString() }]
        : [];
    });
    return reply.send({ data, pagination: page.cursor ? { cursor: page.cursor } : {}, total });
  });
}
