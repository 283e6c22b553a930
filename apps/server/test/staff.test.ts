import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { AccessLevel } from '@greenroom/contracts/access';
import type { AuditLogEntry, ChannelUserInvite, InviteView, StaffMember } from '@greenroom/contracts/api/staff';
import { auditLog, channelUserInvites, channelUsers } from '../src/db/schema';
import { sha256 } from '../src/lib/crypto';
import { createTestApp, type TestApp, type TestUser } from './helper';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

async function createChannel(
  owner: TestUser,
  name = `Chan ${Math.random().toString(36).slice(2, 8)}`,
): Promise<{ id: string; display_name: string }> {
  const res = await t.inject(owner, { method: 'POST', url: '/api/2/channels', payload: { display_name: name } });
  expect(res.statusCode).toBe(201);
  return res.json();
}

async function addStaff(channelId: string, user: TestUser, level: number, addedBy: TestUser | null = null): Promise<void> {
  await t.s.db.insert(channelUsers).values({ channelId, userId: user.id, level, addedBy: addedBy?.id ?? null });
}

async function levelIn(channelId: string, user: TestUser): Promise<number | null> {
  const [row] = await t.s.db
    .select({ level: channelUsers.level })
    .from(channelUsers)
    .where(and(eq(channelUsers.channelId, channelId), eq(channelUsers.userId, user.id)));
  return row?.level ?? null;
}

/** The newest audit row of a channel, as stored. */
async function lastAudit(channelId: string): Promise<{ action: string; actorUserId: string | null; data: Record<string, unknown> }> {
  const [row] = await t.s.db.select().from(auditLog).where(eq(auditLog.channelId, channelId)).orderBy(desc(auditLog.id)).limit(1);
  if (!row) throw new Error('no audit row');
  return row;
}

/** A channel with an Owner, an Admin, an Editor and a Mod (each added by the Owner). */
async function team() {
  const owner = await t.createUser({ displayName: 'Olivia Owner' });
  const admin = await t.createUser({ displayName: 'Adam Admin' });
  const editor = await t.createUser({ displayName: 'Eddie Editor' });
  const mod = await t.createUser({ displayName: 'Mona Mod' });
  const channel = await createChannel(owner);
  await addStaff(channel.id, admin, AccessLevel.ADMIN, owner);
  await addStaff(channel.id, editor, AccessLevel.EDITOR, owner);
  await addStaff(channel.id, mod, AccessLevel.MOD, owner);
  return { owner, admin, editor, mod, channel };
}

const patchLevel = (actor: TestUser, channelId: string, target: TestUser, level: number) =>
  t.inject(actor, { method: 'PATCH', url: `/api/2/channels/${channelId}/users/${target.id}`, payload: { level } });

describe('GET /api/2/channels/:channelId/users', () => {
  it('lists the staff by level with who added them and when', async () => {
    const { owner, admin, editor, mod, channel } = await team();
    const res = await t.inject(admin, { method: 'GET', url: `/api/2/channels/${channel.id}/users` });
    expect(res.statusCode).toBe(200);
    const staff = res.json<StaffMember[]>();
    expect(staff.map((m) => [m.display_name, m.level])).toEqual([
      ['Olivia Owner', 500],
      ['Adam Admin', 200],
      ['Eddie Editor', 100],
      ['Mona Mod', 7],
    ]);
    expect(staff[0]!.added_by).toBeNull();
    expect(staff.slice(1).every((m) => m.added_by?.id === owner.id && m.added_by.display_name === 'Olivia Owner')).toBe(true);
    expect(staff.map((m) => m.user_id)).toEqual([owner.id, admin.id, editor.id, mod.id]);
    expect(Number.isNaN(Date.parse(staff[1]!.created_at))).toBe(false);
  });

  it('is for Admins: an Editor gets 403, a stranger 404 "Channel not found"', async () => {
    const { editor, channel } = await team();
    expect((await t.inject(editor, { method: 'GET', url: `/api/2/channels/${channel.id}/users` })).statusCode).toBe(403);
    const stranger = await t.createUser();
    const res = await t.inject(stranger, { method: 'GET', url: `/api/2/channels/${channel.id}/users` });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ type: 'not_found', message: 'Channel not found' });
  });
});

