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

  it("shows other features' actions generically", () => {
    expect(describeAuditEntry({ action: 'moderation.ban', data: { provider: 'twitch', viewer: 'troll42', nested: { a: 1 } } })).toBe(
      'Moderation: ban — provider: twitch · viewer: troll42',
    );
    expect(describeAuditEntry({ action: 'widgets', data: {} })).toBe('Widgets');
  });
});

describe('helpers', () => {
  it('humanizes action names', () => {
    expect(humanizeAction('chat_commands.updated')).toBe('Chat commands: updated');
    expect(humanizeAction('moderation.delete_message')).toBe('Moderation: delete message');
  });

  it('keeps at most four simple fields', () => {
    expect(auditDetails({ a: 1, b: true, c: 'x', d: 2, e: 3, f: null })).toBe('a: 1 · b: true · c: x · d: 2');
  });
});
