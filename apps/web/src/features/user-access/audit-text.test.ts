import { describe, expect, it } from 'vitest';
import { auditDetails, describeAuditEntry, humanizeAction } from './audit-text';

describe('describeAuditEntry', () => {
  it('describes staff changes with names and level labels', () => {
    expect(describeAuditEntry({ action: 'staff.level_changed', data: { target_display_name: 'Mona', from_level: 7, to_level: 100 } })).toBe(
      'changed Mona from Mod to Editor',
    );
    expect(describeAuditEntry({ action: 'staff.removed', data: { target_display_name: 'Mona', from_level: 200, to_level: null } })).toBe(
      'removed Mona (Admin)',
    );
    expect(
      describeAuditEntry({ action: 'staff.ownership_transferred', data: { target_display_name: 'Eddie', from_level: 100, to_level: 500 } }),
    ).toBe('transferred ownership to Eddie and became Admin');
    expect(describeAuditEntry({ action: 'staff.invite_accepted', data: { from_level: null, to_level: 7 } })).toBe(
      'joined as Mod through an invitation',
    );
    expect(describeAuditEntry({ action: 'staff.invite_accepted', data: { from_level: 7, to_level: 100 } })).toBe(
      'accepted an invitation: Mod to Editor',
    );
    expect(describeAuditEntry({ action: 'staff.invite_created', data: { invite_level: 200 } })).toBe('created an invitation for Admin');
  });

  it('falls back for a deleted target and for unknown levels', () => {
    expect(describeAuditEntry({ action: 'staff.removed', data: { target_display_name: null, from_level: 3 } })).toBe(
      'removed a former user (no role)',
    );
  });

  it('says what moderation did, to whom, on which platform and for how long, without ids', () => {
    const base = { provider: 'twitch', channel_provider_id: 'cp-1', provider_viewer_id: '138837861' };
    expect(
      describeAuditEntry({
        action: 'moderation.timeout',
        data: { ...base, viewer_display_name: 'Troll', duration_seconds: 600, reason: 'spam' },
      }),
    ).toBe('timed out Troll on Twitch for 0:10:00 — “spam”');
    expect(
      describeAuditEntry({ action: 'moderation.ban', data: { ...base, provider: 'kick', viewer_display_name: 'Spammer', reason: null } }),
    ).toBe('banned Spammer on Kick');
    expect(describeAuditEntry({ action: 'moderation.unban', data: base })).toBe('unbanned a viewer on Twitch');
    expect(
      describeAuditEntry({
        action: 'moderation.delete_message',
        data: { ...base, viewer_display_name: 'Troll', message_text: 'buy followers' },
      }),
    ).toBe('deleted a message by Troll on Twitch: “buy followers”');
  });

  it('says who sent a message as whom, and what changed on the channel', () => {
    expect(
      describeAuditEntry({ action: 'chat.sent', data: { provider: 'twitch', as: 'bot', account: 'GreenroomBot', text: 'hello chat' } }),
    ).toBe('sent “hello chat” on Twitch as the bot (GreenroomBot)');
    expect(
      describeAuditEntry({ action: 'chat.sent', data: { provider: 'kick', as: 'broadcaster', account: 'greenroomdemo', text: 'hi' } }),
    ).toBe('sent “hi” on Kick as the streamer (greenroomdemo)');
    expect(
      describeAuditEntry({
        action: 'stream.updated',
        data: { provider: 'twitch', title: 'New run', category_id: '1', category_name: 'Celeste' },
      }),
    ).toBe('changed the title to “New run” and the category to Celeste on Twitch');
    expect(describeAuditEntry({ action: 'platform.connected', data: { provider: 'youtube', provider_channel_name: 'retrorunner' } })).toBe(
      'connected YouTube (retrorunner)',
    );
    expect(describeAuditEntry({ action: 'channel.renamed', data: { from: 'Old', to: 'New' } })).toBe(
      'renamed the channel from “Old” to “New”',
    );
  });

  it('says what staff did to a viewer’s points', () => {
    expect(
      describeAuditEntry({ action: 'points.unlinked', data: { wallet_id: 'w1', provider: 'kick', provider_user_id: '9', viewer: 'Ann' } }),
    ).toBe('unlinked Ann’s Kick account from their points wallet');
    expect(
      describeAuditEntry({ action: 'points.adjusted', data: { wallet_id: 'w1', viewer: 'Ann', delta: -1500, balance: 0, reason: 'Spam' } }),
    ).toBe('removed 1,500 points from Ann — “Spam”');
    expect(describeAuditEntry({ action: 'points.adjusted', data: { viewer: 'Bob', delta: 20, reason: 'Won the quiz' } })).toBe(
      'added 20 points to Bob — “Won the quiz”',
    );
  });

  it('shows unknown actions of other features in words, without ids', () => {
    expect(
      describeAuditEntry({
        action: 'giveaways.drawn',
        data: { giveaway_id: 'g1', provider: 'twitch', winner: 'troll42', nested: { a: 1 } },
      }),
    ).toBe('Giveaways: drawn — provider Twitch, winner troll42');
    expect(describeAuditEntry({ action: 'widgets', data: {} })).toBe('Widgets');
  });
});

describe('helpers', () => {
  it('humanizes action names', () => {
    expect(humanizeAction('chat_commands.updated')).toBe('Chat commands: updated');
    expect(humanizeAction('moderation.delete_message')).toBe('Moderation: delete message');
  });

  it('keeps at most four simple fields, no ids', () => {
    expect(auditDetails({ a: 1, b: true, some_id: 'x', c: 'x', d: 2, e: 3, f: null })).toBe('a 1, b true, c x, d 2');
  });
});
