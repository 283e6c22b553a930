/**
 * Which instance holds each channel's platform connections. Alone (no `REDIS_URL`), this instance holds every
 * channel (`SoloOwnership`). In a cluster (`LeaseOwnership`) an instance holds a lease — its row in
 * `cluster_instances`, renewed every quarter of `leaseMs` on the database's clock — and the channels whose
 * `channel_owners` row names it. A lease that was not renewed in time is gone for good: the others take its
 * channels on their next tick, and the instance itself, if it was only slow, drops its channels and starts over
 * under a new lease id. Taking a channel is one conditional upsert (it succeeds only while the current holder's
 * lease has expired), so two live instances never hold one channel; while the database cannot be reached an instance
 * keeps what it holds until its lease would have expired.
 *
 * A crashed process is noticed before its lease runs out: every instance holds a session advisory lock on a
 * connection of its own while it lives, and each tick expires the leases whose lock is gone (PostgreSQL ends the
 * session of a killed process at once). An instance whose lock connection breaks drops its channels at once and
 * starts over, as with a lease that was not renewed.
 *
 * New instances take free channels up to their fair share (channels ÷ live instances); a channel connected for the
 * first time is taken by the instance where the request landed. An instance holding more than its share hands
 * channels, a few at a time, to the instance holding the fewest (`rebalance`): the row names the taker at once and
 * a `take` command tells it; the giver keeps its connections open until the taker's are up, so the hand-off has no
 * gap (what both ingest meanwhile is stored once: the chat log's unique keys).
 */
import { sql, type SQL } from 'drizzle-orm';
import pg from 'pg';
import type { Db } from '../db/client';
import { newId } from '../lib/ids';

export interface Ownership {
  /** This instance's current lease id (changes when a lease was lost and taken again). */
  readonly instanceId: string;
  /** Whether this instance holds the channel now. */
  owns(channelId: string): boolean;
  /** The channels held now. */
  readonly held: ReadonlySet<string>;
  /** The instance holding the channel, taking it for this one when nobody does. */
  ownerOrClaim(channelId: string): Promise<string>;
  start(): Promise<void>;
  /** Releases every channel (graceful shutdown: the others take them at once). */
  stop(): Promise<void>;
}

/** A channel this instance now holds. */
export interface Acquired {
  channelId: string;
  /**
   * Since when nobody read its chat (the crashed holder's last renewal, or when a stopping holder released it): the
   * takeover's gap line starts there. Null when it was never held or was handed over (no gap).
   */
  gapSince: Date | null;
  /** The instance that handed it over (it closes its connections once this one's are up), or null. */
  from: string | null;
}

export interface OwnershipEvents {
  /** Channels this instance now holds: open their connections. */
  acquired(channels: Acquired[]): void;
  /** Channels this instance no longer holds: close their connections at once. */
  lost(channelIds: string[]): void;
  /** Channels handed to another instance: keep their connections until the taker's are up (or a timeout), then close. */
  handedOver?(channelId: string, to: string): void;
  /** Connection commands addressed to this instance (`cluster_commands`). */
  commands(commands: ClusterCommand[]): void;
  /** The lease id changed (subscribe to the new address). */
  renamed?(instanceId: string): void;
}

export interface ClusterCommand {
  channelId: string;
  channelProviderId: string;
  kind: 'restart' | 'close';
}

export class SoloOwnership implements Ownership {
  readonly instanceId = 'solo';
  readonly held: ReadonlySet<string> = new Set();
  owns(): boolean {
    return true;
  }
  async ownerOrClaim(): Promise<string> {
    return this.instanceId;
  }
  async start(): Promise<void> {}
  async stop(): Promise<void> {}
}

export interface LeaseOwnershipOptions {
  db: Db;
  events: OwnershipEvents;
  /**
   * The database's address, for the connection that holds this instance's liveness lock (so the others see a crash
   * at once). Without it a crash is seen when the lease expires.
   */
  databaseUrl?: string;
  /** How long a lease lasts without renewal (default 3 s): a dead instance's channels move within about this plus a tick. */
  leaseMs?: number;
  /** How often free channels are looked for and shares evened out (default 5 s; at once when an instance died). */
  balanceEveryMs?: number;
  /** Channels one instance hands over at a time when it holds more than its share (default 2). */
  handoffBatch?: number;
  log: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
}

/** The first key of the instances' advisory locks ('GR' and 1); the second is hashtext(instance id). */
const LIVENESS_LOCK = 1196556289;

type Rows<T> = { rows: T[] } | T[];

