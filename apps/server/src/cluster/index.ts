/**
 * One instance or several. Without `REDIS_URL` this instance holds every channel and the bus is in-process
 * (`singleInstance`). With it (and PostgreSQL), instances share one database and one Redis (`joinCluster`):
 * channels are held through leases (`ownership.ts`), bus events fan out through Redis (`redis-bus.ts`),
 * connection commands reach the instance holding the channel (`cluster_commands`, nudged through `rpc.ts`),
 * a connection's health is shared (Redis hash `gr:health`) and Kick deliveries that land elsewhere are handed to the
 * holder. See docs/ARCHITECTURE.md, "Several instances".
 */
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { channelProviders, clusterCommands } from '../db/schema';
import { LocalEventBus, type EventBus } from '../lib/event-bus';
import { newId } from '../lib/ids';
import type { ConnectionControl, ConnectionManager } from '../platforms/connection-manager';
import type { KickWebhookOutcome, KickWebhookReceiver } from '../platforms/kick/kick-webhook-receiver';
import type { ConnectionHealth } from '../platforms/port';
import { LeaseOwnership, queryRows, SoloOwnership, type ClusterCommand, type Ownership } from './ownership';
import { connectRedis, type RedisLink } from './redis-link';
import { RedisEventBus } from './redis-bus';
import { redisLock, redisOnce, redisSendWindow, redisSocketCaps } from './redis-state';
import { ConnectionLimiter, type SharedCaps } from '../modules/public-chat';
import type { Redis } from 'ioredis';
import type { SharedSendWindow } from '../platforms/send-queue';
import type { OwnBanChange, OwnBans } from '../platforms/own-actions';
import type { SelfMarker, SelfSendChange } from '../pipeline/self-marker';
import { ClusterRpc } from './rpc';

export type { Ownership } from './ownership';

export interface ClusterLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** What `/api/health` says about this instance. */
export type ClusterStatus =
  { mode: 'single' } | { mode: 'cluster'; instance: string; redis: 'up' | 'down'; channels: number; connections: number };

export interface Cluster {
  readonly bus: EventBus;
  /** The Redis command connection (shared API rate limits), or null alone. */
  readonly redis: Redis | null;
  /** Chat send windows kept together by every instance (null alone: the send queue's own window). */
  readonly sendWindow: SharedSendWindow | null;
  /** A lock around one credential's refresh across instances (undefined alone). */
  readonly lock: ((name: string) => Promise<() => Promise<void>>) | undefined;
  /**
   * Whether this instance runs a periodic job shared by every instance this period (the first to ask does; true
   * while Redis is away). Undefined alone (always this instance).
   */
  readonly once: ((job: string, periodMs: number) => Promise<boolean>) | undefined;
  /** Per-address caps of public sockets counted across instances (undefined alone: each process counts). */
  readonly socketCaps: SharedCaps | undefined;
  readonly ownership: Ownership;
  /** Whether this instance holds the channel (always, alone). */
  owns(channelId: string): boolean;
  /**
   * Wires the connection manager and the Kick receiver in; returns what routes use to (re)open and close
   * connections (the manager itself when alone).
   */
  attach(manager: ConnectionManager, kick: KickWebhookReceiver): ConnectionControl;
  /**
   * Sends begun and bans made here are told to the other instances (and theirs applied here), so the holder
   * recognises their echo as Greenroom's own whichever instance acted.
   */
  shareEchoes(targets: EchoTargets): void;
  /** A connection held here changed health: tell the other instances. */
  shareHealth(channelProviderId: string, health: ConnectionHealth | null): void;
  /** Takes channels (after the connection manager started). */
  start(): Promise<void>;
  status(): ClusterStatus;
  /** Releases the channels, then closes Redis (after the connections closed, before the database does). */
  close(): Promise<void>;
}

/** The in-memory records of Greenroom's own actions whose platform echoes must be recognised. */
export interface EchoTargets {
  self: SelfMarker;
  ownBans: Record<'twitch' | 'kick', OwnBans>;
}

export function singleInstance(log: ClusterLog): Cluster {
  const ownership = new SoloOwnership();
  return {
    bus: new LocalEventBus(log),
    redis: null,
    sendWindow: null,
    lock: undefined,
    once: undefined,
    socketCaps: undefined,
    ownership,
    owns: () => true,
    attach: (manager) => manager,
    shareHealth: () => undefined,
    shareEchoes: () => undefined,
    start: async () => undefined,
    status: () => ({ mode: 'single' }),
    close: async () => undefined,
  };
}

const HEALTH_KEY = 'gr:health';
const ECHO_CHANNEL = 'gr:echo';

