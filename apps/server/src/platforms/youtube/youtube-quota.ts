/**
 * YouTube Data API quota, counted the way Google charges it: units per call by method, per project (the OAuth
 * client id), per day in Pacific time (the quota resets at midnight America/Los_Angeles). Every request is charged,
 * failed ones too. The count is kept in the database so a restart does not forget the day's spending; a
 * `quotaExceeded` answer marks the day exhausted whatever the count says (another deployment of the same
 * project may have spent it).
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { youtubeQuota } from '../../db/schema';

/** Units per call (developers.google.com/youtube/v3/determine_quota_cost and each live method's page). */
export const youtubeQuotaCosts = {
  'channels.list': 1,
  'liveBroadcasts.list': 1,
  'videos.list': 1,
  'videos.update': 50,
  'videoCategories.list': 1,
  'liveChatMessages.list': 5,
  /** One gRPC streamList call, however long it streams. */
  'liveChatMessages.streamList': 5,
  'liveChatMessages.insert': 20,
  'liveChatMessages.delete': 50,
  'liveChatBans.insert': 50,
  'liveChatBans.delete': 50,
} as const;
export type YoutubeMethod = keyof typeof youtubeQuotaCosts;

/** A project's default daily quota. */
export const YOUTUBE_DEFAULT_DAILY_QUOTA = 10_000;

const pacific = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/Los_Angeles',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  hourCycle: 'h23',
});

function pacificParts(at: Date): { day: string; hour: number } {
  const parts = Object.fromEntries(pacific.formatToParts(at).map((p) => [p.type, p.value]));
  return { day: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour) };
}

/** The quota day (YYYY-MM-DD in Pacific time) of an instant. */
export function quotaDay(at: Date): string {
  return pacificParts(at).day;
}

/** The instant the quota day of `at` ends: the next midnight in Pacific time (PST is UTC-8, PDT UTC-7). */
export function quotaResetsAt(at: Date): Date {
  const [y, m, d] = quotaDay(at).split('-').map(Number) as [number, number, number];
  // 08:00 UTC next day is midnight PST, or 01:00 PDT (midnight PDT is then 07:00 UTC).
  const guess = new Date(Date.UTC(y, m - 1, d + 1, 8));
  return pacificParts(guess).hour === 0 ? guess : new Date(guess.getTime() - 3_600_000);
}

export interface YoutubeQuotaUsage {
  /** The quota day, YYYY-MM-DD in Pacific time. */
  day: string;
  used: number;
  limit: number;
  /** YouTube refused a call for quota today (or the count reached the limit). */
  exhausted: boolean;
  resetsAt: string;
}

export interface YoutubeQuotaOptions {
  db: Db;
  /** The project's OAuth client id. */
  project: string;
  limit?: number;
  now?: () => Date;
  onError?: (error: unknown) => void;
}

export class YoutubeQuotaMeter {
  readonly limit: number;
  private readonly now: () => Date;
  /** Writes in flight (tests and shutdown wait for them). */
  private pending = new Set<Promise<void>>();

  constructor(private readonly options: YoutubeQuotaOptions) {
    this.limit = options.limit ?? YOUTUBE_DEFAULT_DAILY_QUOTA;
    this.now = options.now ?? (() => new Date());
  }

  /** Charges one call of `method` to today's count. */
  spend(method: YoutubeMethod): void {
    this.write(youtubeQuotaCosts[method], false);
  }

  /** YouTube answered quotaExceeded: today is used up. */
  exhausted(): void {
    this.write(0, true);
  }

  async usage(): Promise<YoutubeQuotaUsage> {
    await this.settled();
    const at = this.now();
    const day = quotaDay(at);
    const [row] = await this.options.db
      .select({ units: youtubeQuota.units, exhaustedAt: youtubeQuota.exhaustedAt })
      .from(youtubeQuota)
      .where(and(eq(youtubeQuota.project, this.options.project), eq(youtubeQuota.day, day)));
    const used = row?.units ?? 0;
    return {
      day,
      used,
      limit: this.limit,
      exhausted: row?.exhaustedAt != null || used >= this.limit,
      resetsAt: quotaResetsAt(at).toISOString(),
    };
  }

  /** Resolves when every charge made so far is stored. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  private write(units: number, exhausted: boolean): void {
    const at = this.now();
    const row = { project: this.options.project, day: quotaDay(at), units, exhaustedAt: exhausted ? at : null };
    const set = exhausted
      ? { exhaustedAt: sql`coalesce(${youtubeQuota.exhaustedAt}, excluded.exhausted_at)` }
      : { units: sql`${youtubeQuota.units} + excluded.units` };
    const done = this.options.db
      .insert(youtubeQuota)
      .values(row)
      .onConflictDoUpdate({ target: [youtubeQuota.project, youtubeQuota.day], set })
      .then(
        () => undefined,
        (error: unknown) => this.options.onError?.(error),
      )
      .finally(() => this.pending.delete(done));
    this.pending.add(done);
  }
}
