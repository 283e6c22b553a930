import { and, asc, desc, eq, gt, gte, isNull } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { AccessLevel, accessLevelLabels, type AccessLevelValue } from '@greenroom/contracts/access';
import { StaffAuditAction, canManageMember, type StaffAuditData, type StaffMember } from '@greenroom/contracts/api/staff';
import type { Db } from '../../db/client';
import { channelUserInvites, channelUsers, channels, users } from '../../db/schema';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import { OPERATOR_CHANNEL_LEVEL } from '../../plugins/auth';
import type { AccessEvents } from '../../lib/access-events';
import type { AuditRecorder } from '../audit';
import type { AuthUser } from '../auth';

const label = (level: number) => accessLevelLabels[level as AccessLevelValue] ?? String(level);

/** The row of `userId` in a channel, locked for the rest of the transaction. */
async function lockMember(tx: Db, channelId: string, userId: string): Promise<{ level: number } | null> {
  const [row] = await tx
    .select({ level: channelUsers.level })
    .from(channelUsers)
    .where(and(eq(channelUsers.channelId, channelId), eq(channelUsers.userId, userId)))
    .for('update');
  return row ?? null;
}

/** The actor's effective level (operators get support access), read under lock. */
async function lockActorLevel(tx: Db, channelId: string, actor: AuthUser): Promise<number> {
  const row = await lockMember(tx, channelId, actor.id);
  const level = row?.level ?? null;
  if (actor.isOperator) return Math.max(level ?? 0, OPERATOR_CHANNEL_LEVEL);
  if (level == null) throw notFound('Channel not found');
  return level;
}

/** Pending invitations of `createdBy` above `maxLevel` stop working (the inviter was demoted or removed). */
export async function revokeInvitesAbove(tx: Db, channelId: string, createdBy: string, maxLevel: number): Promise<void> {
  await tx
    .update(channelUserInvites)
    .set({ revokedAt: new Date(), idEnc: null })
    .where(
      and(
        eq(channelUserInvites.channelId, channelId),
        eq(channelUserInvites.createdBy, createdBy),
        gt(channelUserInvites.level, maxLevel),
        isNull(channelUserInvites.usedAt),
        isNull(channelUserInvites.revokedAt),
      ),
    );
}

/**
 * A channel's staff: listing, level changes, removal, leaving and ownership transfer. Every change
 * runs in one transaction with the rows involved locked, and writes an audit row.
 *
 * Rules: only staff levels (Mod, Editor, Admin) can be given; never above the actor's own level; only
 * the Owner changes or removes an Admin; nobody changes or removes the Owner (ownership is transferred
 * instead); nobody changes their own level (they can leave, unless they are the sole Owner).
 */