describe('changing a level', () => {
  it('lets an Admin promote a Mod to Editor, and records who did what in the audit log', async () => {
    const { admin, mod, channel } = await team();
    const res = await patchLevel(admin, channel.id, mod, AccessLevel.EDITOR);
    expect(res.statusCode).toBe(200);
    expect(res.json<StaffMember>()).toMatchObject({ user_id: mod.id, level: 100 });
    expect(await levelIn(channel.id, mod)).toBe(100);
    expect(await lastAudit(channel.id)).toMatchObject({
      action: 'staff.level_changed',
      actorUserId: admin.id,
      data: { target_user_id: mod.id, target_display_name: 'Mona Mod', from_level: 7, to_level: 100 },
    });
  });

  it('only allows staff levels (Mod, Editor, Admin), never Owner or audience levels', async () => {
    const { owner, mod, channel } = await team();
    for (const level of [AccessLevel.OWNER, AccessLevel.VIP, AccessLevel.PUBLIC, 150]) {
      const res = await patchLevel(owner, channel.id, mod, level);
      expect(res.statusCode).toBe(400);
      expect(res.json<{ message: string }>().message).toContain('Choose Mod, Editor or Admin');
    }
    expect(await levelIn(channel.id, mod)).toBe(AccessLevel.MOD);
  });

  it('lets only the Owner change an Admin, and nobody change the Owner', async () => {
    const { owner, admin, editor, channel } = await team();
    const admin2 = await t.createUser();
    await addStaff(channel.id, admin2, AccessLevel.ADMIN, owner);
    const byAdmin = await patchLevel(admin, channel.id, admin2, AccessLevel.MOD);
    expect(byAdmin.statusCode).toBe(403);
    expect(byAdmin.json<{ message: string }>().message).toBe("Only the Owner can change an Admin's level.");
    const onOwner = await patchLevel(admin, channel.id, owner, AccessLevel.MOD);
    expect(onOwner.statusCode).toBe(403);
    expect(onOwner.json<{ message: string }>().message).toContain("Nobody can change the Owner's level");
    expect((await patchLevel(owner, channel.id, admin2, AccessLevel.EDITOR)).statusCode).toBe(200);
    expect(await levelIn(channel.id, admin2)).toBe(AccessLevel.EDITOR);
    expect(await levelIn(channel.id, owner)).toBe(AccessLevel.OWNER);
    // An Admin may raise an Editor up to their own level, not above.
    expect((await patchLevel(admin, channel.id, editor, AccessLevel.ADMIN)).statusCode).toBe(200);
  });

  it('never lets anyone change their own level', async () => {
    const { owner, admin, channel } = await team();
    const self = await patchLevel(admin, channel.id, admin, AccessLevel.MOD);
    expect(self.statusCode).toBe(400);
    expect(self.json<{ message: string }>().message).toContain('You cannot change your own level');
    expect((await patchLevel(owner, channel.id, owner, AccessLevel.ADMIN)).statusCode).toBe(400);
    expect(await levelIn(channel.id, admin)).toBe(AccessLevel.ADMIN);
  });

  it('answers 404 for a user who is not staff of the channel', async () => {
    const { owner, channel } = await team();
    const stranger = await t.createUser();
    const res = await patchLevel(owner, channel.id, stranger, AccessLevel.MOD);
    expect(res.statusCode).toBe(404);
    expect(res.json<{ message: string }>().message).toBe('This user is not staff of this channel.');
  });

  it('gives an operator (support access, Admin) no power over Admins or the Owner', async () => {
    const { admin, owner, mod, channel } = await team();
    const operator = await t.createUser({ operator: true });
    expect((await patchLevel(operator, channel.id, admin, AccessLevel.MOD)).statusCode).toBe(403);
    expect((await patchLevel(operator, channel.id, owner, AccessLevel.MOD)).statusCode).toBe(403);
    expect((await patchLevel(operator, channel.id, mod, AccessLevel.EDITOR)).statusCode).toBe(200);
  });

  it('revokes pending invitations above the new level of a demoted inviter', async () => {
    const { owner, admin, channel } = await team();
    const invite = (
      await t.inject(admin, { method: 'POST', url: `/api/2/channels/${channel.id}/user-invites`, payload: { level: AccessLevel.ADMIN } })
    ).json<ChannelUserInvite>();
    const modInvite = (
      await t.inject(admin, { method: 'POST', url: `/api/2/channels/${channel.id}/user-invites`, payload: { level: AccessLevel.MOD } })
    ).json<ChannelUserInvite>();
    expect((await patchLevel(owner, channel.id, admin, AccessLevel.EDITOR)).statusCode).toBe(200);
    const pending = (await t.inject(owner, { method: 'GET', url: `/api/2/channels/${channel.id}/user-invites` })).json<
      ChannelUserInvite[]
    >();
    expect(pending.map((i) => i.id)).toEqual([modInvite.id]);
    const someone = await t.createUser();
    const accept = await t.inject(someone, { method: 'POST', url: `/api/2/channel-invites/${invite.id}/accept` });
    expect(accept.statusCode).toBe(410);
    expect(accept.json<{ message: string }>().message).toBe('This invitation has been revoked.');
  });
});

