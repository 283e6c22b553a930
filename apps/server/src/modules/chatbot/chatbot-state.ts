/**
 * The chatbot's in-memory state per channel: the compiled command matcher and filter set (rebuilt
 * when the channel's commands or filters change, never per message), cooldowns, turns of in-turn
 * responses, filter offences in the current stream, chat lines seen (for timers), recent chatters,
 * the last stream status per platform and the platform identities of Greenroom staff. Stages read it
 * synchronously; loads are asynchronous and swap whole parts in.
 */
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { AccessLevelValue } from '@greenroom/contracts/access';
import type { StreamStatus } from '@greenroom/contracts/api/events';
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import type { Db } from '../../db/client';
import { channelProviders, channelUsers, chatCommands, chatFilters, userProviders } from '../../db/schema';
import { CommandMatcher, Cooldowns, type CommandDefinition } from './domain/commands';
import { FilterSet, Offences, type FilterDefinition } from './domain/filters';
import type { StreamSnapshot } from './domain/variables';

/** Recent chatters kept per channel (for `$(random.chatter)`). */
const CHATTERS = 200;

export class ChannelBot {
  matcher: CommandMatcher = new CommandMatcher([]);
  filters: FilterSet = new FilterSet([]);
  readonly cooldowns = new Cooldowns();
  readonly offences = new Offences();
  /** Next response index per in-turn command. */
  readonly turns = new Map<string, number>();
  /** Chat lines seen (not filtered), for timers' minimum lines. */
  lines = 0;
  private readonly chatterRing: string[] = [];
  private readonly chatterSet = new Set<string>();
  /** Last stream status per connection. */
  readonly streams = new Map<string, StreamSnapshot>();
  /** Greenroom staff level by platform identity (`${provider}:${provider_user_id}`). */
  staff = new Map<string, number>();

  /** Releases subscriptions made for this bot (set by the module). */
  dispose: () => void = () => {};

  constructor(readonly channelId: string) {}

  setCommands(defs: readonly CommandDefinition[]): void {
    const before = new Set(this.matcher.commands.map((c) => c.def.id));
    this.matcher = new CommandMatcher(defs);
    for (const id of before) if (!defs.some((d) => d.id === id)) this.turns.delete(id);
  }

  setFilters(defs: readonly FilterDefinition[]): void {
    this.filters = new FilterSet(defs);
  }

  /** A viewer chatted: counts the line and remembers the name. */
  sawChat(displayName: string): void {
    this.lines++;
    if (this.chatterSet.has(displayName)) return;
    this.chatterRing.push(displayName);
    this.chatterSet.add(displayName);
    if (this.chatterRing.length > CHATTERS) this.chatterSet.delete(this.chatterRing.shift()!);
  }

  chatters(): readonly string[] {
    return this.chatterRing;
  }

  /** The caller's level: the audience level from platform roles, raised by a Greenroom staff role. */
  levelOf(audience: AccessLevelValue, provider: ChannelProviderId, providerUserId: string): number {
    const staff = this.staff.get(`${provider}:${providerUserId}`);
    return staff !== undefined && staff > audience ? staff : audience;
  }

  /** A stream status event: keeps the snapshot; a stream that starts resets filter offences (warn first, per stream). */
  sawStatus(status: StreamStatus): void {
    const before = this.streams.get(status.channel_provider_id);
    const startedAt = status.started_at ? Date.parse(status.started_at) : null;
    this.streams.set(status.channel_provider_id, {
      isLive: status.is_live,
      startedAt: Number.isFinite(startedAt) ? startedAt : null,
      title: status.title,
      category: status.category,
      viewers: status.viewer_count,
    });
    if (status.is_live && !before?.isLive) this.offences.reset();
  }

  anyLive(): boolean {
    for (const s of this.streams.values()) if (s.isLive) return true;
    return false;
  }
}

export function toCommandDefinition(row: typeof chatCommands.$inferSelect): CommandDefinition {
  return {
    id: row.id,
    name: row.name,
    aliases: row.aliases,
    builtin: row.builtin,
    responses: row.responses,
    responseMode: row.responseMode,
    level: row.level,
    globalCooldownSeconds: row.globalCooldownSeconds,
    userCooldownSeconds: row.userCooldownSeconds,
    platforms: row.platforms as ChannelProviderId[],
    replyMode: row.replyMode,
    enabled: row.enabled,
  };
}

export function toFilterDefinition(row: typeof chatFilters.$inferSelect): FilterDefinition {
  return {
    id: row.id,
    name: row.name,
    type: row.type as FilterDefinition['type'],
    settings: row.settings as unknown as FilterDefinition['settings'],
    exemptLevel: row.exemptLevel,
    action: row.action,
    durationSeconds: row.durationSeconds,
    warnFirst: row.warnFirst,
    message: row.message,
    enabled: row.enabled,
  };
}