/** The rows of a raw statement (node-postgres answers `{ rows }`). */
export async function queryRows<T>(db: Db, statement: SQL): Promise<T[]> {
  const result: unknown = await db.execute(statement);
  const rows = result as Rows<T>;
  return Array.isArray(rows) ? rows : rows.rows;
}

export class LeaseOwnership implements Ownership {
  private id = newId();
  private readonly owned = new Set<string>();
  private registered = false;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private lastClaimPass = 0;
  /** When the lease was last renewed (local clock): past `leaseMs` without one, the channels are dropped. */
  private renewedAt = 0;
  private stopped = false;
  /** The session holding this instance's liveness lock (null: not taken yet, or no databaseUrl). */
  private lock: pg.Client | null = null;
  /** The liveness lock's session ended: the others expire this lease; start over. */
  private lockLost = false;
  /** Channels handed to another instance whose connections here are not closed yet. */
  private readonly handing = new Set<string>();
  readonly leaseMs: number;

  constructor(private readonly options: LeaseOwnershipOptions) {
    this.leaseMs = options.leaseMs ?? 3_000;
  }

  get instanceId(): string {
    return this.id;
  }

  get held(): ReadonlySet<string> {
    return this.owned;
  }

  owns(channelId: string): boolean {
    return this.owned.has(channelId);
  }

  private query<T>(statement: SQL): Promise<T[]> {
    return queryRows<T>(this.options.db, statement);
  }

  async start(): Promise<void> {
    await this.tick();
    this.timer = setInterval(() => void this.tick(), Math.max(100, Math.floor(this.leaseMs / 4)));
    this.timer.unref();
  }

  /** One pass (never two at once; asked for during one, another follows): renew, run commands, take free channels. */
  tick(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.pass()
      .catch((error: unknown) => {
        this.options.log.warn({ err: error }, 'cluster lease pass failed');
        // The database is unreachable: what this instance holds may already belong to another.
        if (this.registered && Date.now() - this.renewedAt > this.leaseMs) this.dropAll('lease not renewed in time');
      })
      .finally(() => {
        this.running = null;
        if (this.again && !this.stopped) {
          this.again = false;
          void this.tick();
        }
      });
    return this.running;
  }

  /** The handed-over channel's connections here are closed (or it came back to this instance). */
  handOverDone(channelId: string): void {
    this.handing.delete(channelId);
  }

  /** Takes this instance's liveness lock on a session of its own, before its lease row exists. */
  private async takeLock(): Promise<void> {
    if (!this.options.databaseUrl) return;
    await this.lock?.end().catch(() => undefined);
    const client = new pg.Client({ connectionString: this.options.databaseUrl, application_name: 'greenroom-lease' });
    const lost = () => {
      if (this.lock !== client || this.stopped) return;
      this.lockLost = true;
      void this.tick();
    };
    client.on('error', lost);
    client.on('end', lost);
    this.lock = client;
    this.lockLost = false;
    await client.connect();
    await client.query('SELECT pg_advisory_lock($1::int, hashtext($2))', [LIVENESS_LOCK, this.id]);
  }

  private startOver(reason: string): void {
    this.dropAll(reason);
    this.handing.clear();
    this.id = newId();
    this.registered = false;
    this.options.events.renamed?.(this.id);
  }

