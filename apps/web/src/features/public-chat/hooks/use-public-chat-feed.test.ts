import { describe, expect, it } from 'vitest';
import type { PublicChatMessage } from '@greenroom/contracts/api/chat';
import { applyPublicEvents } from './use-public-chat-feed';

const m = (id: string): PublicChatMessage => ({
  id,
  provider: 'twitch',
  author: {
    provider_user_id: 'u',
    login: 'u',
    display_name: 'U',
    color: null,
    avatar_url: null,
    badges: [],
    roles: { broadcaster: false, moderator: false, vip: false, subscriber: false, member: false, verified: false },
    is_self: false,
  },
  text: id,
  emotes: [],
  reply: null,
  sent_at: '2026-01-01T00:00:00Z',
  highlight: null,
});

describe('public chat list', () => {
  it('appends, dedupes, hides removed messages and keeps the newest max', () => {
    let list = applyPublicEvents(
      [],
      ['a', 'b', 'c', 'b'].map((id) => ({ type: 'message' as const, message: m(id) })),
      10,
    );
    expect(list.map((x) => x.id)).toEqual(['a', 'b', 'c']);
    list = applyPublicEvents(list, [{ type: 'removed', ids: ['b'] }], 10);
    expect(list.map((x) => x.id)).toEqual(['a', 'c']);
    list = applyPublicEvents(list, [{ type: 'message', message: m('d') }], 2);
    expect(list.map((x) => x.id)).toEqual(['c', 'd']);
  });
});