/** Every channel's bot, loaded from the database. */
export class ChatbotState {
  private readonly bots = new Map<string, ChannelBot>();
  private readonly loading = new Map<string, Promise<ChannelBot>>();

  constructor(
    private readonly db: Db,
    private readonly log: { warn(obj: object, msg?: string): void },
    /** Called once for each channel's new bot (the module subscribes it to the channel's stream status). */
    private readonly onNewBot: (bot: ChannelBot) => void = () => {},
  ) {}

  /** The channel's bot if it is loaded (stages never wait); a miss starts loading it. */
  get(channelId: string): ChannelBot | null {
    const bot = this.bots.get(channelId);
    if (bot) return bot;
    void this.ensure(channelId).catch((error: unknown) => this.log.warn({ err: error, channelId }, 'loading the chatbot failed'));
    return null;
  }

  /** The channel's bot, loading it first when needed. */
  ensure(channelId: string): Promise<ChannelBot> {
    const bot = this.bots.get(channelId);
    if (bot) return Promise.resolve(bot);
    let pending = this.loading.get(channelId);
    if (!pending) {
      pending = this.loadChannels([channelId])
        .then(() => this.bots.get(channelId)!)
        .finally(() => this.loading.delete(channelId));
      this.loading.set(channelId, pending);
    }
    return pending;
  }

  /** Loads every channel with a platform connection (at start), in a few bulk queries. */
  async loadAll(): Promise<number> {
    const rows = await this.db.selectDistinct({ channelId: channelProviders.channelId }).from(channelProviders);
    const ids = rows.map((r) => r.channelId);
    for (let i = 0; i < ids.length; i += 500) await this.loadChannels(ids.slice(i, i + 500));
    return ids.length;
  }

  private async loadChannels(channelIds: string[]): Promise<void> {
    if (channelIds.length === 0) return;
    const [commands, filters, staff] = await Promise.all([
      this.db.select().from(chatCommands).where(inArray(chatCommands.channelId, channelIds)),
      this.db.select().from(chatFilters).where(inArray(chatFilters.channelId, channelIds)).orderBy(chatFilters.position, chatFilters.id),
      this.staffRows(channelIds),
    ]);
    for (const channelId of channelIds) {
      let bot = this.bots.get(channelId);
      if (!bot) {
        bot = new ChannelBot(channelId);
        this.onNewBot(bot);
      }
      bot.setCommands(commands.filter((c) => c.channelId === channelId).map(toCommandDefinition));
      bot.setFilters(filters.filter((f) => f.channelId === channelId).map(toFilterDefinition));
      bot.staff = staffMap(staff.filter((s) => s.channelId === channelId));
      this.bots.set(channelId, bot);
    }
  }

  private staffRows(channelIds: string[]) {
    return this.db
      .select({
        channelId: channelUsers.channelId,
        level: channelUsers.level,
        provider: userProviders.provider,
        providerUserId: userProviders.providerUserId,
      })
      .from(channelUsers)
      .innerJoin(userProviders, eq(userProviders.userId, channelUsers.userId))
      .where(and(inArray(channelUsers.channelId, channelIds), isNotNull(userProviders.providerUserId)));
  }

  async reloadCommands(channelId: string): Promise<void> {
    const bot = await this.ensure(channelId);
    const rows = await this.db.select().from(chatCommands).where(eq(chatCommands.channelId, channelId));
    bot.setCommands(rows.map(toCommandDefinition));
  }

  async reloadFilters(channelId: string): Promise<void> {
    const bot = await this.ensure(channelId);
    const rows = await this.db
      .select()
      .from(chatFilters)
      .where(eq(chatFilters.channelId, channelId))
      .orderBy(chatFilters.position, chatFilters.id);
    bot.setFilters(rows.map(toFilterDefinition));
  }

  /** Re-reads the staff identities of every loaded channel (staff roles change elsewhere). */
  async reloadStaff(): Promise<void> {
    const ids = [...this.bots.keys()];
    for (let i = 0; i < ids.length; i += 500) {
      const part = ids.slice(i, i + 500);
      const rows = await this.staffRows(part);
      for (const id of part) {
        const bot = this.bots.get(id);
        if (bot) bot.staff = staffMap(rows.filter((r) => r.channelId === id));
      }
    }
  }

  forget(channelId: string): void {
    const bot = this.bots.get(channelId);
    this.bots.delete(channelId);
    bot?.dispose();
  }

  /** Every loaded bot (timers read their line counts). */
  loaded(): IterableIterator<ChannelBot> {
    return this.bots.values();
  }
}

function staffMap(rows: { level: number; provider: string; providerUserId: string }[]): Map<string, number> {
  const map = new Map<string, number>();
  for (const r of rows) {
    const key = `${r.provider}:${r.providerUserId}`;
    map.set(key, Math.max(map.get(key) ?? 0, r.level));
  }
  return map;
}