describe('removing access and leaving', () => {
  it('lets an Admin remove a Mod, who then gets 404 for the channel', async () => {
    const { admin, mod, channel } = await team();
    const res = await t.inject(admin, { method: 'DELETE', url: `/api/2/channels/${channel.id}/users/${mod.id}` });
    expect(res.statusCode).toBe(204);
    expect(await levelIn(channel.id, mod)).toBeNull();
    expect((await t.inject(mod, { method: 'GET', url: `/api/2/channels/${channel.id}` })).statusCode).toBe(404);
    const entry = await lastAudit(channel.id);
    expect(entry).toMatchObject({ action: 'staff.removed', data: { target_user_id: mod.id, from_level: 7, to_level: null } });
  });

  it('refuses removing the Owner (by anyone) and an Admin (by anyone but the Owner)', async () => {
    const { owner, admin, channel } = await team();
    const admin2 = await t.createUser();
    await addStaff(channel.id, admin2, AccessLevel.ADMIN, owner);
    const onOwner = await t.inject(admin, { method: 'DELETE', url: `/api/2/channels/${channel.id}/users/${owner.id}` });
    expect(onOwner.statusCode).toBe(403);
    expect(onOwner.json<{ message: string }>().message).toBe('Nobody can remove the Owner of a channel.');
    const onAdmin = await t.inject(admin, { method: 'DELETE', url: `/api/2/channels/${channel.id}/users/${admin2.id}` });
    expect(onAdmin.statusCode).toBe(403);
    expect(onAdmin.json<{ message: string }>().message).toBe('Only the Owner can remove an Admin.');
    const self = await t.inject(owner, { method: 'DELETE', url: `/api/2/channels/${channel.id}/users/${owner.id}` });
    expect(self.statusCode).toBe(400);
    expect((await t.inject(owner, { method: 'DELETE', url: `/api/2/channels/${channel.id}/users/${admin2.id}` })).statusCode).toBe(204);
  });

  it('lets any staff member leave, but not the sole Owner', async () => {
    const { owner, mod, channel } = await team();
    expect((await t.inject(mod, { method: 'POST', url: `/api/2/channels/${channel.id}/leave` })).statusCode).toBe(204);
    expect(await levelIn(channel.id, mod)).toBeNull();
    expect((await lastAudit(channel.id)).action).toBe('staff.left');
    const ownerLeaves = await t.inject(owner, { method: 'POST', url: `/api/2/channels/${channel.id}/leave` });
    expect(ownerLeaves.statusCode).toBe(409);
    expect(ownerLeaves.json<{ message: string }>().message).toContain('Transfer ownership');
    expect(await levelIn(channel.id, owner)).toBe(AccessLevel.OWNER);
  });

  it('tells an operator without a role that there is nothing to leave', async () => {
    const { channel } = await team();
    const operator = await t.createUser({ operator: true });
    const res = await t.inject(operator, { method: 'POST', url: `/api/2/channels/${channel.id}/leave` });
    expect(res.statusCode).toBe(400);
  });
});

