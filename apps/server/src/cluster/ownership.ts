/**
 * Which instance holds each channel's platform connections. Alone (no `REDIS_URL`), this instance holds every
 * channel (`SoloOwnership`). In a cluster (`LeaseOwnership`) an instance holds a lease — its row in
 * `cluster_instances`, renewed every third of `leaseMs` on the database's clock — and the channels whose
 * `channel_owners` row names it. A lease that was not renewed in time is gone for good: the others take its
 * channels on their next tick, and the instance itself, if it was only slow, drops its channels and starts over
 * under a new lease id. Taking a channel is one conditional upsert (it succeeds only while the current holder's
 * lease has expired), so two live instances never hold one channel; while the database cannot be reached an instance
 * keeps what it holds until its lease would have expired.
 *
 * New instances take free channels up to their fair share (channels ÷ live instances); a channel connected for the
 * first time is taken by the instance where the request landed. Channels are not moved between live instances.
 */
import { sql, type SQL } from 'drizzle-orm';
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

export interface OwnershipEvents {
  /** Channels this instance now holds: open their connections. */
  acquired(channelIds: string[]): void;
  /** Channels this instance no longer holds: close their connections at once. */
  lost(channelIds: string[]): void;
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
  /** How long a lease lasts without renewal (default 3 s): a dead instance's channels move within about this plus a tick. */
  leaseMs?: number;
  log: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
}

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
  private lastClaimPass = 0;
  /** When the lease was last renewed (local clock): past `leaseMs` without one, the channels are dropped. */
  private renewedAt = 0;
  private stopped = false;
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

  /** One pass (never two at once): renew, run commands, take free channels. */
  tick(): Promise<void> {
    this.running ??= this.pass()
      .catch((error: unknown) => {
        this.options.log.warn({ err: error }, 'cluster lease pass failed');
        // The database is unreachable: what this instance holds may already belong to another.
        if (this.registered && Date.now() - this.renewedAt > this.leaseMs) this.dropAll('lease not renewed in time');
      })
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  private async pass(): Promise<void> {
    if (this.stopped) return;
    const ms = this.leaseMs;
    const startedAt = Date.now();
    if (this.registered) {
      const renewed = await this.query<{ id: string }>(
        sql`UPDATE cluster_instances SET expires_at = now() + ${ms} * interval '1 millisecond' WHERE id = ${this.id} AND expires_at > now() RETURNING id`,
      );
      if (renewed.length === 0) {
        this.dropAll('lease expired before it was renewed');
        this.id = newId();
        this.registered = false;
        this.options.events.renamed?.(this.id);
      } else this.renewedAt = startedAt;
    }
    if (!this.registered) {
      await this.query(sql`INSERT INTO cluster_instances (id, expires_at) VALUES (${this.id}, now() + ${ms} * interval '1 millisecond')`);
      this.registered = true;
      this.renewedAt = startedAt;
      this.lastClaimPass = 0;
    }
    const commands = await this.query<{ channel_id: string; channel_provider_id: string; kind: string }>(
      sql`DELETE FROM cluster_commands WHERE instance_id = ${this.id} RETURNING channel_id, channel_provider_id, kind`,
    );
    if (commands.length > 0)
      this.options.events.commands(
        commands.map((c) => ({
          channelId: c.channel_id,
          channelProviderId: c.channel_provider_id,
          kind: c.kind === 'close' ? 'close' : 'restart',
        })),
      );
    // Free channels are looked for when an instance died (its row is still there, expired) and every 10 s.
    const [dead] = await this.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM cluster_instances WHERE expires_at <= now()`);
    if ((dead?.n ?? 0) > 0 || Date.now() - this.lastClaimPass > 10_000) await this.claimFree();
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
      const taken = await this.query<{ channel_id: string }>(sql`
        WITH free AS (
          SELECT DISTINCT cp.channel_id FROM channel_providers cp
          LEFT JOIN channel_owners o ON o.channel_id = cp.channel_id
          LEFT JOIN cluster_instances i ON i.id = o.instance_id AND i.expires_at > now()
          WHERE i.id IS NULL
          LIMIT ${room}
        )
        INSERT INTO channel_owners (channel_id, instance_id) SELECT channel_id, ${this.id} FROM free
        ON CONFLICT (channel_id) DO UPDATE SET instance_id = EXCLUDED.instance_id, acquired_at = now()
          WHERE channel_owners.instance_id NOT IN (SELECT id FROM cluster_instances WHERE expires_at > now())
        RETURNING channel_id`);
      this.acquire(taken.map((r) => r.channel_id));
    }
    // A dead instance's row goes once nothing names it; its commands with it.
    await this.query(sql`
      DELETE FROM cluster_instances i WHERE i.expires_at <= now() - interval '5 seconds'
        AND NOT EXISTS (SELECT 1 FROM channel_owners o WHERE o.instance_id = i.id)`);
    await this.query(sql`DELETE FROM cluster_commands c WHERE NOT EXISTS (SELECT 1 FROM cluster_instances i WHERE i.id = c.instance_id)`);
  }

  private acquire(channelIds: string[]): void {
    const fresh = channelIds.filter((id) => !this.owned.has(id));
    if (fresh.length === 0) return;
    for (const id of fresh) this.owned.add(id);
    this.options.log.info({ instance: this.id, channels: fresh.length }, 'channels taken');
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
      this.acquire([channelId]);
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
    // The others take these channels on their next tick instead of after the lease.
    try {
      await this.query(sql`DELETE FROM channel_owners WHERE instance_id = ${this.id}`);
      await this.query(sql`DELETE FROM cluster_instances WHERE id = ${this.id}`);
    } catch (error) {
      this.options.log.warn({ err: error }, 'releasing the cluster lease failed (the others take over when it expires)');
    }
  }
}
