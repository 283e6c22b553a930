import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { accessLevelLabels, type AccessLevelValue } from '@greenroom/contracts/access';
import {
  INVITE_NOT_FOUND,
  INVITES_PENDING_MAX,
  StaffAuditAction,
  inviteStateMessages,
  type ChannelUserInvite,
  type InviteAccepted,
  type InviteState,
  type InviteView,
} from '@greenroom/contracts/api/staff';
import type { Db } from '../../db/client';
import { channelUserInvites, channelUsers, channels, users } from '../../db/schema';
import { conflict, forbidden, gone, notFound } from '../../lib/errors';
import { randomToken, sha256, type TokenCipher } from '../../lib/crypto';
import type { AuditRecorder } from '../audit';
import type { AuthUser } from '../auth';

type InviteRow = typeof channelUserInvites.$inferSelect;

export function inviteState(row: Pick<InviteRow, 'usedAt' | 'revokedAt' | 'expiresAt'>, now = new Date()): InviteState {
  if (row.usedAt) return 'used';
  if (row.revokedAt) return 'revoked';
  if (row.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'valid';
}

/**
 * Channel invitations. The id in the link is a 256-bit random secret; the table holds its SHA-256
 * (the lookup key) and the id sealed with the server's token cipher so Admins can copy a pending
 * link again. The sealed id is wiped when the invitation is used or revoked, so a database dump
 * alone never yields a working link. Acceptance is single use, decided by one conditional UPDATE.
 */
export class InviteService {
  constructor(
    private readonly db: Db,
    private readonly cipher: TokenCipher,
    private readonly audit: AuditRecorder,
  ) {}

  async create(
    channelId: string,
    actor: AuthUser,
    actorLevel: number,
    input: { level: AccessLevelValue; expires_in_hours: number },
  ): Promise<ChannelUserInvite> {
    if (input.level > actorLevel)
      throw forbidden(
        `You cannot invite someone above your own level (${accessLevelLabels[actorLevel as AccessLevelValue] ?? actorLevel}).`,
      );
    const id = randomToken(32);
    const expiresAt = new Date(Date.now() + input.expires_in_hours * 3_600_000);
    await this.db.transaction(async (tx) => {
      // Serialises invitation creation per channel so the pending limit holds under concurrency.
      await tx.select({ id: channels.id }).from(channels).where(eq(channels.id, channelId)).for('update');
      const [pending] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(channelUserInvites)
        .where(
          and(
            eq(channelUserInvites.channelId, channelId),
            isNull(channelUserInvites.usedAt),
            isNull(channelUserInvites.revokedAt),
            gt(channelUserInvites.expiresAt, new Date()),
          ),
        );
      if ((pending?.n ?? 0) >= INVITES_PENDING_MAX)
        throw conflict(`This channel already has ${INVITES_PENDING_MAX} pending invitations. Revoke some before creating more.`);
      await tx
        .insert(channelUserInvites)
        .values({ idHash: sha256(id), idEnc: this.cipher.encrypt(id), channelId, level: input.level, createdBy: actor.id, expiresAt });
      await this.audit.record(
        {
          channelId,
          actorUserId: actor.id,
          action: StaffAuditAction.inviteCreated,
          data: { invite_level: input.level, expires_at: expiresAt.toISOString() },
        },
        tx,
      );
    });
    return {
      id,
      level: input.level,
      created_by: { id: actor.id, display_name: actor.displayName },
      created_at: new Date().toISOString(),
      expires_at: expiresAt.toISOString(),
    };
  }

  /** Pending invitations (not used, revoked or expired), newest first, with their ids for copying. */
  async listPending(channelId: string): Promise<ChannelUserInvite[]> {
    const rows = await this.db
      .select({ invite: channelUserInvites, creatorName: users.displayName })
      .from(channelUserInvites)
      .leftJoin(users, eq(users.id, channelUserInvites.createdBy))
      .where(
        and(
          eq(channelUserInvites.channelId, channelId),
          isNull(channelUserInvites.usedAt),
          isNull(channelUserInvites.revokedAt),
          gt(channelUserInvites.expiresAt, new Date()),
        ),
      )
      .orderBy(desc(channelUserInvites.createdAt));
    return rows.flatMap(({ invite, creatorName }) => {
      if (!invite.idEnc) return [];
      return [
        {
          id: this.cipher.decrypt(invite.idEnc),
          level: invite.level as AccessLevelValue,
          created_by: invite.createdBy != null && creatorName != null ? { id: invite.createdBy, display_name: creatorName } : null,
          created_at: invite.createdAt.toISOString(),
          expires_at: invite.expiresAt.toISOString(),
        },
      ];
    });
  }

  async revoke(channelId: string, actor: AuthUser, id: string): Promise<void> {
    const hash = sha256(id);
    await this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(channelUserInvites)
        .set({ revokedAt: new Date(), revokedBy: actor.id, idEnc: null })
        .where(
          and(
            eq(channelUserInvites.idHash, hash),
            eq(channelUserInvites.channelId, channelId),
            isNull(channelUserInvites.usedAt),
            isNull(channelUserInvites.revokedAt),
          ),
        )
        .returning();
      if (!row) {
        const [existing] = await tx
          .select()
          .from(channelUserInvites)
          .where(and(eq(channelUserInvites.idHash, hash), eq(channelUserInvites.channelId, channelId)));
        if (!existing) throw notFound(INVITE_NOT_FOUND);
        const state = inviteState(existing);
        throw conflict(state === 'used' ? inviteStateMessages.used : inviteStateMessages.revoked);
      }
      await this.audit.record(
        { channelId, actorUserId: actor.id, action: StaffAuditAction.inviteRevoked, data: { invite_level: row.level } },
        tx,
      );
    });
  }

  /** What a signed-in user sees when opening an invitation link. */
  async view(id: string, viewer: AuthUser): Promise<InviteView> {
    const inviter = alias(users, 'inviter');
    const [row] = await this.db
      .select({ invite: channelUserInvites, channelName: channels.displayName, inviterName: inviter.displayName })
      .from(channelUserInvites)
      .innerJoin(channels, eq(channels.id, channelUserInvites.channelId))
      .leftJoin(inviter, eq(inviter.id, channelUserInvites.createdBy))
      .where(eq(channelUserInvites.idHash, sha256(id)));
    if (!row) throw notFound(INVITE_NOT_FOUND);
    const { invite } = row;
    const [member] = await this.db
      .select({ level: channelUsers.level })
      .from(channelUsers)
      .where(and(eq(channelUsers.channelId, invite.channelId), eq(channelUsers.userId, viewer.id)));
    return {
      channel: { id: invite.channelId, display_name: row.channelName },
      level: invite.level as AccessLevelValue,
      invited_by: invite.createdBy != null && row.inviterName != null ? { id: invite.createdBy, display_name: row.inviterName } : null,
      expires_at: invite.expiresAt.toISOString(),
      state: inviteState(invite),
      current_level: (member?.level ?? null) as AccessLevelValue | null,
      used_by_you: invite.usedBy === viewer.id,
    };
  }

  /**
   * Accepts an invitation: grants its level, or keeps a higher level the user already has (then the
   * invitation stays unused). Accepting again an invitation one already used answers the same.
   */
  async accept(id: string, user: AuthUser): Promise<InviteAccepted> {
    const hash = sha256(id);
    return this.db.transaction(async (tx) => {
      const [invite] = await tx.select().from(channelUserInvites).where(eq(channelUserInvites.idHash, hash));
      if (!invite) throw notFound(INVITE_NOT_FOUND);
      const [member] = await tx
        .select({ level: channelUsers.level })
        .from(channelUsers)
        .where(and(eq(channelUsers.channelId, invite.channelId), eq(channelUsers.userId, user.id)))
        .for('update');
      const current = member?.level ?? null;
      if (invite.usedBy === user.id && current != null) return { channel_id: invite.channelId, level: current as AccessLevelValue };
      const state = inviteState(invite);
      if (state !== 'valid') throw gone(inviteStateMessages[state]);
      if (current != null && current >= invite.level) return { channel_id: invite.channelId, level: current as AccessLevelValue };

      const [claimed] = await tx
        .update(channelUserInvites)
        .set({ usedBy: user.id, usedAt: sql`now()`, idEnc: null })
        .where(
          and(
            eq(channelUserInvites.idHash, hash),
            isNull(channelUserInvites.usedAt),
            isNull(channelUserInvites.revokedAt),
            gt(channelUserInvites.expiresAt, sql`now()`),
          ),
        )
        .returning();
      if (!claimed) {
        const [again] = await tx.select().from(channelUserInvites).where(eq(channelUserInvites.idHash, hash));
        const now = again ? inviteState(again) : 'revoked';
        throw gone(inviteStateMessages[now === 'valid' ? 'expired' : now]);
      }
      await tx
        .insert(channelUsers)
        .values({ channelId: claimed.channelId, userId: user.id, level: claimed.level, addedBy: claimed.createdBy })
        .onConflictDoUpdate({
          target: [channelUsers.channelId, channelUsers.userId],
          set: { level: sql`greatest(${channelUsers.level}, excluded.level)`, addedBy: claimed.createdBy },
        });
      await this.audit.record(
        {
          channelId: claimed.channelId,
          actorUserId: user.id,
          action: StaffAuditAction.inviteAccepted,
          data: {
            target_user_id: user.id,
            target_display_name: user.displayName,
            from_level: current,
            to_level: claimed.level,
            invited_by_user_id: claimed.createdBy,
          },
        },
        tx,
      );
      return { channel_id: claimed.channelId, level: Math.max(current ?? 0, claimed.level) as AccessLevelValue };
    });
  }
}