describe('transferring ownership', () => {
  const transfer = (actor: TestUser, channelId: string, body: unknown) =>
    t.inject(actor, { method: 'POST', url: `/api/2/channels/${channelId}/transfer-ownership`, payload: body as Record<string, unknown> });

  it('needs the channel name typed exactly', async () => {
    const { owner, editor, channel } = await team();
    const res = await transfer(owner, channel.id, { user_id: editor.id, confirm_channel_name: channel.display_name.toUpperCase() });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toBe(`Type the channel name "${channel.display_name}" exactly to confirm.`);
    expect(await levelIn(channel.id, owner)).toBe(AccessLevel.OWNER);
  });

  it('makes a staff member the Owner and the old Owner an Admin, with an audit row', async () => {
    const { owner, editor, channel } = await team();
    const res = await transfer(owner, channel.id, { user_id: editor.id, confirm_channel_name: channel.display_name });
    expect(res.statusCode).toBe(204);
    expect(await levelIn(channel.id, editor)).toBe(AccessLevel.OWNER);
    expect(await levelIn(channel.id, owner)).toBe(AccessLevel.ADMIN);
    expect(await lastAudit(channel.id)).toMatchObject({
      action: 'staff.ownership_transferred',
      data: { target_user_id: editor.id, from_level: 100, to_level: 500 },
    });
    // The former Owner, now Admin, can no longer transfer.
    expect((await transfer(owner, channel.id, { user_id: editor.id, confirm_channel_name: channel.display_name })).statusCode).toBe(403);
  });

  it('is for the Owner only, and only to existing staff', async () => {
    const { owner, admin, mod, channel } = await team();
    expect((await transfer(admin, channel.id, { user_id: mod.id, confirm_channel_name: channel.display_name })).statusCode).toBe(403);
    const stranger = await t.createUser();
    const res = await transfer(owner, channel.id, { user_id: stranger.id, confirm_channel_name: channel.display_name });
    expect(res.statusCode).toBe(404);
    expect(await levelIn(channel.id, stranger)).toBeNull();
  });
});

