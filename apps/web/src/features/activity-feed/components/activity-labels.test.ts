import { describe, expect, it } from 'vitest';
import type { Activity } from '@greenroom/contracts/api/events';
import { activityDetails, activityHeadline } from './activity-labels';

const base: Activity = {
  id: 'a1',
  channel_id: 'c1',
  channel_provider_id: 'cp1',
  provider: 'twitch',
  provider_event_id: 'e1',
  type: 'raid',
  viewer: { provider_user_id: 'u1', login: 'alice', display_name: 'Alice' },
  tier: null,
  months: null,
  count: 42,
  amount: null,
  message: null,
  occurred_at: '2026-01-01T00:00:00Z',
};

describe('activity labels', () => {
  it('names the viewer and the action', () => {
    expect(activityHeadline(base)).toBe('Alice raided');
    expect(activityHeadline({ ...base, type: 'gift', viewer: null })).toBe('Anonymous gifted subs');
    expect(activityHeadline({ ...base, type: 'stream_online', viewer: null })).toBe('Stream went live');
  });

  const texts = (a: Activity) => activityDetails(a).map((d) => d.text);

  it('shows raid viewers, Twitch tiers and months', () => {
    expect(texts(base)).toEqual(['42 viewers']);
    expect(texts({ ...base, type: 'resub', count: null, tier: '2000', months: 12 })).toEqual(['Tier 2', '12 months']);
    expect(texts({ ...base, type: 'cheer', count: 100, amount: '100 bits' })).toEqual(['100 bits']);
  });

  it('counts in the singular when there is one, and says each thing once with what it means', () => {
    expect(texts({ ...base, type: 'gift', count: 1, tier: '1000' })).toEqual(['Tier 1', '1 gift']);
    expect(texts({ ...base, type: 'gift', count: 5, tier: '1000' })).toEqual(['Tier 1', '5 gifts']);
    expect(texts({ ...base, type: 'resub', count: null, months: 1 })).toEqual(['1 month']);
    const kicks = activityDetails({ ...base, provider: 'kick', type: 'kicks', count: 500, tier: 'Hype', amount: '500 kicks' });
    expect(kicks).toEqual([
      { text: '500 Kicks', meaning: 'Kicks sent' },
      { text: 'Gift: Hype', meaning: 'The Kicks gift sent' },
    ]);
    expect(texts({ ...base, provider: 'tiktok', type: 'tiktok_gift', count: 5, tier: 'Rose', amount: '5 diamonds' })).toEqual([
      'Rose × 5',
      '5 diamonds',
    ]);
    for (const detail of activityDetails({ ...base, type: 'cheer', count: 500, amount: '500 bits' })) {
      expect(detail.meaning).not.toBe('');
      expect(detail.text).not.toMatch(/^×/);
    }
  });
});
