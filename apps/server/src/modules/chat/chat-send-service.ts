/**
 * Sending from the staff composer to one or all connected platforms with chat write, as the
 * broadcaster or the bot, through each connection's actions (rate-limited send queue). Every
 * platform gets its own result; partial success is a normal answer. Posting as the broadcaster's own
 * account is for Admins and the Owner (and Editors when the Owner allows it); everyone else sends as the
 * bot. Every message a platform accepted is in the audit log with who sent it and as which account.
 */
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { sendChatBodySchema, sendChatResultSchema } from '@greenroom/contracts/api/chat';
import { canPostAsStreamer, POST_AS_STREAMER_REFUSED } from '@greenroom/contracts/api/channels';
import { providers, type ChannelProviderId } from '@greenroom/contracts/providers';
import type { Db } from '../../db/client';
import { channelProviders, channels, systemBots } from '../../db/schema';
import { AppError, badRequest, forbidden } from '../../lib/errors';
import type { Actor, ChannelActions } from '../../platforms/port';
import { PlatformError } from '../../platforms/platform-error';
import type { AuditRecorder } from '../audit';

export type SendChatBody = z.output<typeof sendChatBodySchema>;
export type SendChatResult = z.infer<typeof sendChatResultSchema>;
type ResultEntry = SendChatResult['results'][number];

/** Where chat actions of a connection come from (the platform connection manager). */
export interface ChatActionsSource {
  actions(channelProviderId: string): Promise<{ actions: ChannelActions }>;
}

const replyPlatforms = Object.values(providers)
  .filter((p) => p.chatReplyMessage)
  .map((p) => p.name);
/** "Twitch is the only platform that supports replies" (from the catalogue). */
export const REPLY_UNSUPPORTED =
  replyPlatforms.length === 1
    ? `${replyPlatforms[0]} is the only platform that supports replies`
    : `Only ${replyPlatforms.join(', ')} support replies`;

/** A user-facing reason from whatever the platform layer threw. */
export function sendErrorMessage(provider: ChannelProviderId, error: unknown): string {
  const name = providers[provider].name;
  if (error instanceof PlatformError) {
    if (error.code === 'rate_limited') return error.message || `${name} is rate limiting messages; try again in a moment.`;
    return error.message;
  }
  if (error instanceof AppError) return error.message;
  return `${name} did not accept the message.`;
}

/** Who is sending: the signed-in staff member and their level in the channel. */
export interface ChatSender {
  userId: string;
  level: number;
}

/** The audit action of a message sent from Greenroom. */
export const CHAT_SENT_ACTION = 'chat.sent';

interface Target {
  id: string;
  provider: ChannelProviderId;
  /** The accounts a message goes out as on this connection (for the audit log). */
  broadcasterName: string;
  botName: string | null;
}

export class ChatSendService {
  constructor(
    private readonly db: Db,
    private readonly source: () => ChatActionsSource | null,
    private readonly log: { warn(obj: object, msg?: string): void },
    private readonly audit: AuditRecorder,
  ) {}

  /** The account `as` resolves to for this sender: the streamer's only with the right to post as the streamer. */
  private async resolveAs(channelId: string, requested: Actor | undefined, sender: ChatSender): Promise<Actor> {
    const [row] = await this.db.select({ editors: channels.editorsPostAsStreamer }).from(channels).where(eq(channels.id, channelId));
    const allowed = canPostAsStreamer(sender.level, row?.editors ?? false);
    if (requested === 'broadcaster' && !allowed) throw forbidden(POST_AS_STREAMER_REFUSED);
    return requested ?? (allowed ? 'broadcaster' : 'bot');
  }

