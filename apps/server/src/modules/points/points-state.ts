/**
 * The points module's in-memory state per channel, read synchronously by its chat stage: the
 * settings (all loaded at start, swapped on save), who never earns, message points this minute,
 * recent chatters (watching where a platform has no chatter list; the active bonus) and the stream
 * status per platform (the stream a loss cap counts in).
 */
import { ACTIVE_CHATTER_MINUTES, defaultPointSettings, type PointSettings } from '@greenroom/contracts/api/points';
import type { StreamStatus } from '@greenroom/contracts/api/events';
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import { BotFilter, MessageEarnings, RecentChatters, identityKey, type IdentityKey } from './domain/earning';

export class ChannelPoints {
  settings: PointSettings = defaultPointSettings;
  bots = new BotFilter([]);
  readonly messages = new MessageEarnings();
  readonly recent = new RecentChatters(ACTIVE_CHATTER_MINUTES * 60_000);
  /** Live state per connection, from stream status events. */
  private readonly streams = new Map<string, { provider: ChannelProviderId; isLive: boolean; startedAt: number | null }>();
  /** The stream that is on now (kept while any platform stays live). */
  private session: string | null = null;
  /** The last watch-time tick this instance paid or saw claimed. */
  lastTick = 0;
  /** Releases the subscriptions made for this channel. */
  dispose: () => void = () => {};

  constructor(readonly channelId: string) {}

  sawStatus(status: Pick<StreamStatus, 'channel_provider_id' | 'provider' | 'is_live' | 'started_at'>): void {
    const startedAt = status.started_at ? Date.parse(status.started_at) : NaN;
    this.streams.set(status.channel_provider_id, {
      provider: status.provider,
      isLive: status.is_live,
      startedAt: Number.isFinite(startedAt) ? startedAt : null,
    });
  }

  /**
   * The stream a loss cap counts in: from the first platform going live until every platform is
   * offline, named by the earliest start among the live platforms; offline play counts per UTC day.
   */
  streamKey(now: number): string {
    const live = [...this.streams.values()].filter((s) => s.isLive);
    if (live.length === 0) {
      this.session = null;
      return `day:${new Date(now).toISOString().slice(0, 10)}`;
    }
    if (!this.session) {
      const starts = live.map((s) => s.startedAt ?? now);
      this.session = `stream:${new Date(Math.min(...starts)).toISOString()}`;
    }
    return this.session;
  }
}

export class PointsState {
  private readonly channels = new Map<string, ChannelPoints>();
  private settingsById = new Map<string, PointSettings>();
  private botIds: ReadonlySet<IdentityKey> = new Set();

  constructor(
    /** Subscribes a channel's live events (stream status, bans); returns the unsubscribe. */
    private readonly watch: (channel: ChannelPoints) => () => void = () => () => {},
  ) {}

  /** The channel's state, made on first use (the settings were loaded at start; defaults otherwise). */
  get(channelId: string): ChannelPoints {
    let c = this.channels.get(channelId);
    if (!c) {
      c = new ChannelPoints(channelId);
      this.apply(c, this.settingsById.get(channelId) ?? defaultPointSettings);
      this.channels.set(channelId, c);
      c.dispose = this.watch(c);
    }
    return c;
  }

  loadSettings(all: Map<string, PointSettings>): void {
    this.settingsById = all;
    for (const c of this.channels.values()) this.apply(c, all.get(c.channelId) ?? defaultPointSettings);
  }

  setSettings(channelId: string, settings: PointSettings): void {
    this.settingsById.set(channelId, settings);
    this.apply(this.get(channelId), settings);
  }

  settingsOf(channelId: string): PointSettings {
    return this.settingsById.get(channelId) ?? defaultPointSettings;
  }

  /** The bot accounts (channels' own bots and the system bots) by identity. */
  setBotIdentities(ids: readonly { provider: ChannelProviderId; providerUserId: string }[]): void {
    this.botIds = new Set(ids.map((i) => identityKey(i.provider, i.providerUserId)));
    for (const c of this.channels.values()) c.bots = new BotFilter(c.settings.ignored_logins, this.botIds);
  }

  forget(channelId: string): void {
    this.channels.get(channelId)?.dispose();
    this.channels.delete(channelId);
    this.settingsById.delete(channelId);
  }

  close(): void {
    for (const c of this.channels.values()) c.dispose();
    this.channels.clear();
  }

  private apply(c: ChannelPoints, settings: PointSettings): void {
    c.settings = settings;
    c.bots = new BotFilter(settings.ignored_logins, this.botIds);
  }
}
