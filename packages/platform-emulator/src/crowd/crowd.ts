/**
 * The crowd simulator: chat and events on every live channel at a configurable rate, deterministic
 * under the seed. Timers tick every `tickMs` and emit as many messages as the rate calls for, so
 * high rates become batches rather than more timers.
 */
import type { SeededRandom } from '../random';
import type { Channel, Platform, World } from '../world';
import { CrowdGenerator } from './generator';

export interface CrowdOptions {
  /** Total chat messages per second across all live channels without their own rate (0.1–20,000). Default 2. */
  rate?: number;
  /** Total non-chat events (follows, subs, gifts, raids, cheers…) per second across live channels. Default 0.05. */
  eventRate?: number;
  /** Platforms the crowd is active on. Default: twitch, youtube, kick, tiktok. */
  platforms?: Platform[];
  /** Timer period in ms. Default 50. */
  tickMs?: number;
  /** Start when the emulator starts. Default true. */
  autoStart?: boolean;
}

export interface CrowdStatus {
  running: boolean;
  rate: number;
  eventRate: number;
  channelRates: Record<string, number>;
  platforms: Platform[];
  generated: { messages: number; events: number };
}

export const maxCrowdRate = 20_000;

export class Crowd {
  private readonly generator: CrowdGenerator;
  private timer: NodeJS.Timeout | null = null;
  private lastTick = 0;
  private rate: number;
  private eventRate: number;
  private readonly channelRates = new Map<string, number>();
  private readonly chatDebt = new Map<string, number>();
  private eventDebt = 0;
  private readonly platforms: Platform[];
  private readonly tickMs: number;
  readonly generated = { messages: 0, events: 0 };

  constructor(
    private readonly world: World,
    private readonly random: SeededRandom,
    options: CrowdOptions = {},
  ) {
    this.generator = new CrowdGenerator(world, random);
    this.rate = options.rate ?? 2;
    this.eventRate = options.eventRate ?? 0.05;
    this.platforms = options.platforms ?? ['twitch', 'youtube', 'kick', 'tiktok'];
    this.tickMs = options.tickMs ?? 50;
    world.on('reset', () => {
      this.random.reset();
      this.generator.invalidate();
      this.chatDebt.clear();
      this.eventDebt = 0;
    });
  }

  get running(): boolean {
    return this.timer !== null;
  }

  start(): void {
    if (this.timer) return;
    this.lastTick = Date.now();
    this.timer = setInterval(() => {
      const now = Date.now();
      this.tick(now - this.lastTick);
      this.lastTick = now;
    }, this.tickMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** `setRate(total)` for all channels, or `setRate('twitch:123', rate)` for one channel (null clears it). */
  setRate(rateOrChannel: number | string, rate?: number | null): void {
    if (typeof rateOrChannel === 'number') {
      this.rate = Math.max(0, rateOrChannel);
      return;
    }
    if (rate === null || rate === undefined) this.channelRates.delete(rateOrChannel);
    else this.channelRates.set(rateOrChannel, Math.max(0, rate));
  }

  setEventRate(rate: number): void {
    this.eventRate = Math.max(0, rate);
  }

  status(): CrowdStatus {
    return {
      running: this.running,
      rate: this.rate,
      eventRate: this.eventRate,
      channelRates: Object.fromEntries(this.channelRates),
      platforms: this.platforms,
      generated: { ...this.generated },
    };
  }

  /** Live channels the crowd chats in. */
  liveChannels(): Channel[] {
    return this.world.channelsOf().filter((c) => c.live && this.platforms.includes(c.platform));
  }

  /** Advances simulated time by `ms`, posting the messages and events due (called by the timer; callable by tests). */
  tick(ms: number): void {
    const channels = this.liveChannels();
    if (channels.length === 0) return;
    const seconds = Math.min(ms, 5000) / 1000;
    const shared = channels.filter((c) => !this.channelRates.has(`${c.platform}:${c.id}`));
    const sharedRate = shared.length ? this.rate / shared.length : 0;
    for (const channel of channels) {
      const key = `${channel.platform}:${channel.id}`;
      const rate = this.channelRates.get(key) ?? sharedRate;
      const due = (this.chatDebt.get(key) ?? 0) + rate * seconds;
      const count = Math.floor(due);
      this.chatDebt.set(key, due - count);
      for (let i = 0; i < count; i++) this.world.postChat(this.generator.message(channel));
      this.generated.messages += count;
    }
    this.eventDebt += this.eventRate * seconds;
    while (this.eventDebt >= 1) {
      this.eventDebt -= 1;
      this.world.postEvent(this.generator.event(this.random.pick(channels)));
      this.generated.events++;
    }
  }

  /** Posts `count` messages now, spread over the given channel or every live channel. */
  burst(count: number, channel?: Channel): number {
    const channels = channel ? [channel] : this.liveChannels();
    if (channels.length === 0) return 0;
    for (let i = 0; i < count; i++) this.world.postChat(this.generator.message(channels[i % channels.length]!));
    this.generated.messages += count;
    return count;
  }

  /** Posts `count` events now. */
  burstEvents(count: number, channel?: Channel): number {
    const channels = channel ? [channel] : this.liveChannels();
    if (channels.length === 0) return 0;
    for (let i = 0; i < count; i++) this.world.postEvent(this.generator.event(channels[i % channels.length]!));
    this.generated.events += count;
    return count;
  }

  /** Builds messages without posting them (benchmarks the generator alone). */
  generateOnly(count: number, channel: Channel): number {
    let chars = 0;
    for (let i = 0; i < count; i++) chars += this.generator.message(channel).text.length;
    return chars;
  }
}
