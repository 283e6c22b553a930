/**
 * Stats are rolled up as chat and events arrive, never computed from the chat log per page load.
 *
 *  - `rollup()` reads the rows the chat log gained since its cursors (chat messages, activities, moderation
 *    events, by their commit-ordered `seq`) and adds them to the per-minute rows (`stats_minutes`) and the per-month
 *    chatter rows (`stats_chatter_months`, cumulative day by day), then recomputes the hours it touched
 *    (`stats_hours`, `stats_channel_hours`) from their minutes; the cursors move in the same transaction, so every
 *    row counts exactly once, across restarts and with several instances (the cursor rows are locked while one
 *    instance works). Set-based statements, one per table, in short transactions (≤ 500 rows per source).
 *    It also moves the points economy out of `stats_points_inbox` (filled by a trigger on the points ledger, in the
 *    ledger writer's transaction) into `stats_points`, and writes the chatbot command uses counted since the last
 *    run (`commandUsed()`) into `stats_minutes.commands` and `stats_commands`.
 *  - `sample()` writes each live connection's viewer count into its minute, opens a stream row when a connection
 *    goes live and closes it when it is seen offline (`stats_streams`, the dashboard's uptime), keeping its peak.
 *    With several instances each samples the channels it holds (where their connections run).
 *  - The rollup tables are analyzed after they grew (embedded PGlite has no autovacuum: without statistics the
 *    planner guesses a handful of rows and sorts where it should hash, three times slower on a day of chatters).
 *
 * `StatsJobs` runs both on timers; `sample()` also runs shortly after a connection's live state changes.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { newId } from '../../lib/ids';

/**
 * Rows read from one chat-log table per transaction: a tick's work is cut into short transactions, and a backlog after
 * downtime is caught up in the same steps. On embedded PGlite a transaction holds the one connection, so chat ingest
 * waits for it: short ones keep its latency low (ingest commits run between them). Measured with bench/chat-ingest.ts
 * on PGlite (quiet machine, back to back): 2,000 rows a transaction held 350 msg/s at p99 ≤ 100 ms (the group commit's
 * BEGIN waited ~50 ms behind a rollup transaction), 500 rows held 685 msg/s, as without the hour and month rollups.
 */
const ROLLUP_BATCH = 500;
/** Rollup rows written before the rollup tables are analyzed again, and the least time between two analyses. */
const ANALYZE_AFTER_ROWS = 5_000;
const ANALYZE_EVERY_MS = 10 * 60_000;
/** Reply effects remembered so a retried reply counts its command once. */
const SEEN_USES_MAX = 10_000;

/** One chatbot command answered (its reply effect ran). */
export interface CommandUse {
  /** The reply effect's id: a retried reply counts once. */
  effectId: string;
  channelId: string;
  channelProviderId: string;
  provider: string;
  commandId: string;
  at: Date;
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

const sources = ['chat_messages', 'activities', 'moderation_events'] as const;
type Source = (typeof sources)[number];

/** Activity types counted as new subscribers (gifts count each gifted sub). */
const SUB_TYPES = ['sub', 'resub', 'gift', 'membership', 'membership_gift'];

/** Days 1..31 of a month (a `stats_chatter_months.days` array has one entry per day, cumulative). */
const MONTH_DAYS = Array.from({ length: 31 }, (_, i) => i + 1);
/** The cumulative array of a batch's messages per chatter and month: messages from the 1st to each day. */
const CUMULATIVE_COUNTS = sql.raw(MONTH_DAYS.map((d) => `coalesce(sum(n) FILTER (WHERE dom <= ${d}), 0)::integer`).join(', '));
/** A month row plus a batch's cumulative array, entry by entry. */
const ADD_DAYS = sql.raw(MONTH_DAYS.map((d) => `stats_chatter_months.days[${d}] + excluded.days[${d}]`).join(', '));

/** The (channel, UTC hour) pairs a transaction changed minute rows in: their hour rows are recomputed before it commits. */
class DirtyHours {
  readonly channels: string[] = [];
  readonly hours: string[] = [];
  private readonly seen = new Set<string>();

