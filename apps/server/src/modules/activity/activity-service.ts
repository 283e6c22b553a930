/**
 * The persisted activity feed: newest first by when it happened on the platform (ties in arrival order), with a
 * cursor of both — ordered by time, a late delivery (a webhook retried a minute later) lands where it belongs
 * instead of above newer events — or, with `after`, what was stored after a position (a `seq`), in arrival order
 * (a reconnect's catch-up); type/platform filters, replay.
 */
import { and, asc, eq, gt, inArray, sql, type SQL } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import { activityTypeSchema, type Activity } from '@greenroom/contracts/api/events';
import { channelProviderIdSchema } from '@greenroom/contracts/providers';
import type { Db } from '../../db/client';
import { activities } from '../../db/schema';
import { badRequest, notFound } from '../../lib/errors';
import { INVALID_CURSOR, pageOf, parseSeqCursor } from '../../lib/pagination';
import { activityFromRow } from '../chat';

/** The feed's order (the index's, activities_channel_occurred and activities_channel_type_occurred). */
const NEWEST_FIRST = [sql`${activities.occurredAt} desc nulls last`, sql`${activities.seq} desc nulls last`];

/** Parses a comma-separated filter against an enum; an unknown value is a 400 naming it. */
function csv<T extends string>(
  value: string | undefined,
  schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } },
  what: string,
): T[] | null {
  if (!value) return null;
  const out: T[] = [];
  for (const part of value.split(',')) {
    const v = part.trim();
    if (!v) continue;
    const parsed = schema.safeParse(v);
    if (!parsed.success) throw badRequest(`Unknown ${what} "${v}"`);
    out.push(parsed.data);
  }
  return out.length ? out : null;
}

/** `{occurred_at ms}.{seq}` of the last record of a page. */
function parseActivityCursor(value: string | undefined): { at: Date; seq: number } | null {
  if (value === undefined || value === '') return null;
  const m = /^(\d{1,15})\.(\d{1,18})$/.exec(value);
  if (!m) throw badRequest(INVALID_CURSOR);
  return { at: new Date(Number(m[1])), seq: Number(m[2]) };
}

/** Sends a stored activity to the channel's alert widgets again, as a new alert (the widgets module). */
export type ActivityReplayer = (channelId: string, activity: Activity) => Promise<void>;

export class ActivityService {
  constructor(
    private readonly db: Db,
    private readonly replayer: ActivityReplayer,
  ) {}

  async list(
    channelId: string,
    q: { cursor?: string; after?: string; per_page: number; types?: string; providers?: string },
  ): Promise<{ records: Activity[]; cursor: string | null; head: string | null }> {
    const where: SQL[] = [eq(activities.channelId, channelId)];
    const cursor = parseActivityCursor(q.cursor);
    const after = parseSeqCursor(q.after);
    if (cursor !== null && after !== null) throw badRequest('Use either cursor or after, not both');
    // A row comparison: the index (channel, occurred_at desc, seq desc) starts right after the cursor, however deep.
    if (cursor !== null)
      where.push(sql`(${activities.occurredAt}, ${activities.seq}) < (${cursor.at.toISOString()}::timestamptz, ${cursor.seq})`);
    if (after !== null) where.push(gt(activities.seq, after));
    const types = csv(q.types, activityTypeSchema, 'activity type');
    const providers = csv(q.providers, channelProviderIdSchema, 'platform');
    if (providers) where.push(inArray(activities.provider, providers));
    const limit = q.per_page + 1;
    let rows: (typeof activities.$inferSelect)[];
    if (after !== null) {
      // A catch-up: what was stored after a position, in arrival order (a short range of the channel's seq).
      if (types) where.push(inArray(activities.type, types));
      rows = await this.db
        .select()
        .from(activities)
        .where(and(...where))
        .orderBy(asc(activities.seq))
        .limit(limit);
    } else if (!types) {
      // NULLS LAST as in the index (activities_channel_occurred): a plain DESC means NULLS FIRST, which that index
      // cannot give, and the planner would sort the channel's whole feed for every page.
      rows = await this.db
        .select()
        .from(activities)
        .where(and(...where))
        .orderBy(...NEWEST_FIRST)
        .limit(limit);
    } else {
      // By type: one range walk of activities_channel_type_occurred per type asked for, at most a page each, merged
      // in order — a rare type in a busy feed reads its own rows, not the channel's feed until a page is found.
      const walk = (type: string) =>
        this.db
          .select()
          .from(activities)
          .where(and(...where, eq(activities.type, type)))
          .orderBy(...NEWEST_FIRST)
          .limit(limit);
      const [first, second, ...rest] = [...new Set(types)].map(walk);
      rows = second
        ? await unionAll(first!, second, ...rest)
            .orderBy(sql`"occurred_at" desc nulls last`, sql`"seq" desc nulls last`)
            .limit(limit)
        : await first!;
    }
    const page =
      after !== null
        ? pageOf(rows, q.per_page, (last) => String(last.seq))
        : pageOf(rows, q.per_page, (last) => `${last.occurredAt.getTime()}.${last.seq}`);
    // The catch-up position: the last stored record seen (by arrival, whatever the display order).
    const newest = page.rows.reduce<number | null>((max, row) => (max === null || row.seq > max ? row.seq : max), null);
    return {
      records: page.rows.map(activityFromRow),
      cursor: page.cursor,
      head: newest !== null ? String(newest) : after !== null ? String(after) : null,
    };
  }

  /** Re-sends a persisted activity to the alert widgets. */
  async replay(channelId: string, activityId: string): Promise<Activity> {
    const [row] = await this.db
      .select()
      .from(activities)
      .where(and(eq(activities.channelId, channelId), eq(activities.id, activityId)))
      .limit(1);
    if (!row) throw notFound('Activity not found');
    const data = activityFromRow(row);
    await this.replayer(channelId, data);
    return data;
  }
}