/** How long an instance that handed a channel over keeps its connections open at most, waiting for the taker's. */
const HANDOVER_WAIT_MS = 60_000;

export function joinCluster(options: { db: Db; databaseUrl?: string; redisUrl: string; leaseMs?: number; log: ClusterLog }): Cluster {
  const { db, log } = options;
  const link: RedisLink = connectRedis(options.redisUrl, log);
  // The bus's origin id: this process (the lease id can change when a lease is lost).
  const processId = newId();
  const bus = new RedisEventBus(link, processId, log);
  let manager: ConnectionManager | null = null;
  /** Each channel's connection work, one operation at a time (taking, losing, commands). */
  const chains = new Map<string, Promise<void>>();
  const serial = (channelId: string, work: () => Promise<void>): Promise<void> => {
    const next = (chains.get(channelId) ?? Promise.resolve())
      .then(work)
      .catch((error: unknown) => log.warn({ err: error, channelId }, 'cluster connection work failed'));
    chains.set(channelId, next);
    void next.finally(() => {
      if (chains.get(channelId) === next) chains.delete(channelId);
    });
    return next;
  };
  let rpc: ClusterRpc | null = null;
  /** Channels handed to another instance whose connections here stay open until the taker's are up. */
  const handing = new Map<string, NodeJS.Timeout>();
  const closeHandedOver = (channelId: string) => {
    const timer = handing.get(channelId);
    if (!timer) return;
    clearTimeout(timer);
    handing.delete(channelId);
    void serial(channelId, async () => {
      if (!ownership.owns(channelId)) await manager?.closeChannel(channelId);
      ownership.handOverDone(channelId);
    });
  };
  const ownership: LeaseOwnership = new LeaseOwnership({
    db,
    log,
    ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}),
    ...(options.leaseMs ? { leaseMs: options.leaseMs } : {}),
    events: {
      acquired: (taken) => {
        for (const c of taken) {
          const timer = handing.get(c.channelId);
          if (timer) {
            // Came back before the hand-off finished: its connections here are still open.
            clearTimeout(timer);
            handing.delete(c.channelId);
          }
          const opened = serial(c.channelId, async () => void (await manager?.openChannel(c.channelId, c.gapSince)));
          const from = c.from;
          if (from)
            void opened
              .then(() => manager?.channelSettled(c.channelId, HANDOVER_WAIT_MS))
              .then(() => rpc?.notify(from, 'handed-over', { channelId: c.channelId }));
        }
      },
      lost: (ids) => {
        for (const id of ids) {
          clearTimeout(handing.get(id));
          handing.delete(id);
          void serial(id, async () => void (await manager?.closeChannel(id)));
        }
      },
      handedOver: (channelId, to) => {
        rpc?.notify(to, 'nudge');
        clearTimeout(handing.get(channelId));
        const timer = setTimeout(() => closeHandedOver(channelId), HANDOVER_WAIT_MS);
        timer.unref();
        handing.set(channelId, timer);
      },
      commands: (commands: ClusterCommand[]) => {
        for (const c of commands) {
          if (!ownership.owns(c.channelId)) continue;
          void serial(c.channelId, async () => {
            if (c.kind === 'close') await manager?.forget(c.channelProviderId);
            else await manager?.restart(c.channelProviderId);
          });
        }
      },
      renamed: (id) => rpc?.rename(id),
    },
  });
  rpc = new ClusterRpc(link, ownership.instanceId, log);
  rpc.handle('nudge', async () => {
    await ownership.tick();
  });
  // The taker of a handed-over channel has its connections up: close ours (ingested by both meanwhile, stored once).
  rpc.handle('handed-over', async (payload) => {
    const { channelId } = payload as { channelId: string };
    closeHandedOver(channelId);
  });

  const channelOf = async (channelProviderId: string): Promise<string | null> => {
    const [row] = await db
      .select({ channelId: channelProviders.channelId })
      .from(channelProviders)
      .where(eq(channelProviders.id, channelProviderId));
    return row?.channelId ?? null;
  };
  const ownerOf = async (channelId: string): Promise<string | null> => {
    const [row] = await queryRows<{ instance_id: string }>(
      db,
      sql`SELECT o.instance_id FROM channel_owners o JOIN cluster_instances i ON i.id = o.instance_id AND i.expires_at > now()
          WHERE o.channel_id = ${channelId}`,
    );
    return row?.instance_id ?? null;
  };
  /** Queues a command for the holder (read on its next tick, at once when Redis carries the nudge). */
  const command = async (owner: string, channelId: string, channelProviderId: string, kind: ClusterCommand['kind']) => {
    await db.insert(clusterCommands).values({ instanceId: owner, channelId, channelProviderId, kind });
    rpc?.notify(owner, 'nudge');
  };

  return {
    bus,
    redis: link.cmd,
    sendWindow: redisSendWindow(link),
    lock: redisLock(link),
    once: redisOnce(link),
    socketCaps: redisSocketCaps(link, processId, (perIp) => new ConnectionLimiter({ perIp })),
    ownership,
    owns: (channelId) => ownership.owns(channelId),
    attach(m, kick) {
      manager = m;
      // Redis came back (maybe empty, after a restart): the health of what this instance runs is shared again.
      link.onState((up) => {
        if (!up) return;
        for (const id of m.openIds()) {
          const h = m.health(id);
          if (h) void link.cmd.hset(HEALTH_KEY, id, JSON.stringify(h)).catch(() => undefined);
        }
      });
      kick.forwardTo(async (broadcasterUserId, headers, rawBody): Promise<KickWebhookOutcome | null> => {
        const [row] = await queryRows<{ instance_id: string }>(
          db,
          sql`SELECT o.instance_id FROM channel_providers cp
              JOIN channel_owners o ON o.channel_id = cp.channel_id
              JOIN cluster_instances i ON i.id = o.instance_id AND i.expires_at > now()
              WHERE cp.provider = 'kick' AND cp.provider_channel_id = ${broadcasterUserId}
              LIMIT 1`,
        );
        const owner = row?.instance_id;
        if (!owner || owner === ownership.instanceId) return null;
        return (await rpc.call(owner, 'kick', { headers, rawBody })) as KickWebhookOutcome;
      });
      rpc.handle('kick', async (payload) => {
        const { headers, rawBody } = payload as { headers: Record<string, string>; rawBody: string };
        return kick.receive(headers, rawBody, { forwarded: true });
      });
      return {
        async health(id) {
          const local = m.health(id);
          if (local || !link.up) return local;
          try {
            const raw = await link.cmd.hget(HEALTH_KEY, id);
            return raw ? (JSON.parse(raw) as ConnectionHealth) : null;
          } catch {
            return null;
          }
        },
        async restart(id) {
          const channelId = await channelOf(id);
          if (!channelId) return m.restart(id);
          const owner = await ownership.ownerOrClaim(channelId);
          if (owner === ownership.instanceId) return serial(channelId, () => m.restart(id));
          await command(owner, channelId, id, 'restart');
        },
        async remove(id) {
          const channelId = await channelOf(id);
          const owner = channelId ? await ownerOf(channelId) : null;
          if (!channelId || !owner || owner === ownership.instanceId) {
            await m.remove(id);
          } else {
            // The platform-side set-up goes from here (the tokens are about to be revoked); the holder closes.
            await m.teardown(id);
            await command(owner, channelId, id, 'close');
          }
          if (link.up) await link.cmd.hdel(HEALTH_KEY, id).catch(() => undefined);
        },
      };
    },
    shareEchoes(targets) {
      const publish = (change: object) => {
        if (link.up) link.cmd.publish(ECHO_CHANNEL, `${processId}\n${JSON.stringify(change)}`).catch(() => undefined);
      };
      targets.self.mirror = (change) => publish({ kind: 'self', change });
      for (const platform of ['twitch', 'kick'] as const)
        targets.ownBans[platform].mirror = (change) => publish({ kind: 'ban', platform, change });
      link.sub.on('message', (channel: string, raw: string) => {
        if (channel !== ECHO_CHANNEL) return;
        const cut = raw.indexOf('\n');
        if (cut < 0 || raw.slice(0, cut) === processId) return;
        try {
          const message = JSON.parse(raw.slice(cut + 1)) as
            { kind: 'self'; change: SelfSendChange } | { kind: 'ban'; platform: 'twitch' | 'kick'; change: OwnBanChange };
          if (message.kind === 'self') targets.self.apply(message.change);
          else targets.ownBans[message.platform]?.apply(message.change);
        } catch {
          // Not ours to read.
        }
      });
      void link.sub.subscribe(ECHO_CHANNEL).catch(() => undefined);
    },
    shareHealth(id, health) {
      if (!link.up) return;
      const done = health ? link.cmd.hset(HEALTH_KEY, id, JSON.stringify(health)) : link.cmd.hdel(HEALTH_KEY, id);
      done.catch(() => undefined);
    },
    start: () => ownership.start(),
    status: () => ({
      mode: 'cluster',
      instance: ownership.instanceId,
      redis: link.up ? 'up' : 'down',
      channels: ownership.held.size,
      connections: manager?.openCount ?? 0,
    }),
    async close() {
      for (const id of [...handing.keys()]) closeHandedOver(id);
      await ownership.stop();
      await Promise.all([...chains.values()]);
      rpc?.close();
      await bus.close();
      await link.close();
    },
  };
}
