import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChannelProvider } from '@greenroom/contracts/api/channel-providers';
import { applyToList } from '../../api/live-channel-providers';
import { needsReconnect, reconnectNeeded } from './provider-updates';

const provider = (id: string, extra: Partial<ChannelProvider> = {}): ChannelProvider => ({
  id,
  channel_id: 'c1',
  provider: 'twitch',
  provider_channel_name: `name-${id}`,
  provider_channel_id: `pid-${id}`,
  live_stream_id: null,
  scope_needed: false,
  bot_provider: null,
  is_live: false,
  viewer_count: null,
  health: null,
  dashboard_url: null,
  created_at: '2026-11-22T00:00:00.000Z',
  ...extra,
});

describe('provider updates messages', () => {
  it('"new" puts the item at the front, "updated" replaces by id in place, "deleted" removes it', () => {
    const list = [provider('a'), provider('b')];
    expect(applyToList(list, { action: 'new', data: provider('c') }).map((p) => p.id)).toEqual(['c', 'a', 'b']);
    const updated = applyToList(list, { action: 'updated', data: provider('b', { is_live: true }) });
    expect(updated.map((p) => p.id)).toEqual(['a', 'b']);
    expect(updated[1]!.is_live).toBe(true);
    expect(applyToList(list, { action: 'deleted', data: provider('a') }).map((p) => p.id)).toEqual(['b']);
  });

  it('keeps an "updated" for an item the list did not have yet (it arrived before the list loaded)', () => {
    expect(applyToList([provider('a')], { action: 'updated', data: provider('z') }).map((p) => p.id)).toEqual(['z', 'a']);
  });

  it('applying any message twice gives the same list as applying it once, with ids unique', () => {
    const action = fc.constantFrom('new' as const, 'updated' as const, 'deleted' as const);
    const id = fc.constantFrom('a', 'b', 'c', 'd');
    fc.assert(
      fc.property(fc.uniqueArray(id), fc.array(fc.record({ action, id })), (start, messages) => {
        let list = start.map((i) => provider(i));
        for (const m of messages) {
          const message = { action: m.action, data: provider(m.id) };
          const once = applyToList(list, message);
          expect(applyToList(once, message)).toEqual(once);
          list = once;
          expect(new Set(list.map((p) => p.id)).size).toBe(list.length);
        }
      }),
    );
  });
});

describe('Platforms nav badge count', () => {
  it('is "none" with no connection, else the number needing reconnect (own scope or own bot, not the system bot)', () => {
    expect(reconnectNeeded([])).toBe('none');
    const bot = { id: 'b', provider: 'twitch' as const, display_name: 'Bot', scope_needed: true, system: false };
    const list = [
      provider('a', { scope_needed: true }),
      provider('b', { bot_provider: bot }),
      provider('c', { bot_provider: { ...bot, system: true } }),
      provider('d'),
    ];
    expect(list.map(needsReconnect)).toEqual([true, true, false, false]);
    expect(reconnectNeeded(list)).toBe(2);
  });
});
