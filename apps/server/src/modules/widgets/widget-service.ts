/**
 * Stream widgets of a channel: CRUD, the secret URL (rotate, copy again), test events, and what a widget page
 * may read (its settings and the state it starts from: a goal's count, the latest events or chat lines).
 */
import { and, asc, desc, eq, gt, gte, inArray, lt, sql } from 'drizzle-orm';
import type { PublicChatMessage } from '@greenroom/contracts/api/chat';
import type { Activity } from '@greenroom/contracts/api/events';
import type { Giveaway } from '@greenroom/contracts/api/giveaways';
import type { NowPlaying } from '@greenroom/contracts/api/spotify';
import type { Queue, QueueDetail } from '@greenroom/contracts/api/queues';
import {
  alertTypes,
  defaultWidgetSettings,
  widgetTypeLabels,
  type AlertType,
  type GoalSettings,
  type PublicWidget,
  type Widget,
  type WidgetEvent,
  type WidgetType,
  type WidgetUpdateBody,
  pointsGoalKinds,
  WIDGET_REPLAY_SECONDS,
} from '@greenroom/contracts/api/widgets';
import { channelTopic } from '@greenroom/contracts/bus';
import type { Db } from '../../db/client';
import { activities, pointLedger, widgetAlerts, widgets } from '../../db/schema';
import { randomToken, sha256, type TokenCipher } from '../../lib/crypto';
import { badRequest, notFound } from '../../lib/errors';
import type { EventBus } from '../../lib/event-bus';
import { newId } from '../../lib/ids';
import { activityFromRow, type ChatQueries } from '../chat';
import { publicGiveaway, publicQueue, shownGiveaway, shownQueue } from './public-views';
import { toWidgetEvent, type WidgetHub } from './widget-hub';

type Row = typeof widgets.$inferSelect;

/** The giveaways and queues widgets show (the loyalty modules' services). */
export interface WidgetLoyaltySource {
  /** The channel's giveaways, newest first (a few). */
  giveaways(channelId: string): Promise<Giveaway[]>;
  queues(channelId: string): Promise<Queue[]>;
  queueDetail(channelId: string, queueId: string): Promise<QueueDetail>;
}

/** What the channel's Spotify plays (the Spotify module's now-playing service: cached, never throws). */
export interface WidgetSpotifySource {
  nowPlaying(channelId: string): Promise<NowPlaying>;
}

/** A widget as the public page knows it (found by its token). */
export interface PublicWidgetRef {
  id: string;
  channelId: string;
  type: WidgetType;
}

const WIDGETS_PER_CHANNEL_MAX = 100;
/** Alerts a reconnecting page is given at most (of each source: stored alerts and platform activities). */
const MISSED_MAX = 200;
/** Clocks of instances and platforms differ a little: a page's resume time reaches back this much more. */
const RESUME_SLACK_MS = 5_000;
/** Stored test and replayed alerts older than this are removed (pages only ask for the last minute). */
const STORED_ALERTS_KEEP_MS = 10 * 60_000;

/** Activity types each automatic goal counts (`goalIncrement` in contracts says by how much). */
const goalTypes: Record<'follows' | 'subs', AlertType[]> = {
  follows: ['follow'],
  subs: ['sub', 'resub', 'membership', 'gift', 'membership_gift'],
};

/** Sample values of a test event per type. */
const testSamples: Record<AlertType, Pick<Activity, 'tier' | 'months' | 'count' | 'amount' | 'message'>> = {
  follow: { tier: null, months: null, count: null, amount: null, message: null },
  sub: { tier: '1000', months: 1, count: null, amount: null, message: null },
  resub: { tier: '1000', months: 7, count: null, amount: null, message: 'Seven months already!' },
  gift: { tier: '1000', months: null, count: 5, amount: null, message: null },
  raid: { tier: null, months: null, count: 42, amount: null, message: null },
  cheer: { tier: null, months: null, count: 500, amount: '500 bits', message: 'Great stream!' },
  superchat: { tier: null, months: null, count: null, amount: '$10.00', message: 'Love the content' },
  supersticker: { tier: null, months: null, count: null, amount: '$2.00', message: null },
  membership: { tier: 'Member', months: 1, count: null, amount: null, message: null },
  membership_gift: { tier: 'Member', months: null, count: 3, amount: null, message: null },
  kicks: { tier: null, months: null, count: 100, amount: '100 Kicks', message: 'Here you go' },
  tiktok_gift: { tier: null, months: null, count: 99, amount: '99 diamonds', message: 'Rose' },
};
const testProvider: Record<AlertType, Activity['provider']> = {
  follow: 'twitch',
  sub: 'twitch',
  resub: 'twitch',
  gift: 'twitch',
  raid: 'twitch',
  cheer: 'twitch',
  superchat: 'youtube',
  supersticker: 'youtube',
  membership: 'youtube',
  membership_gift: 'youtube',
  kicks: 'kick',
  tiktok_gift: 'tiktok',
};

