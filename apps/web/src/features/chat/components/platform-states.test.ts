import { describe, expect, it } from 'vitest';
import type { ChannelProvider } from '@greenroom/contracts/api/channel-providers';
import type { ChatGap } from '@greenroom/contracts/api/events';
import { gapText } from './chat-gap-row';
import { platformChatState } from './platform-states';

function provider(over: Partial<ChannelProvider>): ChannelProvider {
  return {
    id: 'cp1',
    channel_id: 'c1',
    provider: 'twitch',
    provider_channel_name: 'streamer',
    provider_channel_id: '1',
    live_stream_id: null,
    scope_needed: false,
    bot_provider: null,
    is_live: true,
    viewer_count: null,
    health: null,
    dashboard_url: null,
    created_at: '2026-01-01T00:00:00.000Z',
    ...over,
  };
}
const health = (state: NonNullable<ChannelProvider['health']>['state']) => ({
  state,
  detail: null,
  since: '',
  last_event_at: null,
  reconnects: 0,
});

describe('platform chat state', () => {
  it('maps connection health to connected, reconnecting, reconnect needed or offline', () => {
    expect(platformChatState(provider({ health: health('connected') }))).toBe('connected');
    expect(platformChatState(provider({ health: health('reconnecting') }))).toBe('reconnecting');
    expect(platformChatState(provider({ health: health('connecting') }))).toBe('reconnecting');
    expect(platformChatState(provider({ health: health('error') }))).toBe('reconnecting');
    expect(platformChatState(provider({ health: health('needs_reauth') }))).toBe('reconnect_needed');
    expect(platformChatState(provider({ health: health('connected'), scope_needed: true }))).toBe('reconnect_needed');
    expect(platformChatState(provider({ health: health('offline') }))).toBe('offline');
    expect(platformChatState(provider({ health: null }))).toBe('offline');
  });
});

describe('gap line', () => {
  const gap = (over: Partial<ChatGap>): ChatGap => ({
    id: 'g',
    channel_id: 'c1',
    channel_provider_id: 'cp1',
    provider: 'kick',
    reason: 'platform',
    started_at: '2026-01-01T10:00:00.000Z',
    ended_at: '2026-01-01T10:01:05.000Z',
    lost: 0,
    ...over,
  });
  it('says which platform stopped and for how long (h:mm:ss), or how many messages were lost', () => {
    expect(gapText(gap({}))).toMatch(/^Kick chat was interrupted for 0:01:05 \(/);
    expect(gapText(gap({ ended_at: '2026-01-01T10:00:00.300Z' }))).toMatch(/interrupted for less than a second/);
    expect(gapText(gap({ reason: 'lost', lost: 1234 }))).toMatch(/^1,234 Kick messages could not be saved/);
    expect(gapText(gap({ reason: 'lost', lost: 1 }))).toMatch(/^1 Kick message could not be saved/);
  });
});
