import { describe, expect, it } from 'vitest';
import type { Activity, ModerationEvent } from '@greenroom/contracts/api/events';
import type { activities, chatMessages, moderationEvents } from '../../db/schema';
import { chatMessage } from '../../../test/chat-fixtures';
import { activityFromRow, activityRow, messageFromRow, messageRow, moderationFromRow, moderationRow } from './chat-rows';

/** What a SELECT returns for an inserted row: the insert values plus the generated columns. */
const selected = <T>(row: object, extra: object): T => ({ ...row, seq: 7, ...extra }) as T;

describe('chat log row mappers', () => {
  it('round-trips a chat message (deleted or not)', () => {
    const m = chatMessage(1, { reply: { provider_message_id: 'p', author_display_name: 'A', text: 'hi' }, highlight: '100 bits' });
    expect(messageFromRow(selected<typeof chatMessages.$inferSelect>(messageRow(m), { receivedAt: new Date() }))).toEqual(m);
    const deleted = { ...m, deleted: true };
    const row = messageRow(deleted);
    expect(row.deletedAt).toBeInstanceOf(Date);
    expect(messageFromRow(selected<typeof chatMessages.$inferSelect>(row, { receivedAt: new Date() }))).toEqual(deleted);
  });

  it('round-trips moderation events with and without target and moderator', () => {
    const base: ModerationEvent = {
      id: 'mod1',
      channel_id: 'c1',
      channel_provider_id: 'cp1',
      provider: 'twitch',
      kind: 'timeout',
      target: { provider_user_id: 'u1', display_name: 'Troll' },
      provider_message_id: null,
      duration_seconds: 600,
      reason: 'language',
      moderator: { user_id: null, display_name: 'PlatformMod' },
      source: 'platform',
      occurred_at: '2026-01-01T00:00:00.000Z',
    };
    for (const e of [base, { ...base, kind: 'clear' as const, target: null, moderator: null, duration_seconds: null, reason: null }]) {
      expect(moderationFromRow(selected<typeof moderationEvents.$inferSelect>(moderationRow(e), {}))).toEqual(e);
    }
  });

  it('round-trips activities, anonymous ones too', () => {
    const a: Activity = {
      id: 'a1',
      channel_id: 'c1',
      channel_provider_id: 'cp1',
      provider: 'youtube',
      provider_event_id: 'e1',
      type: 'superchat',
      viewer: { provider_user_id: 'v1', login: 'fan', display_name: 'Fan' },
      tier: null,
      months: null,
      count: null,
      amount: '$5.00',
      message: 'hi',
      occurred_at: '2026-01-01T00:00:00.000Z',
    };
    for (const x of [a, { ...a, viewer: null }])
      expect(activityFromRow(selected<typeof activities.$inferSelect>(activityRow(x), {}))).toEqual(x);
  });
});
