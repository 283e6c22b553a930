/**
 * Discord go-live announcements: a channel's settings (the webhook's token encrypted at rest, never sent back), the
 * "send test" post, and `sync()`, which posts once when the channel's first platform goes live and edits that
 * message when every platform has been offline for `END_AFTER_MS` (a reconnecting encoder is not a new stream).
 *
 * Exactly once per stream, across restarts and instances: the stream's row is claimed (`discord_posts`, one open row
 * per channel) before the post and the message id stored after it. A post Discord certainly refused or rate limited
 * gives the claim back (tried again at the next sync); one whose answer was lost (no answer, a 5xx, the process
 * died) is never repeated — Discord may have taken it — and is shown as interrupted.
 */
import { and, desc, eq, isNull, lt } from 'drizzle-orm';
import {
  parseDiscordWebhookUrl,
  type DiscordSettings,
  type DiscordSettingsBody,
  type DiscordTestBody,
} from '@greenroom/contracts/api/discord';
import { providers, type ChannelProviderId } from '@greenroom/contracts/providers';
import type { Db } from '../../db/client';
import { channelProviders, channels, discordAnnouncements, discordPosts } from '../../db/schema';
import type { TokenCipher } from '../../lib/crypto';
import { AppError, badRequest, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { failureMessage, type DiscordWebhookClient, type WebhookTarget } from './discord-webhook';

/** Every platform offline this long ends the stream (the announcement is edited). */
export const END_AFTER_MS = 2 * 60_000;
/** A claim older than this still `sending` belongs to a request that died with its process. */
const SENDING_STALE_MS = 60_000;
const LIVE_COLOR = 0x53fc18;
const ENDED_COLOR = 0x747f8d;

/** A platform's public channel page (the `{link}` of a template). */
function channelLink(provider: ChannelProviderId, name: string, providerChannelId: string): string {
  switch (provider) {
    case 'twitch':
      return `https://www.twitch.tv/${name}`;
    case 'youtube':
      return `https://www.youtube.com/channel/${providerChannelId}/live`;
    case 'kick':
      return `https://kick.com/${name}`;
    case 'tiktok':
      return `https://www.tiktok.com/@${name}/live`;
    default:
      return '';
  }
}

/** h:mm:ss */
function duration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 3600)}:${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

export interface AnnouncementInput {
  channel: string;
  title: string | null;
  game: string | null;
  live: { provider: ChannelProviderId; name: string; providerChannelId: string }[];
}

/** The message for a template, role and stream (pure). */
export function renderAnnouncement(
  template: string,
  roleId: string | null,
  input: AnnouncementInput,
  publicUrl: string,
  startedAt: Date,
): { content: string; embed: Record<string, unknown> } {
  const first = input.live[0];
  const platformNames = input.live.map((l) => providers[l.provider].name);
  const link = first ? channelLink(first.provider, first.name, first.providerChannelId) : '';
  const values: Record<string, string> = {
    channel: input.channel,
    title: input.title ?? '',
    game: input.game ?? '',
    platform: platformNames[0] ?? '',
    platforms: platformNames.join(', '),
    link,
    watch_link: first ? `${publicUrl}/watch/${first.provider}/${encodeURIComponent(first.name)}` : '',
  };
  const text = template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole).trim();
  const content = [...(roleId ? `<@&${roleId}> ${text}` : text)].slice(0, 2000).join('');
  const embed: Record<string, unknown> = {
    title: (input.title || `${input.channel} is live`).slice(0, 256),
    ...(link ? { url: link } : {}),
    color: LIVE_COLOR,
    fields: [
      ...(input.game ? [{ name: 'Game', value: input.game.slice(0, 1024), inline: true }] : []),
      { name: 'Platforms', value: values.platforms || '–', inline: true },
    ],
    footer: { text: 'Live now' },
    timestamp: startedAt.toISOString(),
  };
  return { content: content || `${input.channel} is live`, embed };
}

export interface DiscordServiceDeps {
  db: Db;
  cipher: TokenCipher;
  webhooks: DiscordWebhookClient;
  publicUrl: string;
  /** The stream's title and category on a connection (null when the platform cannot tell). */
  streamInfo: (channelProviderId: string) => Promise<{ title: string | null; category: string | null }>;
  /** Whether this instance runs the channel's announcements (several instances). */
  owns?: (channelId: string) => boolean;
  clock?: () => number;
  log: { warn(obj: object, msg?: string): void };
}

export class DiscordService {
  private readonly clock: () => number;

  constructor(private readonly deps: DiscordServiceDeps) {
    this.clock = deps.clock ?? Date.now;
  }

