/**
 * Stats are rolled up as chat and events arrive, never computed from the chat log per page load.
 *
 *  - `rollup()` reads the rows the chat log gained since its cursors (chat messages, activities, moderation
 *    events, by their commit-ordered `seq`) and adds them to the per-minute rows (`stats_minutes`) and the per-day
 *    chatter rows (`stats_chatters`); the cursors move in the same transaction, so every row counts exactly once,
 *    across restarts and with several instances (the cursor rows are locked while one instance works).
 *  - `sample()` writes each live connection's viewer count into its minute, opens a stream row when a connection
 *    goes live and closes it when it is seen offline (`stats_streams`, the dashboard's uptime), keeping its peak.
 *
 * `StatsJobs` runs both on timers; `sample()` also runs shortly after a connection's live state changes.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { newId } from '../../lib/ids';

/** Rows read from one chat-log table per transaction (a backlog after downtime is caught up in steps). */
const ROLLUP_BATCH = 20_000;

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

const sources = ['chat_messages', 'activities', 'moderation_events'] as const;
type Source = (typeof sources)[number];

/** Activity types counted as new subscribers (gifts count each gifted sub). */
const SUB_TYPES = ['sub', 'resub', 'gift', 'membership', 'membership_gift'];

export class StatsRollup {
  constructor(private readonly db: Db) {}

  /** Adds what the chat log gained since the cursors; returns how many source rows were read. */
  async rollup(): Promise<number> {
    await this.db.execute(
      sql`INSERT INTO stats_cursors (source, seq) VALUES ('chat_messages', 0), ('activities', 0), ('moderation_events', 0) ON CONFLICT DO NOTHING`,
    );
    let total = 0;
    for (;;) {
      const read = await this.db.transaction(async (tx) => {
        let n = 0;
        for (const source of sources) n += await this.rollupSource(tx, source);
        return n;
      });
      total += read;
      if (read < ROLLUP_BATCH) return total;
    }
  }

  private async rollupSource(tx: Tx, source: Source): Promise<number> {
    const cursor = rowsOf<{ seq: string | number }>(
      await tx.execute(sql`SELECT seq FROM stats_cursors WHERE source = ${source} FOR UPDATE`),
    )[0];
    const from = Number(cursor?.seq ?? 0);
    const table = sql.identifier(source);
    const hiRow = rowsOf<{ hi: string | number | null; n: string | number }>(
      await tx.execute(
        sql`SELECT max(seq) AS hi, count(*) AS n FROM (SELECT seq FROM ${table} WHERE seq > ${from} ORDER BY seq LIMIT ${ROLLUP_BATCH}) t`,
      ),
    )[0];
    if (!hiRow || hiRow.hi === null) return 0;
    const to = Number(hiRow.hi);
    const range = sql`seq > ${from} AND seq <= ${to}`;
    if (source === 'chat_messages') {
      await tx.execute(sql`
        INSERT INTO stats_minutes (channel_id, channel_provider_id, provider, minute, messages)
        SELECT channel_id, channel_provider_id, provider, date_trunc('minute', received_at), count(*)
        FROM chat_messages WHERE ${range} AND NOT author_is_self GROUP BY 1, 2, 3, 4
        ON CONFLICT (channel_id, channel_provider_id, minute) DO UPDATE SET messages = stats_minutes.messages + excluded.messages`);
      await tx.execute(sql`
        INSERT INTO stats_chatters (channel_id, day, provider, author_id, author_name, messages)
        SELECT channel_id, (received_at AT TIME ZONE 'UTC')::date, provider, author_id, max(author_name), count(*)
        FROM chat_messages WHERE ${range} AND NOT author_is_self GROUP BY 1, 2, 3, 4
        ON CONFLICT (channel_id, day, provider, author_id)
        DO UPDATE SET messages = stats_chatters.messages + excluded.messages, author_name = excluded.author_name`);
    } else if (source === 'activities') {
      const subTypes = sql.join(
        SUB_TYPES.map((t) => sql`${t}`),
        sql`, `,
      );
      await tx.execute(sql`
        INSERT INTO stats_minutes (channel_id, channel_provider_id, provider, minute, follows, subs)
        SELECT channel_id, channel_provider_id, provider, date_trunc('minute', occurred_at),
          count(*) FILTER (WHERE type = 'follow'),
          coalesce(sum(CASE WHEN type IN ('gift', 'membership_gift') THEN greatest(coalesce(count, 1), 1) ELSE 1 END)
            FILTER (WHERE type IN (${subTypes})), 0)
        FROM activities WHERE ${range} AND type IN ('follow', ${subTypes}) GROUP BY 1, 2, 3, 4
        ON CONFLICT (channel_id, channel_provider_id, minute)
        DO UPDATE SET follows = stats_minutes.follows + excluded.follows, subs = stats_minutes.subs + excluded.subs`);
    } else {
      await tx.execute(sql`
        INSERT INTO stats_minutes (channel_id, channel_provider_id, provider, minute, moderation)
        SELECT channel_id, channel_provider_id, provider, date_trunc('minute', occurred_at), count(*)
        FROM moderation_events WHERE ${range} AND kind <> 'clear' GROUP BY 1, 2, 3, 4
        ON CONFLICT (channel_id, channel_provider_id, minute) DO UPDATE SET moderation = stats_minutes.moderation + excluded.moderation`);
    }
    await tx.execute(sql`UPDATE stats_cursors SET seq = ${to} WHERE source = ${source}`);
    return Number(hiRow.n);
  }

