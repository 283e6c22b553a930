import { describe, expect, it } from 'vitest';
import { FakeHubSocket as FakeSocket, chatMessage } from '../../../test/chat-fixtures';
import { LocalEventBus } from '../../lib/event-bus';
import { FanoutHub } from '../chat';
import { publicEncoder } from './public-encoder';

describe('public fan-out', () => {
  it('filters per socket by platform without serialising again', () => {
    const bus = new LocalEventBus();
    const hub = new FanoutHub(bus, publicEncoder());
    const all = new FakeSocket();
    const kickOnly = new FakeSocket();
    hub.join('c1', all);
    hub.join('c1', kickOnly, { providers: new Set(['kick']) });
    bus.publish('channel:c1', { type: 'chat.message', seq: 1, data: chatMessage(1) });
    bus.publish('channel:c1', { type: 'chat.message', seq: 2, data: chatMessage(2, { id: 'kick:m2', provider: 'kick' }) });
    expect(all.sent).toHaveLength(2);
    expect(kickOnly.sent.map((s) => (JSON.parse(s) as { data: { id: string } }).data.id)).toEqual(['kick:m2']);
  });
});

describe('public encoder', () => {
  it('exposes public fields only and turns deletions, bans and clears into chat.removed ids', () => {
    const encode = publicEncoder(100)('c1');
    const out = encode({ type: 'chat.message', seq: 1, data: chatMessage(1) });
    const msg = JSON.parse((out as { payload: string }).payload) as { type: string; seq: number; data: Record<string, unknown> };
    expect(msg.type).toBe('chat.message');
    expect(msg.seq).toBe(1);
    expect(Object.keys(msg.data).sort()).toEqual(['author', 'emotes', 'highlight', 'id', 'provider', 'reply', 'sent_at', 'text']);
    encode({ type: 'chat.message', seq: 2, data: chatMessage(2) });
    encode({ type: 'chat.message', seq: 3, data: chatMessage(3, { author: { ...chatMessage(3).author, provider_user_id: 'u2' } }) });
    const base = {
      channel_id: 'c1',
      channel_provider_id: 'cp1',
      provider: 'twitch' as const,
      duration_seconds: null,
      reason: 'spam',
      moderator: { kind: 'user' as const, user_id: 'x', display_name: 'Mod' },
      source: 'greenroom' as const,
      occurred_at: new Date().toISOString(),
    };
    const ban = encode({
      type: 'chat.moderation',
      data: { ...base, id: 'b', kind: 'ban', target: { provider_user_id: 'u1', display_name: 'Viewer' }, provider_message_id: null },
    });
    expect(JSON.parse((ban as { payload: string }).payload)).toEqual({ type: 'chat.removed', data: { ids: ['twitch:m1', 'twitch:m2'] } });
    const del = encode({ type: 'chat.moderation', data: { ...base, id: 'd', kind: 'delete', target: null, provider_message_id: 'm3' } });
    expect(JSON.parse((del as { payload: string }).payload)).toEqual({ type: 'chat.removed', data: { ids: ['twitch:m3'] } });
    expect(
      encode({
        type: 'chat.moderation',
        data: { ...base, id: 'u', kind: 'unban', target: { provider_user_id: 'u1', display_name: 'V' }, provider_message_id: null },
      }),
    ).toBeNull();
    expect(encode({ type: 'channel.deleted', data: { channel_id: 'c1' } })).toBeNull();
    // A message a filter removed is never shown to the public.
    expect(encode({ type: 'chat.message', seq: 9, data: chatMessage(9, { filtered: { stage: 'links', reason: 'link' } }) })).toBeNull();
  });
});