  private async pass(): Promise<void> {
    if (this.stopped) return;
    const ms = this.leaseMs;
    const startedAt = Date.now();
    if (this.registered && this.lockLost) this.startOver('the lease lock session ended');
    if (this.registered) {
      const renewed = await this.query<{ id: string }>(
        sql`UPDATE cluster_instances SET expires_at = now() + ${ms} * interval '1 millisecond', renewed_at = now()
            WHERE id = ${this.id} AND expires_at > now() RETURNING id`,
      );
      if (renewed.length === 0) this.startOver('lease expired before it was renewed');
      else this.renewedAt = startedAt;
    }
    if (!this.registered) {
      await this.takeLock();
      await this.query(
        sql`INSERT INTO cluster_instances (id, expires_at, renewed_at) VALUES (${this.id}, now() + ${ms} * interval '1 millisecond', now())`,
      );
      this.registered = true;
      this.renewedAt = startedAt;
      this.lastClaimPass = 0;
    }
    const commands = await this.query<{ channel_id: string; channel_provider_id: string; kind: string }>(
      sql`DELETE FROM cluster_commands WHERE instance_id = ${this.id} RETURNING channel_id, channel_provider_id, kind`,
    );
    const takes = commands.filter((c) => c.kind === 'take');
    if (takes.length > 0) {
      // Handed over by another instance: this one holds them if the rows still name it.
      const mine = await this.query<{ channel_id: string }>(
        sql`SELECT channel_id FROM channel_owners WHERE instance_id = ${this.id}
            AND channel_id IN (${sql.join(
              takes.map((t) => sql`${t.channel_id}`),
              sql`, `,
            )})`,
      );
      const ids = new Set(mine.map((r) => r.channel_id));
      this.acquire(
        takes.filter((t) => ids.has(t.channel_id)).map((t) => ({ channelId: t.channel_id, gapSince: null, from: t.channel_provider_id })),
      );
    }
    const others = commands.filter((c) => c.kind !== 'take');
    if (others.length > 0)
      this.options.events.commands(
        others.map((c) => ({
          channelId: c.channel_id,
          channelProviderId: c.channel_provider_id,
          kind: c.kind === 'close' ? 'close' : 'restart',
        })),
      );
    // Instances whose liveness lock is gone (their process died) are expired now, not when their lease runs out.
    const [dead] = await this.query<{ n: number }>(sql`
      WITH gone AS (
        UPDATE cluster_instances i SET expires_at = now()
        WHERE i.expires_at > now() AND i.id <> ${this.id}
          AND NOT EXISTS (
            SELECT 1 FROM pg_locks l
            WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
              AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
              AND l.classid = ${LIVENESS_LOCK}::int::oid AND l.objid = hashtext(i.id)::oid)
        RETURNING id)
      SELECT ((SELECT count(*) FROM gone) + (SELECT count(*) FROM cluster_instances WHERE expires_at <= now()))::int AS n`);
    // Free channels are looked for when an instance died (its row is still there, expired) and every few seconds.
    if ((dead?.n ?? 0) > 0 || Date.now() - this.lastClaimPass > (this.options.balanceEveryMs ?? 5_000)) await this.claimFree();
  }

  private async claimFree(): Promise<void> {
    this.lastClaimPass = Date.now();
    const [counts] = await this.query<{ total: number; live: number }>(
      sql`SELECT (SELECT count(DISTINCT channel_id) FROM channel_providers)::int AS total,
                 (SELECT count(*) FROM cluster_instances WHERE expires_at > now())::int AS live`,
    );
    const share = Math.ceil((counts?.total ?? 0) / Math.max(1, counts?.live ?? 1));
    const room = share - this.owned.size;
    if (room > 0) {
      // A channel whose holder died resumes with a gap line from that holder's last renewal; one released by a
      // stopping holder (its row names nobody) from the release.
      const taken = await this.query<{ channel_id: string; gap_since: Date | string | null }>(sql`
        WITH free AS (
          SELECT DISTINCT ON (cp.channel_id) cp.channel_id,
            CASE WHEN o.channel_id IS NULL THEN NULL WHEN o.instance_id = '' THEN o.acquired_at
                 ELSE coalesce(d.renewed_at, o.acquired_at) END AS gap_since
          FROM channel_providers cp
          LEFT JOIN channel_owners o ON o.channel_id = cp.channel_id
          LEFT JOIN cluster_instances i ON i.id = o.instance_id AND i.expires_at > now()
          LEFT JOIN cluster_instances d ON d.id = o.instance_id
          WHERE i.id IS NULL
          LIMIT ${room}
        ), taken AS (
          INSERT INTO channel_owners (channel_id, instance_id) SELECT channel_id, ${this.id} FROM free
          ON CONFLICT (channel_id) DO UPDATE SET instance_id = EXCLUDED.instance_id, acquired_at = now()
            WHERE channel_owners.instance_id NOT IN (SELECT id FROM cluster_instances WHERE expires_at > now())
          RETURNING channel_id
        )
        SELECT t.channel_id, f.gap_since FROM taken t JOIN free f ON f.channel_id = t.channel_id`);
      this.acquire(
        taken.map((r) => ({ channelId: r.channel_id, gapSince: r.gap_since === null ? null : new Date(r.gap_since), from: null })),
      );
    } else if (room < 0) await this.rebalance(share);
    // A dead instance's row goes once nothing names it; its commands with it.
    await this.query(sql`
      DELETE FROM cluster_instances i WHERE i.expires_at <= now() - interval '5 seconds'
        AND NOT EXISTS (SELECT 1 FROM channel_owners o WHERE o.instance_id = i.id)`);
    await this.query(sql`DELETE FROM cluster_commands c WHERE NOT EXISTS (SELECT 1 FROM cluster_instances i WHERE i.id = c.instance_id)`);
  }

