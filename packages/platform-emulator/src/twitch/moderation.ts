/** Helix moderation: ban / timeout (POST bans), unban (DELETE bans), delete or clear messages (DELETE chat). */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { asObject, stringRecord } from '../http/params';
import type { Channel, Token } from '../world';
import { helixAuth, helixError, type HelixDeps } from './helix';
import { activeBan, isModerator } from './moderation-rules';

const maxTimeoutSeconds = 1_209_600;
const deletableForMs = 6 * 60 * 60 * 1000;

/** Common checks: broadcaster_id/moderator_id present, moderator is the token user and a mod of the channel. */
function moderatorContext(deps: HelixDeps, token: Token, query: Record<string, string | undefined>, reply: FastifyReply): Channel | null {
  if (!query.broadcaster_id) {
    helixError(reply, 400, 'Missing required parameter "broadcaster_id"');
    return null;
  }
  if (!query.moderator_id) {
    helixError(reply, 400, 'Missing required parameter "moderator_id"');
    return null;
  }
  if (query.moderator_id !== token.userId) {
    helixError(reply, 401, "The ID in moderator_id must match the user ID found in the request's OAuth token.");
    return null;
  }
  const channel = deps.world.channel('twitch', query.broadcaster_id);
  if (!channel) {
    helixError(reply, 400, 'The ID in broadcaster_id is not valid.');
    return null;
  }
  if (!isModerator(channel, query.moderator_id)) {
    helixError(reply, 403, "The user in moderator_id is not one of the broadcaster's moderators.");
    return null;
  }
  return channel;
}

export async function moderationRoutes(app: FastifyInstance, deps: HelixDeps): Promise<void> {
  app.post('/mock/moderation/bans', async (request, reply) => {
    const token = helixAuth(deps, request, reply, { user: true, scopes: ['moderator:manage:banned_users'] });
    if (!token) return reply;
    const query = stringRecord(request.query);
    const channel = moderatorContext(deps, token, query, reply);
    if (!channel) return reply;
    const body = asObject(request.body);
    if (body.data === undefined || typeof body.data !== 'object' || body.data === null)
      return helixError(reply, 400, 'Missing required parameter "data"');
    const data = asObject(body.data);
    const userId = typeof data.user_id === 'string' ? data.user_id : '';
    if (!userId) return helixError(reply, 400, 'The user_id field is required.');
    const target = deps.world.account('twitch', userId);
    if (!target) return helixError(reply, 400, 'The user_id field is not valid.');
    let duration: number | null = null;
    if (data.duration !== undefined && data.duration !== null && data.duration !== '') {
      duration = typeof data.duration === 'number' ? data.duration : Number(data.duration);
      if (!Number.isInteger(duration) || duration < 1 || duration > maxTimeoutSeconds)
        return helixError(reply, 400, 'The value in the duration field is not valid.');
    }
    const reason = typeof data.reason === 'string' ? data.reason : '';
    if ([...reason].length > 500) return helixError(reply, 400, 'The text in the reason field is too long.');
    if (userId === channel.id || userId === token.userId)
      return helixError(reply, 400, 'The user specified in the user_id field may not be banned.');
    const existing = activeBan(channel, userId);
    if (existing && existing.expiresAt === null)
      return helixError(reply, 400, 'The user specified in the user_id field is already banned.');
    const now = new Date();
    const expiresAt = duration === null ? null : new Date(now.getTime() + duration * 1000);
    channel.bans.set(userId, { expiresAt, reason, banId: `${channel.id}:${userId}:${now.getTime()}` });
    deps.world.emit('ban', { platform: 'twitch', channelId: channel.id, userId, moderatorId: token.userId!, expiresAt, reason });
    deps.world.record({
      platform: 'twitch',
      type: duration === null ? 'ban' : 'timeout',
      channelId: channel.id,
      actorId: token.userId,
      data: { userId, duration, reason },
    });
    return reply.send({
      data: [
        {
          broadcaster_id: channel.id,
          moderator_id: token.userId,
          user_id: userId,
          created_at: now.toISOString(),
          end_time: expiresAt?.toISOString() ?? null,
        },
      ],
    });
  });

  app.delete('/mock/moderation/bans', async (request, reply) => {
    const token = helixAuth(deps, request, reply, { user: true, scopes: ['moderator:manage:banned_users'] });
    if (!token) return reply;
    const query = stringRecord(request.query);
    const channel = moderatorContext(deps, token, query, reply);
    if (!channel) return reply;
    if (!query.user_id) return helixError(reply, 400, 'Missing required parameter "user_id"');
    if (!activeBan(channel, query.user_id)) return helixError(reply, 400, 'The user specified in the user_id field is not banned.');
    channel.bans.delete(query.user_id);
    deps.world.emit('unban', { platform: 'twitch', channelId: channel.id, userId: query.user_id, moderatorId: token.userId! });
    deps.world.record({ platform: 'twitch', type: 'unban', channelId: channel.id, actorId: token.userId, data: { userId: query.user_id } });
    return reply.code(204).send();
  });

  app.delete('/mock/moderation/chat', async (request, reply) => {
    const token = helixAuth(deps, request, reply, { user: true, scopes: ['moderator:manage:chat_messages'] });
    if (!token) return reply;
    const query = stringRecord(request.query);
    const channel = moderatorContext(deps, token, query, reply);
    if (!channel) return reply;
    if (!query.message_id) {
      deps.world.record({ platform: 'twitch', type: 'chat.clear', channelId: channel.id, actorId: token.userId, data: {} });
      return reply.code(204).send();
    }
    const message = deps.world.messages.get(query.message_id);
    if (
      !message ||
      message.platform !== 'twitch' ||
      message.channelId !== channel.id ||
      message.deleted ||
      Date.now() - message.createdAt.getTime() > deletableForMs
    ) {
      return helixError(reply, 404, 'The message specified in the message_id field was not found.');
    }
    if (message.authorId === channel.id) return helixError(reply, 400, "You may not delete the broadcaster's messages.");
    if (channel.moderators.has(message.authorId)) return helixError(reply, 400, "You may not delete another moderator's messages.");
    deps.world.deleteChat(message.id);
    deps.world.record({
      platform: 'twitch',
      type: 'chat.delete',
      channelId: channel.id,
      actorId: token.userId,
      data: { messageId: message.id, userId: message.authorId },
    });
    return reply.code(204).send();
  });
}