function toWidget(row: Row, token: string): Widget {
  return {
    id: row.id,
    channel_id: row.channelId,
    type: row.type as WidgetType,
    name: row.name,
    settings: row.settings,
    token,
    counted_since: row.countedSince.toISOString(),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** Settings saved by an older version gain the fields added since (defaults), so pages never see a missing field. */
function withDefaults(type: WidgetType, settings: Record<string, unknown>): Record<string, unknown> {
  const defaults = defaultWidgetSettings(type) as Record<string, unknown>;
  const merged = { ...defaults, ...settings };
  if (type === 'alerts') {
    const saved = (settings.alerts ?? {}) as Record<string, unknown>;
    const base = defaults.alerts as Record<string, unknown>;
    merged.alerts = Object.fromEntries(alertTypes.map((t) => [t, { ...(base[t] as object), ...((saved[t] as object | undefined) ?? {}) }]));
  }
  return merged;
}

export class WidgetService {
  constructor(
    private readonly deps: {
      db: Db;
      cipher: TokenCipher;
      bus: EventBus;
      hub: WidgetHub;
      chat: Pick<ChatQueries, 'publicRecent'>;
      loyalty: WidgetLoyaltySource;
      spotify: WidgetSpotifySource;
    },
  ) {}

  private widgetOf(row: Row): Widget {
    return { ...toWidget(row, this.deps.cipher.decrypt(row.tokenEnc)), settings: withDefaults(row.type as WidgetType, row.settings) };
  }

  private async row(channelId: string, widgetId: string): Promise<Row> {
    const [row] = await this.deps.db
      .select()
      .from(widgets)
      .where(and(eq(widgets.channelId, channelId), eq(widgets.id, widgetId)))
      .limit(1);
    if (!row) throw notFound('Widget not found');
    return row;
  }

  private newToken(): { token: string; tokenHash: string; tokenEnc: string } {
    const token = randomToken(32);
    return { token, tokenHash: sha256(token), tokenEnc: this.deps.cipher.encrypt(token) };
  }

  async list(channelId: string): Promise<Widget[]> {
    const rows = await this.deps.db.select().from(widgets).where(eq(widgets.channelId, channelId)).orderBy(asc(widgets.createdAt));
    return rows.map((r) => this.widgetOf(r));
  }

  async get(channelId: string, widgetId: string): Promise<Widget> {
    return this.widgetOf(await this.row(channelId, widgetId));
  }

  async create(channelId: string, body: { type: WidgetType; name?: string | undefined }): Promise<Widget> {
    return this.insert(channelId, body.type, body.name ?? widgetTypeLabels[body.type], defaultWidgetSettings(body.type));
  }

  private async insert(channelId: string, type: WidgetType, name: string, settings: Record<string, unknown>): Promise<Widget> {
    const [{ n } = { n: 0 }] = await this.deps.db
      .select({ n: sql<number>`count(*)::int` })
      .from(widgets)
      .where(eq(widgets.channelId, channelId));
    if (n >= WIDGETS_PER_CHANNEL_MAX) throw badRequest(`A channel has at most ${WIDGETS_PER_CHANNEL_MAX} widgets`);
    const { tokenHash, tokenEnc } = this.newToken();
    const [row] = await this.deps.db
      .insert(widgets)
      .values({ id: newId(), channelId, type, name, settings, tokenHash, tokenEnc })
      .returning();
    return this.widgetOf(row!);
  }

  async update(channelId: string, widgetId: string, body: WidgetUpdateBody & { settings: object }): Promise<Widget> {
    const current = await this.row(channelId, widgetId);
    if (body.type !== current.type) throw badRequest('The type of a widget cannot change', { type: 'The type of a widget cannot change' });
    const [row] = await this.deps.db
      .update(widgets)
      .set({ name: body.name, settings: body.settings, updatedAt: new Date() })
      .where(and(eq(widgets.channelId, channelId), eq(widgets.id, widgetId)))
      .returning();
    if (!row) throw notFound('Widget not found');
    const widget = this.widgetOf(row);
    // Open pages follow the new settings at once (an OBS source is not reloaded by hand).
    this.deps.hub.sendToWidget(channelId, widgetId, { type: 'settings', data: widget.settings });
    if (widget.type === 'goal') await this.pushGoal(channelId, row);
    return widget;
  }

  async remove(channelId: string, widgetId: string): Promise<void> {
    const deleted = await this.deps.db
      .delete(widgets)
      .where(and(eq(widgets.channelId, channelId), eq(widgets.id, widgetId)))
      .returning({ id: widgets.id });
    if (deleted.length === 0) throw notFound('Widget not found');
    this.deps.hub.closeWidget(channelId, widgetId);
  }

  async duplicate(channelId: string, widgetId: string): Promise<Widget> {
    const row = await this.row(channelId, widgetId);
    const name = `${row.name} (copy)`.slice(0, 60);
    return this.insert(channelId, row.type as WidgetType, name, row.settings);
  }

  /** A new secret URL; pages open on the old one are closed and it stops working at once. */
  async rotateUrl(channelId: string, widgetId: string): Promise<Widget> {
    const { tokenHash, tokenEnc } = this.newToken();
    const [row] = await this.deps.db
      .update(widgets)
      .set({ tokenHash, tokenEnc, updatedAt: new Date() })
      .where(and(eq(widgets.channelId, channelId), eq(widgets.id, widgetId)))
      .returning();
    if (!row) throw notFound('Widget not found');
    this.deps.hub.closeWidget(channelId, widgetId);
    return this.widgetOf(row);
  }

  /** A goal counts again from now. */
  async resetGoal(channelId: string, widgetId: string): Promise<Widget> {
    const [row] = await this.deps.db
      .update(widgets)
      .set({ countedSince: new Date(), updatedAt: new Date() })
      .where(and(eq(widgets.channelId, channelId), eq(widgets.id, widgetId), eq(widgets.type, 'goal')))
      .returning();
    if (!row) throw notFound('Goal not found');
    await this.pushGoal(channelId, row);
    return this.widgetOf(row);
  }

  /** Sends a sample event of `type` to every widget page of the channel (alert boxes show it; goals do not count it). */
  async sendTest(channelId: string, widgetId: string, type: AlertType): Promise<WidgetEvent> {
    await this.row(channelId, widgetId);
    const activity: Activity = {
      id: `test:${newId()}`,
      channel_id: channelId,
      channel_provider_id: 'test',
      provider: testProvider[type],
      provider_event_id: 'test',
      type,
      viewer: { provider_user_id: 'test', login: 'greenroomtester', display_name: 'GreenroomTester' },
      ...testSamples[type],
      occurred_at: new Date().toISOString(),
    };
    const event = toWidgetEvent(activity, { test: true });
    await this.recordAlert(channelId, event);
    this.deps.bus.publish(channelTopic(channelId), { type: 'widget.test', data: activity });
    return event;
  }

  /** The activity feed's "Replay": the activity again as a new alert (its own id, stored like a test). */
  async replayActivity(channelId: string, activity: Activity): Promise<void> {
    const replay: Activity = { ...activity, id: `${activity.id}:replay:${newId()}` };
    await this.recordAlert(channelId, toWidgetEvent(replay, { replay: true }));
    this.deps.bus.publish(channelTopic(channelId), { type: 'activity.replay', data: replay });
  }

  /** Stored before it is sent: a page that reconnects (on any instance, after a restart) can still get it. */
  private async recordAlert(channelId: string, event: WidgetEvent): Promise<void> {
    await this.deps.db.insert(widgetAlerts).values({ id: event.id, channelId, event });
    await this.deps.db
      .delete(widgetAlerts)
      .where(and(eq(widgetAlerts.channelId, channelId), lt(widgetAlerts.createdAt, new Date(Date.now() - STORED_ALERTS_KEEP_MS))));
  }

  /**
   * The alerts of the last minute after `since` (a page's last known server time), oldest first: platform activities
   * and the stored tests and replays. A page drops the ids it already has, so reaching back a little is harmless.
   */
  async missedAlerts(channelId: string, since: Date): Promise<WidgetEvent[]> {
    const floor = new Date(Math.max(since.getTime() - RESUME_SLACK_MS, Date.now() - WIDGET_REPLAY_SECONDS * 1000));
    const [stored, live] = await Promise.all([
      this.deps.db
        .select({ event: widgetAlerts.event, at: widgetAlerts.createdAt })
        .from(widgetAlerts)
        .where(and(eq(widgetAlerts.channelId, channelId), gt(widgetAlerts.createdAt, floor)))
        .orderBy(asc(widgetAlerts.createdAt))
        .limit(MISSED_MAX),
      this.deps.db
        .select()
        .from(activities)
        .where(and(eq(activities.channelId, channelId), inArray(activities.type, [...alertTypes]), gt(activities.occurredAt, floor)))
        .orderBy(desc(activities.seq))
        .limit(MISSED_MAX),
    ]);
    const all = [
      ...stored.map((r) => ({ at: r.at.getTime(), event: r.event as unknown as WidgetEvent })),
      ...live.reverse().map((r) => ({ at: r.occurredAt.getTime(), event: toWidgetEvent(activityFromRow(r)) })),
    ];
    return all.sort((a, b) => a.at - b.at).map((a) => a.event);
  }

  /** The widget of a public URL token, or null (unknown or rotated). */
  async byToken(token: string): Promise<PublicWidgetRef | null> {
    if (token.length < 20 || token.length > 100) return null;
    const [row] = await this.deps.db
      .select({ id: widgets.id, channelId: widgets.channelId, type: widgets.type })
      .from(widgets)
      .where(eq(widgets.tokenHash, sha256(token)))
      .limit(1);
    return row ? { id: row.id, channelId: row.channelId, type: row.type as WidgetType } : null;
  }

  /** Whether the widget still exists under this token (checked by open sockets). */
  async stillValid(ref: PublicWidgetRef, token: string): Promise<boolean> {
    return (await this.byToken(token))?.id === ref.id;
  }

  /** What a widget page starts from: its settings and, per type, the goal's count, the latest events or chat lines. */
  async publicState(token: string): Promise<PublicWidget> {
    const [row] = await this.deps.db
      .select()
      .from(widgets)
      .where(eq(widgets.tokenHash, sha256(token)))
      .limit(1);
    if (!row || token.length > 100) throw notFound('Widget not found');
    const type = row.type as WidgetType;
    const settings = withDefaults(type, row.settings);
    let goalCurrent: number | null = null;
    let events: WidgetEvent[] = [];
    let messages: PublicChatMessage[] = [];
    if (type === 'goal') goalCurrent = await this.goalCurrent(row);
    if (type === 'events') {
      const shown = (settings.types as AlertType[] | undefined) ?? [];
      const rows = shown.length
        ? await this.deps.db
            .select()
            .from(activities)
            .where(and(eq(activities.channelId, row.channelId), inArray(activities.type, shown)))
            .orderBy(desc(activities.seq))
            .limit(Number(settings.max_events) || 8)
        : [];
      events = rows.map((r) => toWidgetEvent(activityFromRow(r)));
    }
    if (type === 'chat' || type === 'emotes') messages = (await this.deps.chat.publicRecent(row.channelId, null, { limit: 50 })).records;
    const giveaway = type === 'giveaway' ? shownGiveaway(await this.deps.loyalty.giveaways(row.channelId)) : null;
    const queue = type === 'queue' ? shownQueue(await this.deps.loyalty.queues(row.channelId)) : null;
    return {
      type,
      settings,
      goal_current: goalCurrent,
      events,
      // An emote wall starts empty: only what is used from now on flies.
      messages: type === 'emotes' ? [] : messages,
      giveaway: giveaway ? publicGiveaway(giveaway) : null,
      queue: queue ? publicQueue(await this.deps.loyalty.queueDetail(row.channelId, queue.id)) : null,
      now_playing: type === 'spotify' ? await this.deps.spotify.nowPlaying(row.channelId) : null,
      server_time: new Date().toISOString(),
    };
  }

  private async goalCurrent(row: Row): Promise<number> {
    const settings = withDefaults('goal', row.settings) as unknown as GoalSettings;
    if (settings.kind === 'custom') return settings.start_value;
    if (settings.kind === 'points') {
      // Points viewers earned since the goal started (the points ledger, read only).
      const [earned] = await this.deps.db
        .select({ n: sql<number>`coalesce(sum(${pointLedger.delta}), 0)::bigint` })
        .from(pointLedger)
        .where(
          and(
            eq(pointLedger.channelId, row.channelId),
            gt(pointLedger.delta, 0),
            inArray(pointLedger.kind, [...pointsGoalKinds]),
            gte(pointLedger.createdAt, row.countedSince),
          ),
        );
      return settings.start_value + Number(earned?.n ?? 0);
    }
    const types = goalTypes[settings.kind];
    const [result] = await this.deps.db
      .select({
        n: sql<number>`coalesce(sum(case when ${activities.type} in ('gift', 'membership_gift') then greatest(coalesce(${activities.count}, 1), 1) else 1 end), 0)::int`,
      })
      .from(activities)
      .where(and(eq(activities.channelId, row.channelId), inArray(activities.type, types), gte(activities.occurredAt, row.countedSince)));
    return settings.start_value + (result?.n ?? 0);
  }

  private async pushGoal(channelId: string, row: Row): Promise<void> {
    this.deps.hub.sendToWidget(channelId, row.id, { type: 'goal.current', data: { current: await this.goalCurrent(row) } });
  }
}