  async send(channelId: string, body: SendChatBody, sender: ChatSender): Promise<SendChatResult> {
    const as = await this.resolveAs(channelId, body.as, sender);
    const rows = await this.db
      .select({
        id: channelProviders.id,
        provider: channelProviders.provider,
        providerChannelName: channelProviders.providerChannelName,
        botDisplayName: channelProviders.botDisplayName,
        ownBot: channelProviders.botAccessTokenEnc,
      })
      .from(channelProviders)
      .where(eq(channelProviders.channelId, channelId));
    const bots = new Map((await this.db.select().from(systemBots)).map((b) => [b.provider, b.displayName]));
    const connected: Target[] = rows
      .filter((r): r is typeof r & { provider: ChannelProviderId } => r.provider in providers)
      .map((r) => ({
        id: r.id,
        provider: r.provider,
        broadcasterName: r.providerChannelName,
        botName: r.ownBot
          ? (r.botDisplayName ?? 'the channel bot')
          : providers[r.provider].systemBot && bots.has(r.provider)
            ? bots.get(r.provider)!
            : // Kick's bot of Greenroom's app (no account of Greenroom's own), or no bot at all.
              null,
      }));
    let targets: Target[];
    if (body.channel_provider_ids.length > 0) {
      targets = [];
      for (const id of new Set(body.channel_provider_ids)) {
        const row = connected.find((r) => r.id === id);
        if (!row) throw badRequest('A chosen platform is not connected to this channel.');
        targets.push(row);
      }
    } else if (body.reply_to) {
      targets = connected.filter((r) => r.id === body.reply_to!.channel_provider_id);
    } else {
      targets = connected.filter((r) => providers[r.provider].chatWrite);
    }
    if (targets.length === 0) throw new AppError(422, 'unsupported', 'No connected platform can send chat messages.');
    const source = this.source();
    const results = await Promise.all(targets.map((t) => this.sendOne(source, t, body, as)));
    // What the platforms accepted is recorded even if answering fails later.
    for (const [i, result] of results.entries()) {
      if (!result.ok) continue;
      const target = targets[i]!;
      await this.audit.record({
        channelId,
        actorUserId: sender.userId,
        action: CHAT_SENT_ACTION,
        data: {
          provider: target.provider,
          channel_provider_id: target.id,
          as,
          account: as === 'broadcaster' ? target.broadcasterName : target.botName,
          text: body.text,
          provider_message_id: result.provider_message_id,
          ...(body.reply_to ? { reply_to: body.reply_to.provider_message_id } : {}),
        },
      });
    }
    return { results };
  }

  private async sendOne(source: ChatActionsSource | null, target: Target, body: SendChatBody, as: Actor): Promise<ResultEntry> {
    const info = providers[target.provider];
    const fail = (error: string): ResultEntry => ({
      channel_provider_id: target.id,
      provider: target.provider,
      ok: false,
      provider_message_id: null,
      error,
    });
    if (!info.chatWrite) return fail(`${info.name} does not support sending chat messages.`);
    let replyTo: string | undefined;
    if (body.reply_to) {
      if (!info.chatReplyMessage) return fail(REPLY_UNSUPPORTED);
      if (body.reply_to.channel_provider_id !== target.id) return fail(`The message replied to is not on this ${info.name} channel.`);
      replyTo = body.reply_to.provider_message_id;
    }
    if (!source) return fail(`${info.name} is not available on this server.`);
    try {
      const { actions } = await source.actions(target.id);
      if (!actions.chat) return fail(`${info.name} does not support sending chat messages.`);
      const sent = await actions.chat.sendMessage({
        text: body.text,
        as,
        ...(replyTo ? { replyToProviderMessageId: replyTo } : {}),
      });
      return {
        channel_provider_id: target.id,
        provider: target.provider,
        ok: true,
        provider_message_id: sent.providerMessageId,
        error: null,
      };
    } catch (error) {
      if (!(error instanceof AppError || error instanceof PlatformError))
        this.log.warn({ err: error, channelProviderId: target.id }, 'chat send failed');
      return fail(sendErrorMessage(target.provider, error));
    }
  }
}