  async get(channelId: string): Promise<DiscordSettings> {
    const [row] = await this.deps.db.select().from(discordAnnouncements).where(eq(discordAnnouncements.channelId, channelId));
    const [post] = await this.deps.db
      .select()
      .from(discordPosts)
      .where(eq(discordPosts.channelId, channelId))
      .orderBy(desc(discordPosts.startedAt))
      .limit(1);
    return {
      configured: row !== undefined,
      webhook_hint: row ? `https://discord.com/api/webhooks/${row.webhookId}/••••` : null,
      template: row?.template ?? '',
      role_id: row?.roleId ?? null,
      enabled: row?.enabled ?? false,
      last_post: post
        ? {
            state: post.state,
            started_at: post.startedAt.toISOString(),
            ended_at: post.endedAt?.toISOString() ?? null,
            error: post.lastError,
          }
        : null,
    };
  }

  async save(channelId: string, body: DiscordSettingsBody): Promise<DiscordSettings> {
    const hook = body.webhook_url ? parseDiscordWebhookUrl(body.webhook_url) : null;
    const values = { template: body.template, roleId: body.role_id, enabled: body.enabled, updatedAt: new Date(this.clock()) };
    if (hook) {
      const row = { ...values, webhookId: hook.id, webhookTokenEnc: this.deps.cipher.encrypt(hook.token) };
      await this.deps.db
        .insert(discordAnnouncements)
        .values({ channelId, ...row })
        .onConflictDoUpdate({ target: discordAnnouncements.channelId, set: row });
    } else {
      const updated = await this.deps.db
        .update(discordAnnouncements)
        .set(values)
        .where(eq(discordAnnouncements.channelId, channelId))
        .returning({ id: discordAnnouncements.channelId });
      if (updated.length === 0) {
        const message = 'Paste the webhook URL from Discord: https://discord.com/api/webhooks/…';
        throw badRequest(message, { webhook_url: message });
      }
    }
    return this.get(channelId);
  }

  async remove(channelId: string): Promise<void> {
    const deleted = await this.deps.db
      .delete(discordAnnouncements)
      .where(eq(discordAnnouncements.channelId, channelId))
      .returning({ id: discordAnnouncements.channelId });
    if (deleted.length === 0) throw notFound('Discord announcements are not set up.');
  }

  /** Posts a sample announcement with the settings as typed (the stored webhook when none is typed). */
  async test(channelId: string, body: DiscordTestBody): Promise<void> {
    let target: WebhookTarget | null = body.webhook_url ? parseDiscordWebhookUrl(body.webhook_url) : null;
    if (!target) {
      const [row] = await this.deps.db.select().from(discordAnnouncements).where(eq(discordAnnouncements.channelId, channelId));
      if (!row) {
        const message = 'Paste the webhook URL from Discord: https://discord.com/api/webhooks/…';
        throw badRequest(message, { webhook_url: message });
      }
      target = { id: row.webhookId, token: this.deps.cipher.decrypt(row.webhookTokenEnc) };
    }
    const input = await this.liveInput(channelId);
    const sample: AnnouncementInput =
      input.live.length > 0
        ? input
        : {
            ...input,
            title: input.title ?? 'Test stream',
            game: input.game ?? 'Just Chatting',
            live: (await this.connections(channelId)).slice(0, 1),
          };
    const { content, embed } = renderAnnouncement(body.template, body.role_id, sample, this.deps.publicUrl, new Date(this.clock()));
    const result = await this.deps.webhooks.post(target, {
      content: `${content}\n-# Test announcement from Greenroom`,
      embeds: [embed],
      allowed_mentions: body.role_id ? { parse: [], roles: [body.role_id] } : { parse: [] },
    });
    if (!result.ok) {
      const status = result.failure.kind === 'rate_limited' ? 429 : result.failure.kind === 'temporary' ? 503 : 422;
      const type = status === 429 ? 'rate_limited' : status === 503 ? 'unavailable' : 'provider_refused';
      throw new AppError(status, type, failureMessage(result.failure));
    }
  }

  /** Posts, edits and ends the announcements of every channel with them turned on. */
  async sync(): Promise<void> {
    const now = this.clock();
    await this.deps.db
      .update(discordPosts)
      .set({ state: 'interrupted', lastError: 'Greenroom stopped while posting: not posted again, in case Discord took it.' })
      .where(and(eq(discordPosts.state, 'sending'), lt(discordPosts.startedAt, new Date(now - SENDING_STALE_MS))));
    const settings = await this.deps.db.select().from(discordAnnouncements).where(eq(discordAnnouncements.enabled, true));
    for (const s of settings) {
      if (this.deps.owns && !this.deps.owns(s.channelId)) continue;
      try {
        await this.syncChannel(s, now);
      } catch (error) {
        this.deps.log.warn({ err: error, channelId: s.channelId }, 'Discord announcement failed');
      }
    }
  }