  addOne(channelId: string, at: Date | string): void {
    const hour = new Date(Math.floor(new Date(at).getTime() / 3_600_000) * 3_600_000).toISOString();
    const key = `${channelId}\u0000${hour}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.channels.push(channelId);
    this.hours.push(hour);
  }

  add(result: unknown): void {
    for (const r of rowsOf<{ channel_id: string; minute: string | Date }>(result)) this.addOne(r.channel_id, r.minute);
  }
}

/** Selects what an upsert of minute rows (`up`, RETURNING channel_id, minute) touched, one row per channel and hour. */
const DIRTY_OF_UP = sql`SELECT DISTINCT channel_id, date_trunc('hour', minute, 'UTC') AS minute FROM up`;

/**
 * Recomputes the hour rows of the changed hours from their minute rows (at most 60 per connection and hour), so they
 * always equal the minutes' sums — viewer samples overwritten in a minute included — and the channel's viewers per
 * hour (the minutes' samples summed over platforms first: the channel's peak and average).
 */
async function refreshHours(tx: Tx, dirty: DirtyHours): Promise<void> {
  if (dirty.channels.length === 0) return;
  const changed = sql`unnest(${sql.param(dirty.channels)}::text[], ${sql.param(dirty.hours)}::timestamptz[]) AS d(channel_id, hour)
    JOIN stats_minutes m ON m.channel_id = d.channel_id AND m.minute >= d.hour AND m.minute < d.hour + interval '1 hour'`;
  // One statement for both tables (a round trip less to the embedded database's thread, while it is held).
  await tx.execute(sql`
    WITH hours AS (
      INSERT INTO stats_hours (channel_id, channel_provider_id, provider, hour, messages, follows, subs, moderation, commands,
        viewer_sum, viewer_minutes, viewer_peak)
      SELECT d.channel_id, m.channel_provider_id, min(m.provider), d.hour, sum(m.messages), sum(m.follows), sum(m.subs),
        sum(m.moderation), sum(m.commands), coalesce(sum(m.viewers), 0), count(m.viewers), max(m.viewers)
      FROM ${changed} GROUP BY d.channel_id, m.channel_provider_id, d.hour
      ON CONFLICT (channel_id, channel_provider_id, hour) DO UPDATE SET messages = excluded.messages,
        follows = excluded.follows, subs = excluded.subs, moderation = excluded.moderation, commands = excluded.commands,
        viewer_sum = excluded.viewer_sum, viewer_minutes = excluded.viewer_minutes, viewer_peak = excluded.viewer_peak
    )
    INSERT INTO stats_channel_hours (channel_id, hour, viewer_sum, viewer_minutes, viewer_peak)
    SELECT channel_id, hour, sum(v), count(*), max(v)
    FROM (SELECT d.channel_id, d.hour, m.minute, sum(m.viewers) AS v FROM ${changed} WHERE m.viewers IS NOT NULL GROUP BY 1, 2, 3) t
    GROUP BY 1, 2
    ON CONFLICT (channel_id, hour) DO UPDATE SET viewer_sum = excluded.viewer_sum, viewer_minutes = excluded.viewer_minutes,
      viewer_peak = excluded.viewer_peak`);
}

export class StatsRollup {
  private uses: CommandUse[] = [];
  private readonly seenUses = new Set<string>();
  private written = 0;
  private analyzedAt = 0;
  /** The cursor rows exist (made once per process; the rollup never deletes them). */
  private cursorsMade = false;

  constructor(
    private readonly db: Db,
    private readonly clock: () => number = Date.now,
  ) {}

  get pendingUses(): number {
    return this.uses.length;
  }

  /** A chatbot command was answered: counted at the next rollup (a reply retried under the same effect counts once). */
  commandUsed(use: CommandUse): void {
    if (this.seenUses.has(use.effectId)) return;
    this.seenUses.add(use.effectId);
    if (this.seenUses.size > SEEN_USES_MAX) this.seenUses.delete(this.seenUses.values().next().value!);
    this.uses.push(use);
  }

  /** Adds what the chat log and the points ledger gained since the last run; returns how many source rows were read. */
  async rollup(): Promise<number> {
    if (!this.cursorsMade) {
      await this.db.execute(
        sql`INSERT INTO stats_cursors (source, seq) VALUES ('chat_messages', 0), ('activities', 0), ('moderation_events', 0) ON CONFLICT DO NOTHING`,
      );
      this.cursorsMade = true;
    }
    let total = 0;
    for (;;) {
      const read = await this.db.transaction(async (tx) => {
        const dirty = new DirtyHours();
        let n = 0;
        // The three cursors locked in one statement (in one order everywhere: several instances never deadlock);
        // each source's rows are then read by a statement of its own, so it sees what committed before the lock.
        const cursors = new Map(
          rowsOf<{ source: string; seq: string | number }>(
            await tx.execute(sql`SELECT source, seq FROM stats_cursors WHERE source IN ('chat_messages', 'activities', 'moderation_events')
              ORDER BY source FOR UPDATE`),
          ).map((r) => [r.source, Number(r.seq)]),
        );
        for (const source of sources) n += await this.rollupSource(tx, source, cursors.get(source) ?? 0, dirty);
        await refreshHours(tx, dirty);
        return n + (await this.rollupPoints(tx));
      });
      total += read;
      if (read < ROLLUP_BATCH) break;
    }
    total += await this.flushCommands();
    this.written += total;
    if (this.written >= ANALYZE_AFTER_ROWS && this.clock() - this.analyzedAt >= ANALYZE_EVERY_MS) {
      await this.db.execute(
        sql`ANALYZE stats_minutes, stats_points, stats_commands, stats_hours, stats_channel_hours, stats_chatter_months`,
      );
      this.written = 0;
      this.analyzedAt = this.clock();
    }
    return total;
  }

  /**
   * Moves the points ledger's sums out of the inbox into the per-minute rows, in one statement. The oldest rows are
   * taken as an array of ids (`= ANY (ARRAY(…))`: an index scan of those ids): with `IN (SELECT …)`, once the inbox had
   * planner statistics saying it is big (the planner-statistics job, a minute into a busy run), the plan became a hash
   * semi-join over a scan of the whole inbox — dead rows included, PGlite never vacuums — 150–570 ms a statement
   * inside the rollup's transaction, every commit waiting (ingest at 1,500 msg/s on PGlite; 16.9 → 2.1 ms at 20,000
   * rows in EXPLAIN ANALYZE).
   */
  private async rollupPoints(tx: Tx): Promise<number> {
    const [row] = rowsOf<{ n: string | number }>(
      await tx.execute(sql`
        WITH moved AS (
          DELETE FROM stats_points_inbox WHERE id = ANY (ARRAY(SELECT id FROM stats_points_inbox ORDER BY id LIMIT ${ROLLUP_BATCH}))
          RETURNING *
        ), added AS (
          INSERT INTO stats_points (channel_id, minute, earned, spent, won, lost, given, adjusted)
          SELECT channel_id, minute, sum(earned), sum(spent), sum(won), sum(lost), sum(given), sum(adjusted)
          FROM moved WHERE channel_id IN (SELECT id FROM channels) GROUP BY 1, 2
          ON CONFLICT (channel_id, minute) DO UPDATE SET earned = stats_points.earned + excluded.earned,
            spent = stats_points.spent + excluded.spent, won = stats_points.won + excluded.won,
            lost = stats_points.lost + excluded.lost, given = stats_points.given + excluded.given,
            adjusted = stats_points.adjusted + excluded.adjusted
          RETURNING 1
        ), hours AS (
          INSERT INTO stats_channel_hours (channel_id, hour, earned, spent, won, lost, given, adjusted)
          SELECT channel_id, date_trunc('hour', minute, 'UTC'), sum(earned), sum(spent), sum(won), sum(lost), sum(given),
            sum(adjusted)
          FROM moved WHERE channel_id IN (SELECT id FROM channels) GROUP BY 1, 2
          ON CONFLICT (channel_id, hour) DO UPDATE SET earned = stats_channel_hours.earned + excluded.earned,
            spent = stats_channel_hours.spent + excluded.spent, won = stats_channel_hours.won + excluded.won,
            lost = stats_channel_hours.lost + excluded.lost, given = stats_channel_hours.given + excluded.given,
            adjusted = stats_channel_hours.adjusted + excluded.adjusted
          RETURNING 1
        )
        SELECT (SELECT count(*) FROM moved) AS n, (SELECT count(*) FROM added) AS added, (SELECT count(*) FROM hours) AS hours`),
    );
    return Number(row?.n ?? 0);
  }

  /** Writes the command uses counted since the last run (kept for the next run when writing fails). */
  private async flushCommands(): Promise<number> {
    if (this.uses.length === 0) return 0;
    const uses = this.uses;
    this.uses = [];
    const param = <T>(values: T[]) => sql.param(values);
    try {
      await this.db.transaction(async (tx) => {
        const input = sql`unnest(${param(uses.map((u) => u.channelId))}::text[], ${param(uses.map((u) => u.channelProviderId))}::text[],
          ${param(uses.map((u) => u.provider))}::text[], ${param(uses.map((u) => u.commandId))}::text[],
          ${param(uses.map((u) => u.at.toISOString()))}::timestamptz[]) AS u(channel_id, channel_provider_id, provider, command_id, at)
          WHERE u.channel_id IN (SELECT id FROM channels)`;
        const dirty = new DirtyHours();
        dirty.add(
          await tx.execute(sql`
          WITH up AS (
            INSERT INTO stats_minutes (channel_id, channel_provider_id, provider, minute, commands)
            SELECT channel_id, channel_provider_id, provider, date_trunc('minute', at), count(*) FROM ${input} GROUP BY 1, 2, 3, 4
            ON CONFLICT (channel_id, channel_provider_id, minute) DO UPDATE SET commands = stats_minutes.commands + excluded.commands
            RETURNING channel_id, minute
          ) ${DIRTY_OF_UP}`),
        );
        await refreshHours(tx, dirty);
        await tx.execute(sql`
          INSERT INTO stats_commands (channel_id, day, command_id, uses)
          SELECT channel_id, (at AT TIME ZONE 'UTC')::date, command_id, count(*) FROM ${input} GROUP BY 1, 2, 3
          ON CONFLICT (channel_id, day, command_id) DO UPDATE SET uses = stats_commands.uses + excluded.uses`);
      });
    } catch (error) {
      this.uses = uses.concat(this.uses);
      throw error;
    }
    return uses.length;
  }

  /**
   * One source's next rows (at most ROLLUP_BATCH after its cursor `from`) added to the minute rows (chat also to the
   * chatter months) and the cursor moved past them, in ONE statement: on the embedded database every statement is a
   * round trip between the threads while the rollup holds the database, and chat ingest waits for it. Returns the rows
   * read; the (channel, hour) pairs whose minutes changed go to `dirty`.
   */
  private async rollupSource(tx: Tx, source: Source, from: number, dirty: DirtyHours): Promise<number> {
    const table = sql.identifier(source);
    const head = sql`WITH b AS (
        SELECT max(seq) AS hi, count(*) AS n FROM (SELECT seq FROM ${table} WHERE seq > ${from} ORDER BY seq LIMIT ${ROLLUP_BATCH}) t
      ), moved AS (
        UPDATE stats_cursors SET seq = b.hi FROM b WHERE stats_cursors.source = ${source} AND b.hi IS NOT NULL
      )`;
    const range = sql`seq > ${from} AND seq <= (SELECT hi FROM b)`;
    const tail = sql`SELECT b.n, d.channel_id, d.minute FROM b LEFT JOIN (${DIRTY_OF_UP}) d ON true`;
    let result: unknown;
    if (source === 'chat_messages') {
      // Messages per chatter and UTC month, cumulative day by day (see stats_chatter_months): the batch counted per
      // chatter and day, then per month 31 filtered sums, merged into the row entry by entry — plain expressions, no
      // function called per row.
      result = await tx.execute(sql`${head}, src AS (
          SELECT channel_id, channel_provider_id, provider, received_at, author_id, author_name
          FROM chat_messages WHERE ${range} AND NOT author_is_self
        ), up AS (
          INSERT INTO stats_minutes (channel_id, channel_provider_id, provider, minute, messages)
          SELECT channel_id, channel_provider_id, provider, date_trunc('minute', received_at), count(*)
          FROM src GROUP BY 1, 2, 3, 4
          ON CONFLICT (channel_id, channel_provider_id, minute) DO UPDATE SET messages = stats_minutes.messages + excluded.messages
          RETURNING channel_id, minute
        ), months AS (
          INSERT INTO stats_chatter_months (channel_id, month, provider, author_id, author_name, days)
          SELECT channel_id, month, provider, author_id, max(author_name), ARRAY[${CUMULATIVE_COUNTS}]
          FROM (
            SELECT channel_id, date_trunc('month', received_at AT TIME ZONE 'UTC')::date AS month,
              extract(day FROM received_at AT TIME ZONE 'UTC')::integer AS dom, provider, author_id,
              max(author_name) AS author_name, count(*)::integer AS n
            FROM src GROUP BY 1, 2, 3, 4, 5
          ) d GROUP BY 1, 2, 3, 4
          ON CONFLICT (channel_id, month, provider, author_id)
          DO UPDATE SET days = ARRAY[${ADD_DAYS}], author_name = excluded.author_name
        ) ${tail}`);
    } else if (source === 'activities') {
      const subTypes = sql.join(
        SUB_TYPES.map((t) => sql`${t}`),
        sql`, `,
      );
      result = await tx.execute(sql`${head}, up AS (
          INSERT INTO stats_minutes (channel_id, channel_provider_id, provider, minute, follows, subs)
          SELECT channel_id, channel_provider_id, provider, date_trunc('minute', occurred_at),
            count(*) FILTER (WHERE type = 'follow'),
            coalesce(sum(CASE WHEN type IN ('gift', 'membership_gift') THEN greatest(coalesce(count, 1), 1) ELSE 1 END)
              FILTER (WHERE type IN (${subTypes})), 0)
          FROM activities WHERE ${range} AND type IN ('follow', ${subTypes}) GROUP BY 1, 2, 3, 4
          ON CONFLICT (channel_id, channel_provider_id, minute)
          DO UPDATE SET follows = stats_minutes.follows + excluded.follows, subs = stats_minutes.subs + excluded.subs
          RETURNING channel_id, minute
        ) ${tail}`);
    } else {
      result = await tx.execute(sql`${head}, up AS (
          INSERT INTO stats_minutes (channel_id, channel_provider_id, provider, minute, moderation)
          SELECT channel_id, channel_provider_id, provider, date_trunc('minute', occurred_at), count(*)
          FROM moderation_events WHERE ${range} AND kind <> 'clear' GROUP BY 1, 2, 3, 4
          ON CONFLICT (channel_id, channel_provider_id, minute) DO UPDATE SET moderation = stats_minutes.moderation + excluded.moderation
          RETURNING channel_id, minute
        ) ${tail}`);
    }
    const rows = rowsOf<{ n: string | number; channel_id: string | null; minute: string | Date | null }>(result);
    for (const r of rows) if (r.channel_id !== null && r.minute !== null) dirty.addOne(r.channel_id, r.minute);
    return Number(rows[0]?.n ?? 0);
  }

  /**
   * Viewer samples of the live connections, and stream rows opened, kept at their peak, and closed. `held`: the
   * channels this instance holds (several instances: each samples its own); null, every channel.
   */
  async sample(now: Date = new Date(), held: ReadonlySet<string> | null = null): Promise<void> {
    if (held && held.size === 0) {
      await this.closeStreamsOfRemoved(now);
      return;
    }
    const mine = held
      ? sql`AND channel_id IN (${sql.join(
          [...held].map((id) => sql`${id}`),
          sql`, `,
        )})`
      : sql``;
    await this.db.transaction(async (tx) => {
      const live = rowsOf<{ id: string; channel_id: string; provider: string; viewer_count: number | null }>(
        await tx.execute(sql`SELECT id, channel_id, provider, viewer_count FROM channel_providers WHERE is_live ${mine}`),
      );
      const minute = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
      const dirty = new DirtyHours();
      for (const c of live) if (c.viewer_count !== null) dirty.addOne(c.channel_id, minute);
      if (live.length > 0) {
        // Every live connection in one statement, however many (not two statements each: on the embedded database
        // each is a round trip between the threads while this transaction holds the database and chat waits).
        const param = <T>(values: T[]) => sql.param(values);
        await tx.execute(sql`
          WITH input AS (
            SELECT * FROM unnest(${param(live.map(() => newId()))}::text[], ${param(live.map((c) => c.channel_id))}::text[],
              ${param(live.map((c) => c.id))}::text[], ${param(live.map((c) => c.provider))}::text[],
              ${param(live.map((c) => c.viewer_count))}::integer[]) AS t(id, channel_id, channel_provider_id, provider, viewers)
          ), minutes AS (
            INSERT INTO stats_minutes (channel_id, channel_provider_id, provider, minute, viewers)
            SELECT channel_id, channel_provider_id, provider, ${minute.toISOString()}::timestamptz, viewers FROM input
            WHERE viewers IS NOT NULL
            ON CONFLICT (channel_id, channel_provider_id, minute) DO UPDATE SET viewers = excluded.viewers
          )
          INSERT INTO stats_streams (id, channel_id, channel_provider_id, provider, started_at, peak_viewers)
          SELECT id, channel_id, channel_provider_id, provider, ${now.toISOString()}::timestamptz, viewers FROM input
          ON CONFLICT (channel_provider_id) WHERE ended_at IS NULL
          DO UPDATE SET peak_viewers = greatest(stats_streams.peak_viewers, excluded.peak_viewers)`);
      }
      await refreshHours(tx, dirty);
      await tx.execute(sql`
        UPDATE stats_streams SET ended_at = ${now.toISOString()}
        WHERE ended_at IS NULL AND channel_provider_id NOT IN (SELECT id FROM channel_providers WHERE is_live) ${mine}`);
    });
    if (held) await this.closeStreamsOfRemoved(now);
  }

  /** Streams of connections removed since (no instance holds them any more). */
  private async closeStreamsOfRemoved(now: Date): Promise<void> {
    await this.db.execute(sql`
      UPDATE stats_streams SET ended_at = ${now.toISOString()}
      WHERE ended_at IS NULL AND channel_provider_id NOT IN (SELECT id FROM channel_providers)`);
  }
}

export interface StatsJobsOptions {
  rollupEveryMs?: number;
  sampleEveryMs?: number;
  /** The channels this instance holds (several instances: viewers are sampled where the connections run). */
  held?: () => ReadonlySet<string> | null;
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
    every(this.options.sampleEveryMs ?? 60_000, () => this.sample());
    this.track(() => this.sample());
  }

  /** A connection went live, offline or changed its viewer count: sample within a second (coalesced). */
  connectionChanged(): void {
    if (this.stopped || this.soon) return;
    this.soon = setTimeout(() => {
      this.soon = null;
      this.track(() => this.sample());
    }, 1_000);
    this.soon.unref();
  }

  private sample(): Promise<void> {
    return this.rollup.sample(new Date(), this.options.held?.() ?? null);
  }

  private track(run: () => Promise<unknown>): void {
    if (this.stopped) return;
    const p = run()
      .catch((error: unknown) => this.options.log.error({ err: error }, 'stats job failed'))
      .finally(() => this.running.delete(p));
    this.running.add(p);
  }

  async stop(): Promise<void> {
    const wasRunning = !this.stopped;
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    if (this.soon) clearTimeout(this.soon);
    this.soon = null;
    await Promise.all(this.running);
    // The command uses counted since the last run are written before the process goes.
    if (wasRunning && this.rollup.pendingUses > 0)
      await this.rollup.rollup().catch((error: unknown) => this.options.log.error({ err: error }, 'stats job failed'));
  }
}
