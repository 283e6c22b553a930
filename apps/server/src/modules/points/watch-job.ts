/**
 * Watch-time payouts. Every payout interval (aligned to the clock: 12:00, 12:05 …), each live
 * channel pays everyone watching: the platform's chatter list where it has one (Twitch), else the
 * viewers who chatted in the last 10 minutes on that platform. Viewers who chatted during the
 * interval get the active-chatter bonus; subscribers the multiplier; bots nothing.
 *
 * Exactly once per tick: the channel's tick is claimed in the database before paying (one claimer
 * wins; a claim left by a stopped process is taken over), and every viewer's credit carries the key
 * `watch:<tick>:<identity>`, so a payout that is run again pays nobody twice.
 *
 * Which channels: `liveConnections()` lists the live connections this instance pays for. Today that
 * is every live connection; with several instances it is the connections of the channels the
 * instance holds, and the claim keeps a channel paid once even while it moves between instances.
 */
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import type { RecentChatter } from './domain/earning';
import { withSubMultiplier } from './domain/earning';
import type { EarnBatcher } from './earn-batcher';
import type { EarnEntry, DbPointsRepository } from './points-repository';
import type { PointsState } from './points-state';

export interface LiveConnectionRef {
  channelId: string;
  channelProviderId: string;
  provider: ChannelProviderId;
}

export interface Chatter {
  providerUserId: string;
  login: string;
  displayName: string;
}

export interface WatchJobDeps {
  repo: Pick<DbPointsRepository, 'claimTick' | 'finishTick'>;
  state: Pick<PointsState, 'get'>;
  batcher: Pick<EarnBatcher, 'addMany'>;
  liveConnections(): Promise<LiveConnectionRef[]>;
  /** The platform's chatter list; null where the platform has none (or it could not be read: fall back). */
  chatters(connection: LiveConnectionRef): Promise<Chatter[] | null>;
  instanceId: string;
  log: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
  clock?: () => number;
  /** How often to look for a due tick (default 15 s). */
  checkEveryMs?: number;
}

export class WatchTimeJob {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private readonly clock: () => number;

  constructor(private readonly deps: WatchJobDeps) {
    this.clock = deps.clock ?? Date.now;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.runOnce(), this.deps.checkEveryMs ?? 15_000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One pass: pays every live channel whose current tick is not paid yet. Never overlaps itself. */
  runOnce(): Promise<void> {
    this.running ??= this.pass()
      .catch((error: unknown) => this.deps.log.warn({ err: error }, 'watch-time payout failed'))
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  private async pass(): Promise<void> {
    const byChannel = new Map<string, LiveConnectionRef[]>();
    for (const c of await this.deps.liveConnections()) byChannel.set(c.channelId, [...(byChannel.get(c.channelId) ?? []), c]);
    for (const [channelId, connections] of byChannel) {
      try {
        await this.payChannel(channelId, connections);
      } catch (error) {
        this.deps.log.warn({ err: error, channelId }, 'watch-time payout of a channel failed');
      }
    }
  }

  /** Pays one channel's current tick if it is due and this instance wins its claim; the viewers paid, or null. */
  async payChannel(channelId: string, connections: LiveConnectionRef[]): Promise<number | null> {
    const c = this.deps.state.get(channelId);
    const s = c.settings;
    if (!s.enabled || (s.watch_points_per_minute === 0 && s.active_chatter_bonus === 0)) return null;
    const intervalMs = s.payout_interval_minutes * 60_000;
    const now = this.clock();
    const tickAt = Math.floor(now / intervalMs) * intervalMs;
    if (c.lastTick === tickAt) return null;
    c.lastTick = tickAt;
    try {
      if (!(await this.deps.repo.claimTick(channelId, new Date(tickAt), this.deps.instanceId, 2 * 60_000))) return null;
      return await this.pay(channelId, connections, tickAt, intervalMs, now);
    } catch (error) {
      // Tried again on the next pass (the claim is this instance's; the keys prevent double pay).
      c.lastTick = 0;
      throw error;
    }
  }

  private async pay(channelId: string, connections: LiveConnectionRef[], tickAt: number, intervalMs: number, now: number): Promise<number> {
    const c = this.deps.state.get(channelId);
    const s = c.settings;

    // Who chatted during the interval (bonus, and watching on platforms without a chatter list).
    const recent = c.recent.since(now - 10 * 60_000, now);
    const active = new Set(recent.filter((r) => r.lastAt >= tickAt - intervalMs).map((r) => `${r.provider}:${r.providerUserId}`));
    const known = new Map<string, RecentChatter>(recent.map((r) => [`${r.provider}:${r.providerUserId}`, r]));
    const watching = new Map<string, { provider: ChannelProviderId; chatter: Chatter; subscriber: boolean }>();
    for (const conn of connections) {
      const list = await this.deps.chatters(conn).catch(() => null);
      if (list) {
        for (const ch of list) {
          const key = `${conn.provider}:${ch.providerUserId}`;
          watching.set(key, { provider: conn.provider, chatter: ch, subscriber: known.get(key)?.subscriber ?? false });
        }
      } else {
        for (const r of recent) {
          if (r.provider !== conn.provider) continue;
          watching.set(`${r.provider}:${r.providerUserId}`, {
            provider: r.provider,
            chatter: { providerUserId: r.providerUserId, login: r.login, displayName: r.displayName },
            subscriber: r.subscriber,
          });
        }
      }
    }
    const base = s.watch_points_per_minute * s.payout_interval_minutes;
    const entries: EarnEntry[] = [];
    for (const [key, w] of watching) {
      if (c.bots.isBot(w.provider, w.chatter.providerUserId, w.chatter.login)) continue;
      const amount = withSubMultiplier(base + (active.has(key) ? s.active_chatter_bonus : 0), w.subscriber, s);
      if (amount <= 0) continue;
      entries.push({
        channelId,
        identity: {
          provider: w.provider,
          providerUserId: w.chatter.providerUserId,
          login: w.chatter.login,
          displayName: w.chatter.displayName,
        },
        amount,
        kind: 'watch',
        key: `watch:${new Date(tickAt).toISOString()}:${key}`,
      });
    }
    await this.deps.batcher.addMany(entries);
    await this.deps.repo.finishTick(channelId, new Date(tickAt), entries.length);
    return entries.length;
  }
}