  /** Viewer samples of the live connections, and stream rows opened, kept at their peak, and closed. */
  async sample(now: Date = new Date()): Promise<void> {
    await this.db.transaction(async (tx) => {
      const live = rowsOf<{ id: string; channel_id: string; provider: string; viewer_count: number | null }>(
        await tx.execute(sql`SELECT id, channel_id, provider, viewer_count FROM channel_providers WHERE is_live`),
      );
      const minute = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
      for (const c of live) {
        if (c.viewer_count !== null) {
          await tx.execute(sql`
            INSERT INTO stats_minutes (channel_id, channel_provider_id, provider, minute, viewers)
            VALUES (${c.channel_id}, ${c.id}, ${c.provider}, ${minute.toISOString()}, ${c.viewer_count})
            ON CONFLICT (channel_id, channel_provider_id, minute) DO UPDATE SET viewers = excluded.viewers`);
        }
        await tx.execute(sql`
          INSERT INTO stats_streams (id, channel_id, channel_provider_id, provider, started_at, peak_viewers)
          VALUES (${newId()}, ${c.channel_id}, ${c.id}, ${c.provider}, ${now.toISOString()}, ${c.viewer_count})
          ON CONFLICT (channel_provider_id) WHERE ended_at IS NULL
          DO UPDATE SET peak_viewers = greatest(stats_streams.peak_viewers, excluded.peak_viewers)`);
      }
      await tx.execute(sql`
        UPDATE stats_streams SET ended_at = ${now.toISOString()}
        WHERE ended_at IS NULL AND channel_provider_id NOT IN (SELECT id FROM channel_providers WHERE is_live)`);
    });
  }
}

export interface StatsJobsOptions {
  rollupEveryMs?: number;
  sampleEveryMs?: number;
  log: { error(obj: object, msg?: string): void };
}

/** The rollup (every 5 s) and the viewer sampler (every minute, and 1 s after a live-state change) on timers. */
export class StatsJobs {
  private timers: NodeJS.Timeout[] = [];
  private soon: NodeJS.Timeout | null = null;
  private running = new Set<Promise<unknown>>();
  private stopped = true;

  constructor(
    readonly rollup: StatsRollup,
    private readonly options: StatsJobsOptions,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    const every = (ms: number, run: () => Promise<unknown>) => {
      const timer = setInterval(() => this.track(run), ms);
      timer.unref();
      this.timers.push(timer);
    };
    every(this.options.rollupEveryMs ?? 5_000, () => this.rollup.rollup());
    every(this.options.sampleEveryMs ?? 60_000, () => this.rollup.sample());
    this.track(() => this.rollup.sample());
  }

  /** A connection went live, offline or changed its viewer count: sample within a second (coalesced). */
  connectionChanged(): void {
    if (this.stopped || this.soon) return;
    this.soon = setTimeout(() => {
      this.soon = null;
      this.track(() => this.rollup.sample());
    }, 1_000);
    this.soon.unref();
  }

  private track(run: () => Promise<unknown>): void {
    if (this.stopped) return;
    const p = run()
      .catch((error: unknown) => this.options.log.error({ err: error }, 'stats job failed'))
      .finally(() => this.running.delete(p));
    this.running.add(p);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    if (this.soon) clearTimeout(this.soon);
    this.soon = null;
    await Promise.all(this.running);
  }
}
