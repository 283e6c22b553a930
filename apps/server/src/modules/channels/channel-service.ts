import { and, asc, desc, eq, ilike, inArray, lt, sql, type SQL, type Subquery } from 'drizzle-orm';
import { AccessLevel, type AccessLevelValue } from '@greenroom/contracts/access';
import type { AdminChannel, Channel } from '@greenroom/contracts/api/channels';
import type { Paginated } from '@greenroom/contracts/api/common';
import { channelProviderIdSchema, providers, type ProviderId } from '@greenroom/contracts/providers';
import type { Db } from '../../db/client';
import type { AccessEvents } from '../../lib/access-events';
import { channelProviders, channelUsers, channels, users } from '../../db/schema';
import { badRequest, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { decodeKeysetCursor, encodeKeysetCursor, escapeLike, pageOf } from '../../lib/pagination';
import type { AuditRecorder } from '../audit';

/** A first page counts its list up to this many rows; a longer list answers without `total`. */
export const TOTAL_COUNT_LIMIT = 1000;

/**
 * The admin list's first-page count: every channel up to TOTAL_COUNT_LIMIT + 1 — unless the planner's statistics
 * already say the table holds over ten times that many rows: then null without counting (the 1,001 index entries and
 * their heap rows cost ~0.4 ms of the database thread, more than the rest of the page at 100,000 channels). A stale
 * estimate can only leave the number out (the page then says "All channels on this server."), never show a wrong one:
 * below the estimate's bound the rows are counted.
 */
const cappedChannelCount = sql<number | null>`${sql.raw(
  `(case when (select reltuples from pg_class where oid = 'channels'::regclass) > ${10 * TOTAL_COUNT_LIMIT} then null
    else (select count(*)::int from (select 1 from channels c order by c.id desc limit ${TOTAL_COUNT_LIMIT + 1}) capped) end)`,
)}`;

export const CHANNEL_ID_REQUIRED = 'A channel id, or provider plus provider channel name, is required';

export interface ChannelFilters {
  name?: string;
  channel_id?: string;
  provider?: ProviderId;
  provider_channel_name?: string;
  cursor?: string;
  per_page: number;
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Runs inside the transaction that creates a channel (features seed their defaults: the chatbot's commands). */
export type ChannelCreatedHook = (tx: Tx, channelId: string) => Promise<void>;

export interface ChannelServiceDeps {
  audit: AuditRecorder;
  /** Closes every platform connection of a channel, removes what they set up at the platforms and revokes their tokens. */
  disconnectPlatforms(channelId: string, actorUserId: string | null): Promise<void>;
  /** Tells open sockets the channel is gone (they close). */
  access?: Pick<AccessEvents, 'channelDeleted'>;
}

export class ChannelService {
  private readonly createdHooks: ChannelCreatedHook[] = [];

  constructor(
    private readonly db: Db,
    private readonly deps: ChannelServiceDeps,
  ) {}

  /** Renames the channel (audited) and answers it as the caller sees it. */
  async renameAs(channelId: string, displayName: string, actor: { userId: string; level: number }): Promise<Channel> {
    const before = await this.displayName(channelId);
    await this.rename(channelId, displayName);
    await this.deps.audit.record({
      channelId,
      actorUserId: actor.userId,
      action: 'channel.renamed',
      data: { from: before, to: displayName },
    });
    return this.getForUser(channelId, actor.userId, actor.level);
  }

  /**
   * Deletes the channel, confirmed by its exact name: every platform is disconnected first (connections closed,
   * tokens revoked, Kick subscriptions removed), then the channel row and, by cascade, all its data.
   */
  async deleteConfirmed(channelId: string, confirmName: string, actorUserId: string): Promise<void> {
    const name = await this.displayName(channelId);
    if (confirmName !== name) {
      const message = `Type the channel name "${name}" exactly to confirm.`;
      throw badRequest(message, { name: message });
    }
    await this.deps.disconnectPlatforms(channelId, actorUserId);
    await this.deleteRow(channelId);
  }

  /** One channel by id, or by provider plus provider channel name, among the user's channels. */
  async findForUser(userId: string, q: Omit<ChannelFilters, 'per_page' | 'cursor'>): Promise<Channel> {
    if (!q.channel_id && !(q.provider && q.provider_channel_name)) throw badRequest(CHANNEL_ID_REQUIRED);
    const [found] = (await this.pageForUser(userId, { ...q, per_page: 1 })).rows;
    if (!found) throw notFound('Channel not found');
    return this.getForUser(found.id, userId, found.level);
  }

  /** Registers a hook run in every channel's creation transaction (a failing hook fails the creation). */
  onCreated(hook: ChannelCreatedHook): void {
    this.createdHooks.push(hook);
  }

  async create(userId: string, displayName: string): Promise<Channel> {
    const id = newId();
    await this.db.transaction(async (tx) => {
      await tx.insert(channels).values({ id, displayName });
      await tx.insert(channelUsers).values({ channelId: id, userId, level: AccessLevel.OWNER, addedBy: userId });
      for (const hook of this.createdHooks) await hook(tx, id);
    });
    return this.getForUser(id, userId, AccessLevel.OWNER);
  }

  async rename(channelId: string, displayName: string): Promise<void> {
    const updated = await this.db.update(channels).set({ displayName }).where(eq(channels.id, channelId)).returning({ id: channels.id });
    if (updated.length === 0) throw notFound('Channel not found');
  }

  async displayName(channelId: string): Promise<string> {
    const [row] = await this.db.select({ displayName: channels.displayName }).from(channels).where(eq(channels.id, channelId));
    if (!row) throw notFound('Channel not found');
    return row.displayName;
  }

  /** Deletes the channel row; staff, invitations, chat log, activity and audit log go with it (cascade). Its open sockets close. */
  async deleteRow(channelId: string): Promise<void> {
    await this.db.delete(channels).where(eq(channels.id, channelId));
    this.deps.access?.channelDeleted(channelId);
  }

  async getForUser(channelId: string, _userId: string, level: number): Promise<Channel> {
    const [row] = await this.db.select().from(channels).where(eq(channels.id, channelId));
    if (!row) throw notFound('Channel not found');
    const summaries = await this.providerSummaries([channelId]);
    return {
      id: row.id,
      display_name: row.displayName,
      created_at: row.createdAt.toISOString(),
      access_level: level as AccessLevelValue,
      providers: summaries.get(channelId) ?? [],
      editors_post_as_streamer: row.editorsPostAsStreamer,
    };
  }

  /**
   * Whether Editors may post in chat as the streamer: only the Owner changes it (audited when it changes); answers
   * the channel as the caller sees it.
   */
  async setEditorsPostAsStreamerAs(channelId: string, allowed: boolean, actor: { userId: string; level: number }): Promise<Channel> {
    const [before] = await this.db.select({ value: channels.editorsPostAsStreamer }).from(channels).where(eq(channels.id, channelId));
    if (!before) throw notFound('Channel not found');
    if (before.value !== allowed) {
      await this.db.update(channels).set({ editorsPostAsStreamer: allowed }).where(eq(channels.id, channelId));
      await this.deps.audit.record({
        channelId,
        actorUserId: actor.userId,
        action: 'channel.chat_settings_changed',
        data: { editors_post_as_streamer: allowed },
      });
    }
    return this.getForUser(channelId, actor.userId, actor.level);
  }

  /**
   * Channels the user is staff of, by name, filtered by name, channel id, or provider plus provider channel name.
   * One index range walk per page (channel_users by user, name, channel), so a page costs the same for a user of
   * one channel or of all of them; `total` only on the first page (see `firstPageTotal`).
   */
  async listForUser(userId: string, f: ChannelFilters): Promise<Paginated<Channel>> {
    const { rows, cursor } = await this.pageForUser(userId, f);
    const summaries = await this.providerSummaries(rows.map((r) => r.id));
    const filtered = Boolean(f.name || f.channel_id || f.provider || f.provider_channel_name);
    const total = await this.firstPageTotal(f.cursor, rows.length, cursor, filtered, (limit) =>
      this.db
        .select({ one: sql`1`.as('one') })
        .from(channelUsers)
        .where(eq(channelUsers.userId, userId))
        .orderBy(channelUsers.sortName, channelUsers.channelId)
        .limit(limit)
        .as('capped'),
    );
    return {
      records: rows.map((r) => ({
        id: r.id,
        display_name: r.displayName,
        created_at: r.createdAt.toISOString(),
        access_level: r.level as AccessLevelValue,
        providers: summaries.get(r.id) ?? [],
        editors_post_as_streamer: r.editorsPostAsStreamer,
      })),
      cursor,
      ...(total === undefined ? {} : { total }),
    };
  }

  private async pageForUser(userId: string, f: ChannelFilters) {
    const where: SQL[] = [eq(channelUsers.userId, userId)];
    if (f.name) where.push(ilike(channels.displayName, `%${escapeLike(f.name)}%`));
    if (f.channel_id) where.push(eq(channelUsers.channelId, f.channel_id));
    if (f.provider || f.provider_channel_name) {
      const match: SQL[] = [eq(channelProviders.channelId, channelUsers.channelId)];
      if (f.provider) match.push(eq(channelProviders.provider, f.provider));
      if (f.provider_channel_name) match.push(sql`lower(${channelProviders.providerChannelName}) = lower(${f.provider_channel_name})`);
      where.push(sql`exists (select 1 from ${channelProviders} where ${and(...match)})`);
    }
    const after = decodeKeysetCursor(f.cursor, 2);
    if (after) where.push(sql`(${channelUsers.sortName}, ${channelUsers.channelId}) > (${after[0]!.toLowerCase()}, ${after[1]!})`);
    const rows = await this.db
      .select({
        id: channels.id,
        displayName: channels.displayName,
        sortName: channelUsers.sortName,
        createdAt: channels.createdAt,
        level: channelUsers.level,
        editorsPostAsStreamer: channels.editorsPostAsStreamer,
      })
      .from(channelUsers)
      .innerJoin(channels, eq(channels.id, channelUsers.channelId))
      .where(and(...where))
      .orderBy(asc(channelUsers.sortName), asc(channelUsers.channelId))
      .limit(f.per_page + 1);
    return pageOf(rows, f.per_page, (last) => encodeKeysetCursor([last.sortName, last.id]));
  }

  /**
   * The number of records, on a first page only and only when it is cheap: the page's own length when it is also
   * the last page, otherwise (unfiltered lists) a count that stops at TOTAL_COUNT_LIMIT rows, read in the list's index
   * order (a sequential scan could read the whole table before it finds them) — beyond that, and on
   * later pages, `total` is left out (the pages say "All channels …" instead of a number that would cost a scan of
   * every row on every request).
   */
  private async firstPageTotal(
    requestCursor: string | undefined,
    pageLength: number,
    nextCursor: string | null,
    filtered: boolean,
    everyRow: (limit: number) => Subquery,
  ): Promise<number | undefined> {
    if (requestCursor) return undefined;
    if (nextCursor === null) return pageLength;
    if (filtered) return undefined;
    const [row] = await this.db.select({ n: sql<number>`count(*)::int` }).from(everyRow(TOTAL_COUNT_LIMIT + 1));
    const n = Number(row?.n ?? 0);
    return n <= TOTAL_COUNT_LIMIT ? n : undefined;
  }

  /**
   * Every channel, newest first (operators' admin area), filtered by name (trigram index). One statement: the page
   * (`LIMIT` in a subquery, so only its rows are looked at further), each row's Owner and platform connections (the
   * columns the list shows, not whole rows with their encrypted tokens and settings) as JSON, and on an unfiltered
   * first page the count that stops at TOTAL_COUNT_LIMIT + 1 rows (an InitPlan, run once) — as `firstPageTotal`
   * answers it, without a statement of its own.
   */
  async listAll(f: { name?: string; cursor?: string; per_page: number }): Promise<Paginated<AdminChannel>> {
    const where: SQL[] = [];
    if (f.name) where.push(ilike(channels.displayName, `%${escapeLike(f.name)}%`));
    const after = decodeKeysetCursor(f.cursor, 1);
    if (after) where.push(lt(channels.id, after[0]!));
    const page = this.db
      .select({ id: channels.id, displayName: channels.displayName, createdAt: channels.createdAt })
      .from(channels)
      .where(where.length ? and(...where) : undefined)
      .orderBy(desc(channels.id))
      .limit(f.per_page + 1)
      .as('page');
    const counted = !f.cursor && !f.name;
    const rows = await this.db
      .select({
        id: page.id,
        displayName: page.displayName,
        createdAt: page.createdAt,
        // Written out with aliases: drizzle leaves a lone table's columns unqualified, and `id` would mean the inner one.
        owner: sql<AdminChannel['owner']>`(
          select json_build_object('id', u.id, 'display_name', u.display_name)
          from ${channelUsers} cu join ${users} u on u.id = cu.user_id
          where cu.channel_id = page.id and cu.level = ${sql.raw(String(AccessLevel.OWNER))}
          limit 1)`,
        providers: sql<{ provider: string; provider_channel_name: string; scope_needed: boolean; is_live: boolean }[]>`(
          select coalesce(json_agg(json_build_object('provider', p.provider, 'provider_channel_name', p.provider_channel_name,
            'scope_needed', p.scope_needed, 'is_live', p.is_live) order by p.created_at, p.provider), '[]'::json)
          from ${channelProviders} p where p.channel_id = page.id)`,
        capped: counted ? cappedChannelCount : sql<null>`null::int`,
      })
      .from(page)
      .orderBy(desc(page.id));
    const { rows: records, cursor } = pageOf(rows, f.per_page, (last) => encodeKeysetCursor([last.id]));
    // As firstPageTotal: on a first page only, its own length when it is also the last, else the capped count (unfiltered).
    let total: number | undefined;
    const capped = rows[0]?.capped;
    if (!f.cursor) total = cursor === null ? records.length : capped != null && capped <= TOTAL_COUNT_LIMIT ? capped : undefined;
    return {
      records: records.map((c) => ({
        id: c.id,
        display_name: c.displayName,
        created_at: c.createdAt.toISOString(),
        owner: c.owner,
        providers: c.providers.map((p) => ({
          provider: channelProviderIdSchema.parse(p.provider),
          provider_channel_name: p.provider_channel_name,
          scope_needed: p.scope_needed,
          is_live: p.is_live,
        })),
      })),
      cursor,
      ...(total === undefined ? {} : { total }),
    };
  }

  private async providerSummaries(channelIds: string[]) {
    const map = new Map<string, Channel['providers']>();
    if (channelIds.length === 0) return map;
    const rows = await this.db
      .select({ channelId: channelProviders.channelId, provider: channelProviders.provider, name: channelProviders.providerChannelName })
      .from(channelProviders)
      .where(inArray(channelProviders.channelId, channelIds))
      .orderBy(channelProviders.createdAt);
    for (const r of rows) {
      if (!(r.provider in providers)) continue;
      const list = map.get(r.channelId) ?? [];
      list.push({ provider: channelProviderIdSchema.parse(r.provider), provider_channel_name: r.name });
      map.set(r.channelId, list);
    }
    return map;
  }
}