  /**
   * Holding more than its share (an instance joined): hands a few channels to the live instance holding the fewest,
   * while that one holds at least two fewer than this one. One batch at a time: the next once these are closed here.
   */
  private async rebalance(share: number): Promise<void> {
    if (this.handing.size > 0) return;
    const [least] = await this.query<{ id: string; n: number }>(sql`
      SELECT i.id, count(o.channel_id)::int AS n FROM cluster_instances i
      LEFT JOIN channel_owners o ON o.instance_id = i.id
      WHERE i.expires_at > now() AND i.id <> ${this.id}
      GROUP BY i.id ORDER BY n, i.id LIMIT 1`);
    if (!least) return;
    const count = Math.min(this.owned.size - share, Math.floor((this.owned.size - least.n) / 2), this.options.handoffBatch ?? 2);
    if (count <= 0) return;
    const pick = [...this.owned].slice(0, count);
    const moved = await this.options.db.transaction(async (tx) => {
      const rows = await queryRows<{ channel_id: string }>(
        tx,
        sql`UPDATE channel_owners SET instance_id = ${least.id}, acquired_at = now()
            WHERE instance_id = ${this.id} AND channel_id IN (${sql.join(
              pick.map((id) => sql`${id}`),
              sql`, `,
            )})
              AND EXISTS (SELECT 1 FROM cluster_instances WHERE id = ${least.id} AND expires_at > now())
            RETURNING channel_id`,
      );
      for (const r of rows)
        await tx.execute(
          sql`INSERT INTO cluster_commands (instance_id, channel_id, channel_provider_id, kind) VALUES (${least.id}, ${r.channel_id}, ${this.id}, 'take')`,
        );
      return rows.map((r) => r.channel_id);
    });
    if (moved.length === 0) return;
    this.options.log.info({ instance: this.id, to: least.id, channels: moved.length }, 'channels handed over');
    for (const id of moved) {
      this.owned.delete(id);
      this.handing.add(id);
      this.options.events.handedOver?.(id, least.id);
    }
  }

  private acquire(channels: Acquired[]): void {
    const fresh = channels.filter((c) => !this.owned.has(c.channelId));
    if (fresh.length === 0) return;
    for (const c of fresh) {
      this.owned.add(c.channelId);
      this.handing.delete(c.channelId);
    }
    this.options.log.info({ instance: this.id, channels: fresh.length, handedOver: fresh.filter((c) => c.from).length }, 'channels taken');
    this.options.events.acquired(fresh);
  }

  private dropAll(reason: string): void {
    if (this.owned.size === 0) return;
    const lost = [...this.owned];
    this.owned.clear();
    this.options.log.warn({ instance: this.id, channels: lost.length, reason }, 'channels dropped');
    this.options.events.lost(lost);
  }

  async ownerOrClaim(channelId: string): Promise<string> {
    if (this.owned.has(channelId)) return this.id;
    if (!this.registered) await this.tick();
    const [row] = await this.query<{ instance_id: string }>(sql`
      INSERT INTO channel_owners (channel_id, instance_id) VALUES (${channelId}, ${this.id})
      ON CONFLICT (channel_id) DO UPDATE SET instance_id = EXCLUDED.instance_id, acquired_at = now()
        WHERE channel_owners.instance_id NOT IN (SELECT id FROM cluster_instances WHERE expires_at > now())
      RETURNING instance_id`);
    if (row) {
      this.acquire([{ channelId, gapSince: null, from: null }]);
      return this.id;
    }
    const [current] = await this.query<{ instance_id: string }>(
      sql`SELECT instance_id FROM channel_owners WHERE channel_id = ${channelId}`,
    );
    return current?.instance_id ?? this.id;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
    const lost = [...this.owned];
    this.owned.clear();
    if (lost.length > 0) this.options.events.lost(lost);
    if (!this.registered) return;
    // The others take these channels on their next tick instead of after the lease; the rows name nobody from now
    // (the taker's gap line starts at the release).
    try {
      await this.query(sql`UPDATE channel_owners SET instance_id = '', acquired_at = now() WHERE instance_id = ${this.id}`);
      await this.query(sql`DELETE FROM cluster_instances WHERE id = ${this.id}`);
    } catch (error) {
      this.options.log.warn({ err: error }, 'releasing the cluster lease failed (the others take over when it expires)');
    }
    await this.lock?.end().catch(() => undefined);
    this.lock = null;
  }
}
