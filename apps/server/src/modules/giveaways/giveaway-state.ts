/**
 * What the giveaway chat stage reads synchronously per channel: the giveaway taking entries (its
 * keyword and who may enter) and the winners whose chat lines are being watched (their claim, and
 * a few minutes of what they say after the draw) by every platform identity of their wallet.
 */
import type { ChannelProviderId } from '@greenroom/contracts/providers';

export interface OpenGiveaway {
  id: string;
  keyword: string;
  entryMode: 'keyword' | 'tickets';
  maxTickets: number;
  minLevel: number;
  platforms: readonly ChannelProviderId[];
  closesAt: number | null;
}

export interface WatchedWinner {
  giveawayId: string;
  winnerId: string;
  /** Lines are kept until then (the claim deadline, or a few minutes after the draw). */
  until: number;
}

/** How long after a draw a winner's chat lines are still shown. */
export const WINNER_WATCH_MS = 10 * 60_000;

export class ChannelGiveaways {
  open: OpenGiveaway | null = null;
  /** By identity (`${provider}:${provider_user_id}`). */
  readonly winners = new Map<string, WatchedWinner[]>();

  watch(identityKeys: readonly string[], w: WatchedWinner): void {
    for (const key of identityKeys) this.winners.set(key, [...(this.winners.get(key) ?? []).filter((x) => x.winnerId !== w.winnerId), w]);
  }

  unwatch(winnerId: string): void {
    for (const [key, list] of this.winners) {
      const rest = list.filter((w) => w.winnerId !== winnerId);
      if (rest.length) this.winners.set(key, rest);
      else this.winners.delete(key);
    }
  }

  /** The watched winners of an identity now (forgets the ones past their time). */
  watching(identityKey: string, now: number): WatchedWinner[] {
    const list = this.winners.get(identityKey);
    if (!list) return [];
    const live = list.filter((w) => w.until >= now);
    if (live.length !== list.length) {
      if (live.length) this.winners.set(identityKey, live);
      else this.winners.delete(identityKey);
    }
    return live;
  }
}

export class GiveawayState {
  private readonly channels = new Map<string, ChannelGiveaways>();

  get(channelId: string): ChannelGiveaways | undefined {
    return this.channels.get(channelId);
  }

  of(channelId: string): ChannelGiveaways {
    let c = this.channels.get(channelId);
    if (!c) this.channels.set(channelId, (c = new ChannelGiveaways()));
    return c;
  }

  clear(): void {
    this.channels.clear();
  }
}