describe('invitations', () => {
  const createInvite = async (actor: TestUser, channelId: string, body: Record<string, unknown>) => {
    const res = await t.inject(actor, { method: 'POST', url: `/api/2/channels/${channelId}/user-invites`, payload: body });
    expect(res.statusCode).toBe(201);
    return res.json<ChannelUserInvite>();
  };

  it('creates an unguessable, expiring invitation and stores only its hash and a sealed copy', async () => {
    const { admin, channel } = await team();
    const before = Date.now();
    const invite = await createInvite(admin, channel.id, { level: AccessLevel.MOD });
    expect(invite.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(invite).toMatchObject({ level: 7, created_by: { id: admin.id, display_name: 'Adam Admin' } });
    const days = (Date.parse(invite.expires_at) - before) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThan(7.01);
    const [row] = await t.s.db.select().from(channelUserInvites).where(eq(channelUserInvites.channelId, channel.id));
    expect(row!.idHash).toBe(sha256(invite.id));
    expect(row!.idEnc).not.toContain(invite.id);
    expect(JSON.stringify(row)).not.toContain(invite.id);
    const other = await createInvite(admin, channel.id, { level: AccessLevel.EDITOR, expires_in_hours: 1 });
    expect(other.id).not.toBe(invite.id);
    expect(Date.parse(other.expires_at) - Date.now()).toBeLessThanOrEqual(3_600_000);
  });

  it('lists pending invitations newest first with their ids, and revokes one', async () => {
    const { owner, admin, channel } = await team();
    const a = await createInvite(admin, channel.id, { level: AccessLevel.MOD });
    const b = await createInvite(owner, channel.id, { level: AccessLevel.ADMIN });
    const list = (await t.inject(admin, { method: 'GET', url: `/api/2/channels/${channel.id}/user-invites` })).json<ChannelUserInvite[]>();
    expect(list.map((i) => i.id)).toEqual([b.id, a.id]);
    expect(list[0]!.created_by?.display_name).toBe('Olivia Owner');
    expect(
      (await t.inject(admin, { method: 'DELETE', url: `/api/2/channels/${channel.id}/user-invites/${encodeURIComponent(a.id)}` }))
        .statusCode,
    ).toBe(204);
    const again = await t.inject(admin, {
      method: 'DELETE',
      url: `/api/2/channels/${channel.id}/user-invites/${encodeURIComponent(a.id)}`,
    });
    expect(again.statusCode).toBe(409);
    const after = (await t.inject(admin, { method: 'GET', url: `/api/2/channels/${channel.id}/user-invites` })).json<ChannelUserInvite[]>();
    expect(after.map((i) => i.id)).toEqual([b.id]);
    expect((await lastAudit(channel.id)).action).toBe('staff.invite_revoked');
    const [row] = await t.s.db
      .select()
      .from(channelUserInvites)
      .where(eq(channelUserInvites.idHash, sha256(a.id)));
    expect(row!.idEnc).toBeNull();
    expect(row!.revokedBy).toBe(admin.id);
  });

  it("cannot revoke another channel's invitation", async () => {
    const one = await team();
    const two = await team();
    const invite = await createInvite(one.owner, one.channel.id, { level: AccessLevel.MOD });
    const res = await t.inject(two.owner, { method: 'DELETE', url: `/api/2/channels/${two.channel.id}/user-invites/${invite.id}` });
    expect(res.statusCode).toBe(404);
  });

  it('only invites to staff levels, for at most 30 days', async () => {
    const { owner, channel } = await team();
    for (const body of [
      { level: AccessLevel.OWNER },
      { level: AccessLevel.SUB },
      { level: AccessLevel.MOD, expires_in_hours: 0 },
      { level: AccessLevel.MOD, expires_in_hours: 721 },
    ]) {
      const res = await t.inject(owner, { method: 'POST', url: `/api/2/channels/${channel.id}/user-invites`, payload: body });
      expect(res.statusCode).toBe(400);
    }
  });

  it('shows the invited user the channel, level, inviter and state', async () => {
    const { admin, channel } = await team();
    const invite = await createInvite(admin, channel.id, { level: AccessLevel.MOD });
    const guest = await t.createUser();
    const res = await t.inject(guest, { method: 'GET', url: `/api/2/channel-invites/${invite.id}` });
    expect(res.statusCode).toBe(200);
    expect(res.json<InviteView>()).toEqual({
      channel: { id: channel.id, display_name: channel.display_name },
      level: 7,
      invited_by: { id: admin.id, display_name: 'Adam Admin' },
      expires_at: invite.expires_at,
      state: 'valid',
      current_level: null,
      used_by_you: false,
    });
    expect((await t.inject(null, { method: 'GET', url: `/api/2/channel-invites/${invite.id}` })).statusCode).toBe(401);
    const unknown = await t.inject(guest, { method: 'GET', url: '/api/2/channel-invites/not-a-real-invitation' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<{ message: string }>().message).toContain('This invitation does not exist');
  });

  it('grants the level once: a second user is told it was used, the same user may accept again', async () => {
    const { owner, channel } = await team();
    const invite = await createInvite(owner, channel.id, { level: AccessLevel.MOD });
    const guest = await t.createUser({ displayName: 'Gina Guest' });
    const res = await t.inject(guest, { method: 'POST', url: `/api/2/channel-invites/${invite.id}/accept` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ channel_id: channel.id, level: 7 });
    expect(await levelIn(channel.id, guest)).toBe(AccessLevel.MOD);
    const staff = (await t.inject(owner, { method: 'GET', url: `/api/2/channels/${channel.id}/users` })).json<StaffMember[]>();
    expect(staff.find((m) => m.user_id === guest.id)?.added_by?.id).toBe(owner.id);
    expect(await lastAudit(channel.id)).toMatchObject({
      action: 'staff.invite_accepted',
      data: { target_user_id: guest.id, target_display_name: 'Gina Guest', from_level: null, to_level: 7 },
    });

    expect((await t.inject(guest, { method: 'POST', url: `/api/2/channel-invites/${invite.id}/accept` })).statusCode).toBe(200);
    const late = await t.createUser();
    const used = await t.inject(late, { method: 'POST', url: `/api/2/channel-invites/${invite.id}/accept` });
    expect(used.statusCode).toBe(410);
    expect(used.json()).toEqual({ type: 'gone', message: 'This invitation has already been used.' });
    expect((await t.inject(late, { method: 'GET', url: `/api/2/channel-invites/${invite.id}` })).json<InviteView>()).toMatchObject({
      state: 'used',
      used_by_you: false,
    });
    expect(await levelIn(channel.id, late)).toBeNull();
    const [row] = await t.s.db
      .select()
      .from(channelUserInvites)
      .where(eq(channelUserInvites.idHash, sha256(invite.id)));
    expect(row!.idEnc).toBeNull();
  });

  it('lets exactly one of two simultaneous users accept', async () => {
    const { owner, channel } = await team();
    const invite = await createInvite(owner, channel.id, { level: AccessLevel.EDITOR });
    const users = await Promise.all([1, 2, 3, 4].map(() => t.createUser()));
    const results = await Promise.all(users.map((u) => t.inject(u, { method: 'POST', url: `/api/2/channel-invites/${invite.id}/accept` })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 410, 410, 410]);
    const levels = await Promise.all(users.map((u) => levelIn(channel.id, u)));
    expect(levels.filter((l) => l === AccessLevel.EDITOR)).toHaveLength(1);
  });

  it('explains expired and revoked invitations', async () => {
    const { owner, channel } = await team();
    const expired = await createInvite(owner, channel.id, { level: AccessLevel.MOD });
    await t.s.db
      .update(channelUserInvites)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(channelUserInvites.idHash, sha256(expired.id)));
    const revoked = await createInvite(owner, channel.id, { level: AccessLevel.MOD });
    await t.inject(owner, { method: 'DELETE', url: `/api/2/channels/${channel.id}/user-invites/${revoked.id}` });
    const guest = await t.createUser();
    expect((await t.inject(guest, { method: 'GET', url: `/api/2/channel-invites/${expired.id}` })).json<InviteView>().state).toBe(
      'expired',
    );
    expect((await t.inject(guest, { method: 'GET', url: `/api/2/channel-invites/${revoked.id}` })).json<InviteView>().state).toBe(
      'revoked',
    );
    const e = await t.inject(guest, { method: 'POST', url: `/api/2/channel-invites/${expired.id}/accept` });
    expect(e.statusCode).toBe(410);
    expect(e.json<{ message: string }>().message).toBe('This invitation has expired.');
    const r = await t.inject(guest, { method: 'POST', url: `/api/2/channel-invites/${revoked.id}/accept` });
    expect(r.json<{ message: string }>().message).toBe('This invitation has been revoked.');
    expect(await levelIn(channel.id, guest)).toBeNull();
    const pending = (await t.inject(owner, { method: 'GET', url: `/api/2/channels/${channel.id}/user-invites` })).json<
      ChannelUserInvite[]
    >();
    expect(pending).toEqual([]);
  });

  it('keeps a higher level and leaves the invitation unused; raises a lower one', async () => {
    const { owner, admin, mod, channel } = await team();
    const modInvite = await createInvite(owner, channel.id, { level: AccessLevel.MOD });
    const keep = await t.inject(admin, { method: 'POST', url: `/api/2/channel-invites/${modInvite.id}/accept` });
    expect(keep.json()).toEqual({ channel_id: channel.id, level: 200 });
    expect(await levelIn(channel.id, admin)).toBe(AccessLevel.ADMIN);
    const pending = (await t.inject(owner, { method: 'GET', url: `/api/2/channels/${channel.id}/user-invites` })).json<
      ChannelUserInvite[]
    >();
    expect(pending.map((i) => i.id)).toContain(modInvite.id);
    const editorInvite = await createInvite(owner, channel.id, { level: AccessLevel.EDITOR });
    expect(
      (await t.inject(mod, { method: 'GET', url: `/api/2/channel-invites/${editorInvite.id}` })).json<InviteView>().current_level,
    ).toBe(7);
    const raise = await t.inject(mod, { method: 'POST', url: `/api/2/channel-invites/${editorInvite.id}/accept` });
    expect(raise.json()).toEqual({ channel_id: channel.id, level: 100 });
    expect(await levelIn(channel.id, mod)).toBe(AccessLevel.EDITOR);
  });

  it('is limited to 50 pending invitations per channel', async () => {
    const { owner, channel } = await team();
    for (let i = 0; i < 50; i += 1) await createInvite(owner, channel.id, { level: AccessLevel.MOD });
    const res = await t.inject(owner, {
      method: 'POST',
      url: `/api/2/channels/${channel.id}/user-invites`,
      payload: { level: AccessLevel.MOD },
    });
    expect(res.statusCode).toBe(409);
  });
});

describe('GET /api/2/channels/:channelId/audit-log', () => {
  it("pages newest first by cursor with actor names, including other features' actions", async () => {
    const { owner, admin, mod, editor, channel } = await team();
    await patchLevel(owner, channel.id, mod, AccessLevel.EDITOR);
    await patchLevel(admin, channel.id, editor, AccessLevel.MOD);
    await t.s.audit.record({
      channelId: channel.id,
      actorUserId: mod.id,
      action: 'moderation.ban',
      data: { provider: 'twitch', provider_viewer_id: '42' },
    });
    const first = await t.inject(admin, { method: 'GET', url: `/api/2/channels/${channel.id}/audit-log?per_page=2` });
    expect(first.statusCode).toBe(200);
    const page1 = first.json<{ records: AuditLogEntry[]; cursor: string | null }>();
    expect(page1.records.map((r) => [r.action, r.actor?.display_name])).toEqual([
      ['moderation.ban', 'Mona Mod'],
      ['staff.level_changed', 'Adam Admin'],
    ]);
    expect(page1.records[0]!.data).toEqual({ provider: 'twitch', provider_viewer_id: '42' });
    expect(page1.cursor).not.toBeNull();
    const page2 = (
      await t.inject(admin, { method: 'GET', url: `/api/2/channels/${channel.id}/audit-log?per_page=2&cursor=${page1.cursor}` })
    ).json<{ records: AuditLogEntry[]; cursor: string | null }>();
    expect(page2.records.map((r) => [r.action, r.actor?.display_name])).toEqual([['staff.level_changed', 'Olivia Owner']]);
    expect(page2.cursor).toBeNull();
    expect((await t.inject(admin, { method: 'GET', url: `/api/2/channels/${channel.id}/audit-log?cursor=abc` })).statusCode).toBe(400);
  });

  it("shows only the channel's own rows, to Admins", async () => {
    const one = await team();
    const two = await team();
    await patchLevel(two.owner, two.channel.id, two.mod, AccessLevel.EDITOR);
    const res = (await t.inject(one.owner, { method: 'GET', url: `/api/2/channels/${one.channel.id}/audit-log` })).json<{
      records: AuditLogEntry[];
    }>();
    expect(res.records).toEqual([]);
    expect((await t.inject(one.editor, { method: 'GET', url: `/api/2/channels/${one.channel.id}/audit-log` })).statusCode).toBe(403);
  });
});
