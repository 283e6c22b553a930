/**
 * What viewers earn, decided in memory on the chat path: points for a platform activity, points for
 * a chat message within the per-minute cap, the viewers who chatted recently (they count as
 * watching where the platform has no chatter list, and get the active-chatter bonus), and who never
 * earns (bot accounts).
 */
import type { Activity } from '@greenroom/contracts/api/events';
import type { LedgerKind, PointSettings } from '@greenroom/contracts/api/points';
import type { ChannelProviderId } from '@greenroom/contracts/providers';

/** Well-known chat bots and viewer-list bots; they never earn points. Lower case logins. */
export const KNOWN_BOTS: ReadonlySet<string> = new Set([
  'nightbot',
  'streamelements',
  'streamlabs',
  'moobot',
  'fossabot',
  'wizebot',
  'sery_bot',
  'botrix',
  'botrixoficial',
  'kicbot',
  'soundalerts',
  'blerp',
  'pretzelrocks',
  'streamstickers',
  'own3d',
  'tangiabot',
  'kofistreambot',
  'stay_hydrated_bot',
  'phantombot',
  'deepbot',
  'coebot',
  'vivbot',
  'creatisbot',
  'frostytoolsdotcom',
  'botisimo',
  'restreambot',
  'commanderroot',
  'anotherttvviewer',
  'lurxx',
  'electricallongboard',
  'drapsnatt',
  'aliengathering',
  'streamjar',
  'scorpbot',
  'ankhbot',
  'streamlootsbot',
]);

/** `${provider}:${provider_user_id}`: one platform identity. */
export type IdentityKey = string;
export const identityKey = (provider: ChannelProviderId, providerUserId: string): IdentityKey => `${provider}:${providerUserId}`;

/** Who never earns in a channel: known bots, the logins the streamer added, and the bot accounts by id. */
export class BotFilter {
  private readonly logins: ReadonlySet<string>;
  constructor(
    ignoredLogins: readonly string[],
    /** The channel's own bots and the system bots, by identity key. */
    private readonly botIds: ReadonlySet<IdentityKey> = new Set(),
  ) {
    this.logins = new Set(ignoredLogins.map((l) => l.toLowerCase()));
  }

  isBot(provider: ChannelProviderId, providerUserId: string, login: string): boolean {
    const l = login.toLowerCase();
    return KNOWN_BOTS.has(l) || this.logins.has(l) || this.botIds.has(identityKey(provider, providerUserId));
  }
}

const firstInt = (text: string | null): number | null => {
  const m = /(\d[\d,]*)/u.exec(text ?? '');
  return m ? Number(m[1]!.replaceAll(',', '')) : null;
};

/** The points an activity earns its viewer (null: none), and the ledger kind. */
export function activityPoints(activity: Activity, s: PointSettings): { kind: LedgerKind; amount: number } | null {
  if (!activity.viewer) return null;
  const per100 = (rate: number, units: number | null) => Math.floor((rate * Math.max(0, units ?? 0)) / 100);
  let kind: LedgerKind;
  let amount: number;
  switch (activity.type) {
    case 'follow':
      [kind, amount] = ['follow', s.follow_points];
      break;
    case 'sub':
      [kind, amount] = ['sub', s.sub_points];
      break;
    case 'membership':
      // A membership milestone (months > 1) is a renewal.
      [kind, amount] = (activity.months ?? 1) > 1 ? ['resub', s.resub_points] : ['sub', s.sub_points];
      break;
    case 'resub':
      [kind, amount] = ['resub', s.resub_points];
      break;
    case 'gift':
    case 'membership_gift':
      [kind, amount] = ['gift', s.gift_points * Math.max(1, activity.count ?? 1)];
      break;
    case 'raid':
      [kind, amount] = ['raid', s.raid_points];
      break;
    case 'cheer':
      [kind, amount] = ['cheer', per100(s.cheer_points, activity.count ?? firstInt(activity.amount))];
      break;
    case 'superchat':
    case 'supersticker':
      [kind, amount] = ['superchat', s.superchat_points * Math.max(1, firstInt(activity.tier) ?? 1)];
      break;
    case 'kicks':
      [kind, amount] = ['kicks', per100(s.kicks_points, activity.count ?? firstInt(activity.amount))];
      break;
    case 'tiktok_gift':
      [kind, amount] = ['tiktok_gift', per100(s.tiktok_gift_points, firstInt(activity.amount))];
      break;
    default:
      return null;
  }
  return amount > 0 ? { kind, amount } : null;
}

/** Points scaled for subscribers and members. */
export function withSubMultiplier(amount: number, subscriber: boolean, s: PointSettings): number {
  return subscriber ? Math.floor(amount * s.sub_multiplier) : amount;
}

/**
 * Per-message points with a per-minute cap, per viewer. Only the current minute is kept (the map is
 * cleared when the minute turns), so memory is bounded by the viewers chatting in one minute.
 *
 * Each earning message of a minute takes the next slot (0, 1, …); the slot is part of the credit's
 * ledger key, so the database holds the cap as truth: after a restart, or with two instances, a
 * slot already credited this minute is not credited again.
 */
export class MessageEarnings {
  private minute = -1;
  private readonly earned = new Map<IdentityKey, { points: number; slots: number }>();

  /** The points this message earns (before the sub multiplier; 0 when the cap is reached), its minute and slot. */
  earn(key: IdentityKey, now: number, s: PointSettings): { amount: number; minute: number; slot: number } {
    const minute = Math.floor(now / 60_000);
    if (minute !== this.minute) {
      this.minute = minute;
      this.earned.clear();
    }
    const before = this.earned.get(key) ?? { points: 0, slots: 0 };
    const amount = Math.max(0, Math.min(s.message_points, s.message_points_cap_per_minute - before.points));
    if (amount > 0) this.earned.set(key, { points: before.points + amount, slots: before.slots + 1 });
    return { amount, minute, slot: before.slots };
  }
}

/** The ledger key of a message's points: one per viewer, minute and slot, so the cap holds across restarts and instances. */
export const messageEarnKey = (key: IdentityKey, minute: number, slot: number): string => `msg:${key}:${minute}:${slot}`;

export interface RecentChatter {
  provider: ChannelProviderId;
  providerUserId: string;
  login: string;
  displayName: string;
  subscriber: boolean;
  lastAt: number;
}

/**
 * Viewers who chatted recently, most recent last (a Map keeps insertion order; a new line moves the
 * viewer to the end), pruned from the front.
 */
export class RecentChatters {
  private readonly byKey = new Map<IdentityKey, RecentChatter>();

  constructor(
    private readonly windowMs: number,
    private readonly max = 100_000,
  ) {}

  saw(c: RecentChatter): void {
    const key = identityKey(c.provider, c.providerUserId);
    this.byKey.delete(key);
    this.byKey.set(key, c);
    if (this.byKey.size > this.max) this.byKey.delete(this.byKey.keys().next().value!);
  }

  /** The viewers who chatted since `since` (ms), after dropping those older than the window. */
  since(since: number, now: number): RecentChatter[] {
    const cutoff = now - this.windowMs;
    for (const [key, c] of this.byKey) {
      if (c.lastAt >= cutoff) break;
      this.byKey.delete(key);
    }
    const out: RecentChatter[] = [];
    for (const c of this.byKey.values()) if (c.lastAt >= since) out.push(c);
    return out;
  }

  get size(): number {
    return this.byKey.size;
  }
}
