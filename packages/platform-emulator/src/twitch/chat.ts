/** POST /helix/chat/messages: send (and reply) as the token user, with Twitch's drop reasons. */
import type { FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import { asObject, stringRecord } from '../http/params';
import type { Channel } from '../world';
import { findTwitchEmotes } from './emotes';
import { helixAuth, helixError, type HelixDeps } from './helix';
import { activeBan, isModerator } from './moderation-rules';

const windowMs = 30_000;

/** Per-sender chat limits (20 per 30 s, 100 for the broadcaster and mods) and the duplicate rule. */
export class ChatLimiter {
  private readonly sent = new Map<string, { times: number[]; lastText: string; lastAt: number }>();

  check(channel: Channel, senderId: string, text: string, now = Date.now()): { code: string; message: string } | null {
    const key = `${channel.id}:${senderId}`;
    const entry = this.sent.get(key) ?? { times: [], lastText: '', lastAt: 0 };
    entry.times = entry.times.filter((t) => now - t < windowMs);
    const privileged = isModerator(channel, senderId);
    const limit = privileged ? 100 : 20;
    if (entry.times.length >= limit)
      return { code: 'msg_ratelimit', message: 'Your message was not sent because you are sending messages too quickly.' };
    if (!privileged && entry.lastText === text && now - entry.lastAt < windowMs) {
      return {
        code: 'msg_duplicate',
        message: 'Your message was not sent because it is identical to the previous one you sent, less than 30 seconds ago.',
      };
    }
    entry.times.push(now);
    entry.lastText = text;
    entry.lastAt = now;
    this.sent.set(key, entry);
    return null;
  }

  clear(): void {
    this.sent.clear();
  }
}

export async function chatRoutes(app: FastifyInstance, deps: HelixDeps & { chatLimiter: ChatLimiter }): Promise<void> {
  app.post('/mock/chat/messages', async (request, reply) => {
    const token = helixAuth(deps, request, reply, { user: true, scopes: ['user:write:chat'] });
    if (!token) return reply;
    // Twitch documents these as body fields but also reads them from the query string (@twurple sends them there).
    const body: Record<string, unknown> = { ...stringRecord(request.query), ...asObject(request.body) };
    for (const field of ['broadcaster_id', 'sender_id', 'message'] as const) {
      if (typeof body[field] !== 'string' || body[field] === '') return helixError(reply, 400, `Missing required parameter "${field}"`);
    }
    const broadcasterId = body.broadcaster_id as string;
    const senderId = body.sender_id as string;
    const text = body.message as string;
    const replyTo =
      typeof body.reply_parent_message_id === 'string' && body.reply_parent_message_id !== '' ? body.reply_parent_message_id : null;
    if (senderId !== token.userId)
      return helixError(reply, 401, "The ID in sender_id must match the user ID found in the request's OAuth token.");
    const channel = deps.world.channel('twitch', broadcasterId);
    if (!channel) return helixError(reply, 400, 'The ID in broadcaster_id is not valid.');
    if ([...text].length > 500) return helixError(reply, 400, 'The message field may not exceed 500 characters.');
    if (replyTo !== null) {
      const parent = deps.world.messages.get(replyTo);
      if (!parent || parent.platform !== 'twitch' || parent.channelId !== broadcasterId)
        return helixError(reply, 400, 'The reply_parent_message_id is not valid.');
    }
    const sender = deps.world.account('twitch', senderId);
    const ban = activeBan(channel, senderId);
    let drop: { code: string; message: string } | null = null;
    if (ban) {
      const login = deps.world.account('twitch', channel.id)?.login ?? '';
      drop = ban.expiresAt
        ? {
            code: 'msg_timedout',
            message: `You are timed out for ${Math.ceil((ban.expiresAt.getTime() - Date.now()) / 1000)} more seconds.`,
          }
        : { code: 'msg_banned', message: `You are permanently banned from talking in ${login}.` };
    } else {
      drop = deps.chatLimiter.check(channel, senderId, text);
    }
    if (drop || !sender) {
      const reason = drop ?? { code: 'msg_rejected', message: 'Your message was not sent.' };
      deps.world.record({
        platform: 'twitch',
        type: 'chat.send',
        channelId: channel.id,
        actorId: senderId,
        data: { text, replyTo, isSent: false, dropReason: reason.code },
      });
      return reply.send({ data: [{ message_id: '', is_sent: false, drop_reason: reason }] });
    }
    const message = deps.world.postChat({
      id: randomUUID(),
      platform: 'twitch',
      channelId: channel.id,
      authorId: senderId,
      text,
      emotes: findTwitchEmotes(text),
      replyToId: replyTo,
      origin: 'product',
      sentAs: 'user',
      deleted: false,
      createdAt: new Date(),
    });
    deps.world.record({
      platform: 'twitch',
      type: 'chat.send',
      channelId: channel.id,
      actorId: senderId,
      data: { messageId: message.id, text, replyTo, isSent: true },
    });
    return reply.send({ data: [{ message_id: message.id, is_sent: true, drop_reason: null }] });
  });
}
