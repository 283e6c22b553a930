/**
 * GET /helix/chat/chatters: the users connected to a broadcaster's chat, as Twitch serves it —
 * a user token with `moderator:read:chatters`, `moderator_id` = the token user and a moderator of
 * the channel (the broadcaster counts), `first` 1–1000 (default 100), cursor pagination with
 * `after`, and `total`.
 */
import type { FastifyInstance } from 'fastify';
import { stringRecord } from '../http/params';
import { helixAuth, helixError, paginate, type HelixDeps } from './helix';
import { isModerator } from './moderation-rules';

export async function chattersRoutes(app: FastifyInstance, deps: HelixDeps): Promise<void> {
  app.get('/mock/chat/chatters', async (request, reply) => {
    const token = helixAuth(deps, request, reply, { user: true, scopes: ['moderator:read:chatters'] });
    if (!token) return reply;
    const query = stringRecord(request.query);
    if (!query.broadcaster_id) return helixError(reply, 400, 'Missing required parameter "broadcaster_id"');
    if (!query.moderator_id) return helixError(reply, 400, 'Missing required parameter "moderator_id"');
    if (query.moderator_id !== token.userId)
      return helixError(reply, 401, "The ID in moderator_id must match the user ID found in the request's OAuth token.");
    const channel = deps.world.channel('twitch', query.broadcaster_id);
    if (!channel) return helixError(reply, 400, 'The ID in broadcaster_id is not valid.');
    if (!isModerator(channel, query.moderator_id))
      return helixError(reply, 403, "The user in moderator_id is not one of the broadcaster's moderators.");
    const ids = [...channel.chatters];
    const page = paginate(
      ids,
      { ...(query.first !== undefined ? { first: query.first } : { first: '100' }), ...(query.after ? { after: query.after } : {}) },
      1000,
    );
    if ('error' in page) return helixError(reply, 400, page.error);
    const data = page.page.flatMap((id) => {
      const account = deps.world.account('twitch', id);
      return account ? [{ user_id: account.id, user_login: account.login, user_name: account.displayName }] : [];
    });
    return reply.send({ data, pagination: page.cursor ? { cursor: page.cursor } : {}, total: ids.length });
  });
}
