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

  it('shows raid viewers, Twitch tiers and months', () => {
    expect(activityDetails(base)).toEqual(['42 viewers']);
    expect(activityDetails({ ...base, type: 'resub', count: null, tier: '2000', months: 12 })).toEqual(['Tier 2', '12 months']);
    expect(activityDetails({ ...base, type: 'cheer', count: null, amount: '100 bits' })).toEqual(['100 bits']);
  });
});
