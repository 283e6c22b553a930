/**
 * Sending from the staff composer to one or all connected platforms with chat write, as the
 * broadcaster or the bot, through each connection's actions (rate-limited send queue). Every
 * platform gets its own result; partial success is a normal answer.
 */
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { sendChatBodySchema, sendChatResultSchema } from '@greenroom/contracts/api/chat';
import { providers, type ChannelProviderId } from '@greenroom/contracts/providers';
import type { Db } from '../../db/client';
import { channelProviders } from '../../db/schema';
import { AppError, badRequest } from '../../lib/errors';
import type { ChannelActions } from '../../platforms/port';
import { PlatformError } from '../../platforms/platform-error';

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

export class ChatSendService {
  constructor(
    private readonly db: Db,
    private readonly source: () => ChatActionsSource | null,
    private readonly log: { warn(obj: object, msg?: string): void },
  ) {}

  async send(channelId: string, body: SendChatBody): Promise<SendChatResult> {
    const rows = await this.db
      .select({ id: channelProviders.id, provider: channelProviders.provider })
      .from(channelProviders)
      .where(eq(channelProviders.channelId, channelId));
    const connected = rows.filter((r) => r.provider in providers) as { id: string; provider: ChannelProviderId }[];
    let targets: { id: string; provider: ChannelProviderId }[];
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
    const results = await Promise.all(targets.map((t) => this.sendOne(source, t, body)));
    return { results };
  }

  private async sendOne(
    source: ChatActionsSource | null,
    target: { id: string; provider: ChannelProviderId },
    body: SendChatBody,
  ): Promise<ResultEntry> {
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
        as: body.as,
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
