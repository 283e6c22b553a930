import { describe, expect, it } from 'vitest';
import type { Activity } from '@greenroom/contracts/api/events';
import { defaultPointSettings, pointSettingsSchema } from '@greenroom/contracts/api/points';
import { activityPoints, BotFilter, MessageEarnings, RecentChatters, withSubMultiplier } from './earning';

const activity = (over: Partial<Activity>): Activity => ({
  id: 'a',
  channel_id: 'c',
  channel_provider_id: 'cp',
  provider: 'twitch',
  provider_event_id: 'e',
  type: 'follow',
  viewer: { provider_user_id: 'u1', login: 'ann', display_name: 'Ann' },
  tier: null,
  months: null,
  count: null,
  amount: null,
  message: null,
  occurred_at: new Date(0).toISOString(),
  ...over,
});

describe('points for activities', () => {
  const s = defaultPointSettings;
  it('pays each kind of activity its setting', () => {
    expect(activityPoints(activity({ type: 'follow' }), s)).toEqual({ kind: 'follow', amount: 50 });
    expect(activityPoints(activity({ type: 'sub' }), s)).toEqual({ kind: 'sub', amount: 500 });
    expect(activityPoints(activity({ type: 'resub', months: 5 }), s)).toEqual({ kind: 'resub', amount: 250 });
    expect(activityPoints(activity({ type: 'membership', months: 1 }), s)).toEqual({ kind: 'sub', amount: 500 });
    expect(activityPoints(activity({ type: 'membership', months: 7 }), s)).toEqual({ kind: 'resub', amount: 250 });
    expect(activityPoints(activity({ type: 'gift', count: 5 }), s)).toEqual({ kind: 'gift', amount: 1250 });
    expect(activityPoints(activity({ type: 'membership_gift', count: 2 }), s)).toEqual({ kind: 'gift', amount: 500 });
    expect(activityPoints(activity({ type: 'raid', count: 300 }), s)).toEqual({ kind: 'raid', amount: 100 });
    expect(activityPoints(activity({ type: 'cheer', count: 250, amount: '250 bits' }), s)).toEqual({ kind: 'cheer', amount: 250 });
    expect(activityPoints(activity({ type: 'superchat', tier: '3', amount: '$10.00' }), s)).toEqual({ kind: 'superchat', amount: 300 });
    expect(activityPoints(activity({ type: 'kicks', count: 500, amount: '500 kicks' }), s)).toEqual({ kind: 'kicks', amount: 500 });
    expect(activityPoints(activity({ type: 'tiktok_gift', count: 2, amount: '1,000 diamonds' }), s)).toEqual({
      kind: 'tiktok_gift',
      amount: 500,
    });
  });

  it('pays nothing for anonymous events, stream status or a zero setting', () => {
    expect(activityPoints(activity({ type: 'cheer', viewer: null, count: 100 }), s)).toBeNull();
    expect(activityPoints(activity({ type: 'stream_online' }), s)).toBeNull();
    // A gifted sub or membership received: the gift already paid its gifter, the recipient bought nothing.
    expect(activityPoints(activity({ type: 'gift_received' }), s)).toBeNull();
    expect(activityPoints(activity({ type: 'membership_gift_received' }), s)).toBeNull();
    expect(activityPoints(activity({ type: 'follow' }), { ...s, follow_points: 0 })).toBeNull();
    expect(activityPoints(activity({ type: 'cheer', count: 50 }), { ...s, cheer_points: 1 })).toBeNull();
  });

  it('multiplies for subscribers, rounding down', () => {
    const settings = pointSettingsSchema.parse({ sub_multiplier: 1.5 });
    expect(withSubMultiplier(5, true, settings)).toBe(7);
    expect(withSubMultiplier(5, false, settings)).toBe(5);
  });
});

describe('message points', () => {
  it('caps each viewer per minute and starts again the next minute', () => {
    const s = pointSettingsSchema.parse({ message_points: 2, message_points_cap_per_minute: 5 });
    const m = new MessageEarnings();
    const t = 60_000 * 1000;
    expect([1, 2, 3, 4].map((i) => m.earn('twitch:a', t + i, s))).toEqual([2, 2, 1, 0]);
    expect(m.earn('twitch:b', t + 5, s)).toBe(2);
    expect(m.earn('twitch:a', t + 60_000, s)).toBe(2);
  });
});

describe('bots', () => {
  it('known bots, added logins and the bot accounts by id never earn', () => {
    const f = new BotFilter(['mybot'], new Set(['kick:42']));
    expect(f.isBot('twitch', '1', 'Nightbot')).toBe(true);
    expect(f.isBot('twitch', '1', 'MyBot')).toBe(true);
    expect(f.isBot('kick', '42', 'whoever')).toBe(true);
    expect(f.isBot('twitch', '42', 'whoever')).toBe(false);
  });
});

describe('recent chatters', () => {
  it('keeps the last window, most recent last, and forgets older ones', () => {
    const r = new RecentChatters(600_000);
    const saw = (id: string, at: number) =>
      r.saw({ provider: 'youtube', providerUserId: id, login: id, displayName: id, subscriber: false, lastAt: at });
    saw('a', 0);
    saw('b', 100_000);
    saw('a', 200_000);
    expect(r.since(0, 300_000).map((c) => c.providerUserId)).toEqual(['b', 'a']);
    expect(r.since(150_000, 300_000).map((c) => c.providerUserId)).toEqual(['a']);
    expect(r.since(0, 750_000).map((c) => c.providerUserId)).toEqual(['a']);
    expect(r.size).toBe(1);
  });
});