export class StaffService {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditRecorder,
    private readonly access: Pick<AccessEvents, 'memberChanged'>,
  ) {}

  async list(channelId: string): Promise<StaffMember[]> {
    const adder = alias(users, 'adder');
    const rows = await this.db
      .select({
        userId: users.id,
        displayName: users.displayName,
        avatarUrl: users.avatarUrl,
        level: channelUsers.level,
        createdAt: channelUsers.createdAt,
        adderId: adder.id,
        adderName: adder.displayName,
      })
      .from(channelUsers)
      .innerJoin(users, eq(users.id, channelUsers.userId))
      .leftJoin(adder, eq(adder.id, channelUsers.addedBy))
      .where(and(eq(channelUsers.channelId, channelId), gte(channelUsers.level, AccessLevel.MOD)))
      .orderBy(desc(channelUsers.level), asc(channelUsers.createdAt), asc(users.id));
    return rows.map((r) => ({
      user_id: r.userId,
      display_name: r.displayName,
      avatar_url: r.avatarUrl,
      level: r.level as AccessLevelValue,
      // The channel creator "added" themselves: show no one.
      added_by: r.adderId != null && r.adderName != null && r.adderId !== r.userId ? { id: r.adderId, display_name: r.adderName } : null,
      created_at: r.createdAt.toISOString(),
    }));
  }

  async member(channelId: string, userId: string): Promise<StaffMember> {
    const found = (await this.list(channelId)).find((m) => m.user_id === userId);
    if (!found) throw notFound('This user is not staff of this channel.');
    return found;
  }

  async changeLevel(channelId: string, actor: AuthUser, targetUserId: string, level: AccessLevelValue): Promise<StaffMember> {
    if (targetUserId === actor.id) throw badRequest('You cannot change your own level. Another Admin can, or you can leave the channel.');
    let changed = false;
    await this.db.transaction(async (tx) => {
      const actorLevel = await lockActorLevel(tx, channelId, actor);
      const target = await lockMember(tx, channelId, targetUserId);
      if (!target || target.level < AccessLevel.MOD) throw notFound('This user is not staff of this channel.');
      this.assertCanManage(actorLevel, target.level, 'change');
      if (level > actorLevel) throw forbidden(`You cannot give a level above your own (${label(actorLevel)}).`);
      if (level === target.level) return;
      changed = true;
      await tx
        .update(channelUsers)
        .set({ level })
        .where(and(eq(channelUsers.channelId, channelId), eq(channelUsers.userId, targetUserId)));
      if (level < target.level) await revokeInvitesAbove(tx, channelId, targetUserId, level);
      await this.audit.record(
        {
          channelId,
          actorUserId: actor.id,
          action: StaffAuditAction.levelChanged,
          data: await this.targetData(tx, targetUserId, target.level, level),
        },
        tx,
      );
    });
    if (changed) this.access.memberChanged(channelId, targetUserId, level);
    return this.member(channelId, targetUserId);
  }

  async remove(channelId: string, actor: AuthUser, targetUserId: string): Promise<void> {
    if (targetUserId === actor.id) throw badRequest('To remove yourself, leave the channel.');
    await this.db.transaction(async (tx) => {
      const actorLevel = await lockActorLevel(tx, channelId, actor);
      const target = await lockMember(tx, channelId, targetUserId);
      if (!target || target.level < AccessLevel.MOD) throw notFound('This user is not staff of this channel.');
      this.assertCanManage(actorLevel, target.level, 'remove');
      await tx.delete(channelUsers).where(and(eq(channelUsers.channelId, channelId), eq(channelUsers.userId, targetUserId)));
      await revokeInvitesAbove(tx, channelId, targetUserId, -1);
      await this.audit.record(
        {
          channelId,
          actorUserId: actor.id,
          action: StaffAuditAction.removed,
          data: await this.targetData(tx, targetUserId, target.level, null),
        },
        tx,
      );
    });
    this.access.memberChanged(channelId, targetUserId, null);
  }

  /** The caller gives up their own access. The sole Owner cannot: they transfer ownership first. */
  async leave(channelId: string, actor: AuthUser): Promise<void> {
    await this.db.transaction(async (tx) => {
      const own = await lockMember(tx, channelId, actor.id);
      if (!own) throw badRequest('You are not staff of this channel.');
      if (own.level >= AccessLevel.OWNER) {
        const owners = await tx
          .select({ userId: channelUsers.userId })
          .from(channelUsers)
          .where(and(eq(channelUsers.channelId, channelId), gte(channelUsers.level, AccessLevel.OWNER)))
          .for('update');
        if (owners.length <= 1)
          throw conflict('You are the Owner of this channel. Transfer ownership to another staff member before leaving.');
      }
      await tx.delete(channelUsers).where(and(eq(channelUsers.channelId, channelId), eq(channelUsers.userId, actor.id)));
      await revokeInvitesAbove(tx, channelId, actor.id, -1);
      await this.audit.record(
        { channelId, actorUserId: actor.id, action: StaffAuditAction.left, data: await this.targetData(tx, actor.id, own.level, null) },
        tx,
      );
    });
    this.access.memberChanged(channelId, actor.id, null);
  }

  /** The Owner hands the channel to another staff member and becomes Admin. */
  async transferOwnership(channelId: string, actor: AuthUser, targetUserId: string, confirmName: string): Promise<void> {
    if (targetUserId === actor.id) {
      const message = 'You already own this channel. Choose another staff member.';
      throw badRequest(message, { user_id: message });
    }
    await this.db.transaction(async (tx) => {
      const [channel] = await tx
        .select({ displayName: channels.displayName })
        .from(channels)
        .where(eq(channels.id, channelId))
        .for('update');
      if (!channel) throw notFound('Channel not found');
      if (confirmName.trim() !== channel.displayName) {
        const message = `Type the channel name "${channel.displayName}" exactly to confirm.`;
        throw badRequest(message, { confirm_channel_name: message });
      }
      const own = await lockMember(tx, channelId, actor.id);
      if (!own || own.level < AccessLevel.OWNER) throw forbidden('Only the Owner can transfer ownership.');
      const target = await lockMember(tx, channelId, targetUserId);
      if (!target || target.level < AccessLevel.MOD) throw notFound('Ownership can only go to a staff member of this channel.');
      await tx
        .update(channelUsers)
        .set({ level: AccessLevel.OWNER })
        .where(and(eq(channelUsers.channelId, channelId), eq(channelUsers.userId, targetUserId)));
      await tx
        .update(channelUsers)
        .set({ level: AccessLevel.ADMIN })
        .where(and(eq(channelUsers.channelId, channelId), eq(channelUsers.userId, actor.id)));
      await this.audit.record(
        {
          channelId,
          actorUserId: actor.id,
          action: StaffAuditAction.ownershipTransferred,
          data: {
            ...(await this.targetData(tx, targetUserId, target.level, AccessLevel.OWNER)),
            previous_owner_new_level: AccessLevel.ADMIN,
          },
        },
        tx,
      );
    });
    this.access.memberChanged(channelId, actor.id, AccessLevel.ADMIN);
    this.access.memberChanged(channelId, targetUserId, AccessLevel.OWNER);
  }

  private assertCanManage(actorLevel: number, targetLevel: number, verb: 'change' | 'remove'): void {
    if (canManageMember(actorLevel, targetLevel)) return;
    if (targetLevel >= AccessLevel.OWNER) {
      throw forbidden(
        verb === 'change'
          ? "Nobody can change the Owner's level. The Owner can transfer ownership instead."
          : 'Nobody can remove the Owner of a channel.',
      );
    }
    if (targetLevel >= AccessLevel.ADMIN)
      throw forbidden(verb === 'change' ? "Only the Owner can change an Admin's level." : 'Only the Owner can remove an Admin.');
    throw new AppError(403, 'forbidden', 'You cannot manage a staff member above your own level.');
  }

  private async targetData(
    tx: Db,
    userId: string,
    from: number | null,
    to: number | null,
  ): Promise<StaffAuditData & Record<string, unknown>> {
    const [user] = await tx.select({ displayName: users.displayName }).from(users).where(eq(users.id, userId));
    return { target_user_id: userId, target_display_name: user?.displayName ?? null, from_level: from, to_level: to };
  }
}