  private async syncChannel(s: typeof discordAnnouncements.$inferSelect, now: number): Promise<void> {
    const live = await this.deps.db
      .select({ id: channelProviders.id })
      .from(channelProviders)
      .where(and(eq(channelProviders.channelId, s.channelId), eq(channelProviders.isLive, true)));
    const [open] = await this.deps.db
      .select()
      .from(discordPosts)
      .where(and(eq(discordPosts.channelId, s.channelId), isNull(discordPosts.endedAt)));
    if (live.length > 0) {
      if (open) {
        if (open.offlineSince) await this.deps.db.update(discordPosts).set({ offlineSince: null }).where(eq(discordPosts.id, open.id));
        return;
      }
      await this.announce(s, now);
      return;
    }
    if (!open || open.state === 'sending') return;
    if (!open.offlineSince) {
      await this.deps.db
        .update(discordPosts)
        .set({ offlineSince: new Date(now) })
        .where(eq(discordPosts.id, open.id));
      return;
    }
    if (now - open.offlineSince.getTime() < END_AFTER_MS) return;
    await this.end(s, open, open.offlineSince);
  }

  private target(s: typeof discordAnnouncements.$inferSelect): WebhookTarget {
    return { id: s.webhookId, token: this.deps.cipher.decrypt(s.webhookTokenEnc) };
  }

  private async announce(s: typeof discordAnnouncements.$inferSelect, now: number): Promise<void> {
    const id = newId();
    const startedAt = new Date(now);
    const claimed = await this.deps.db
      .insert(discordPosts)
      .values({ id, channelId: s.channelId, state: 'sending', webhookId: s.webhookId, startedAt })
      .onConflictDoNothing()
      .returning({ id: discordPosts.id });
    if (claimed.length === 0) return;
    const input = await this.liveInput(s.channelId);
    const message = renderAnnouncement(s.template, s.roleId, input, this.deps.publicUrl, startedAt);
    const result = await this.deps.webhooks.post(this.target(s), {
      content: message.content,
      embeds: [message.embed],
      allowed_mentions: s.roleId ? { parse: [], roles: [s.roleId] } : { parse: [] },
    });
    if (result.ok) {
      await this.deps.db
        .update(discordPosts)
        .set({ state: 'posted', messageId: result.messageId, content: message, lastError: null })
        .where(eq(discordPosts.id, id));
      return;
    }
    const error = failureMessage(result.failure);
    if (result.failure.kind === 'rate_limited') {
      // Certainly not posted: the claim is given back and the next sync tries again.
      await this.deps.db.delete(discordPosts).where(eq(discordPosts.id, id));
      return;
    }
    const state = result.failure.kind === 'temporary' ? 'interrupted' : 'failed';
    await this.deps.db.update(discordPosts).set({ state, lastError: error, content: message }).where(eq(discordPosts.id, id));
  }

  private async end(s: typeof discordAnnouncements.$inferSelect, open: typeof discordPosts.$inferSelect, endedAt: Date): Promise<void> {
    let lastError = open.lastError;
    if (open.state === 'posted' && open.messageId && open.content && open.webhookId === s.webhookId) {
      const embed = {
        ...open.content.embed,
        color: ENDED_COLOR,
        footer: { text: `Stream ended · ${duration(endedAt.getTime() - open.startedAt.getTime())}` },
      };
      const result = await this.deps.webhooks.edit(this.target(s), open.messageId, {
        content: open.content.content,
        embeds: [embed],
        allowed_mentions: { parse: [] },
      });
      if (!result.ok) {
        // Rate limited or unanswered: edited at a later sync. Gone (the message or the webhook): nothing to edit.
        if (result.failure.kind === 'rate_limited' || result.failure.kind === 'temporary') return;
        lastError = failureMessage(result.failure);
      }
    }
    await this.deps.db
      .update(discordPosts)
      .set({ endedAt, state: open.state === 'posted' ? 'ended' : open.state, lastError })
      .where(eq(discordPosts.id, open.id));
  }

  private async connections(channelId: string, liveOnly = false) {
    const rows = await this.deps.db
      .select({
        id: channelProviders.id,
        provider: channelProviders.provider,
        name: channelProviders.providerChannelName,
        providerChannelId: channelProviders.providerChannelId,
        isLive: channelProviders.isLive,
      })
      .from(channelProviders)
      .where(eq(channelProviders.channelId, channelId))
      .orderBy(channelProviders.createdAt);
    return rows
      .filter((r) => (!liveOnly || r.isLive) && providers[r.provider as ChannelProviderId]?.stream)
      .map((r) => ({ id: r.id, provider: r.provider as ChannelProviderId, name: r.name, providerChannelId: r.providerChannelId }));
  }

  /** The channel's name, the live platforms and the first live platform's title and category. */
  private async liveInput(channelId: string): Promise<AnnouncementInput> {
    const [channel] = await this.deps.db.select({ name: channels.displayName }).from(channels).where(eq(channels.id, channelId));
    const live = await this.connections(channelId, true);
    let info: { title: string | null; category: string | null } = { title: null, category: null };
    for (const l of live) {
      info = await this.deps.streamInfo(l.id).catch(() => ({ title: null, category: null }));
      if (info.title || info.category) break;
    }
    return { channel: channel?.name ?? '', title: info.title, game: info.category, live };
  }
}
