import { z } from 'zod';
import { AccessLevel, accessLevelSchema } from '../access';
import { paginated } from './common';

/** A level that can be given to staff (Mod, Editor, Admin): never Owner (transfer only) and never an audience level. */
export const staffLevelSchema = z.union([z.literal(AccessLevel.MOD), z.literal(AccessLevel.EDITOR), z.literal(AccessLevel.ADMIN)], {
  error: 'Choose Mod, Editor or Admin',
});
export type StaffLevel = z.infer<typeof staffLevelSchema>;
export const staffLevelValues: StaffLevel[] = [AccessLevel.MOD, AccessLevel.EDITOR, AccessLevel.ADMIN];

export const userRefSchema = z.object({ id: z.string(), display_name: z.string() });
export type UserRef = z.infer<typeof userRefSchema>;

/** One staff member of a channel (user access page). */
export const staffMemberSchema = z.object({
  user_id: z.string(),
  display_name: z.string(),
  avatar_url: z.string().nullable(),
  level: accessLevelSchema,
  /** Who gave the access; null for the creator of the channel or when that user was deleted. */
  added_by: userRefSchema.nullable(),
  created_at: z.string(),
});
export type StaffMember = z.infer<typeof staffMemberSchema>;
export const staffListSchema = z.array(staffMemberSchema);

export const staffParamsSchema = z.object({ channelId: z.string().max(64), userId: z.string().max(64) });
export const updateStaffBodySchema = z.object({ level: staffLevelSchema });
export type UpdateStaffBody = z.input<typeof updateStaffBodySchema>;

export const transferOwnershipBodySchema = z.object({
  user_id: z.string().min(1).max(64),
  /** The channel's display name typed by the Owner to confirm. */
  confirm_channel_name: z.string().trim().max(200),
});
export type TransferOwnershipBody = z.infer<typeof transferOwnershipBodySchema>;

// ---------------------------------------------------------------------------------------------
// Invitations
// ---------------------------------------------------------------------------------------------

/** How long an invitation stays valid, in hours (default 7 days, at most 30 days). */
export const INVITE_DEFAULT_HOURS = 7 * 24;
export const INVITE_MAX_HOURS = 30 * 24;
/** Choices offered by the web app (hours). */
export const inviteExpiryChoices = [
  { hours: 1, label: '1 hour' },
  { hours: 24, label: '1 day' },
  { hours: 7 * 24, label: '7 days' },
  { hours: 30 * 24, label: '30 days' },
] as const;
/** At most this many pending invitations per channel. */
export const INVITES_PENDING_MAX = 50;

export const createInviteBodySchema = z.object({
  level: staffLevelSchema,
  expires_in_hours: z.number().int().min(1).max(INVITE_MAX_HOURS, 'An invitation lasts at most 30 days').default(INVITE_DEFAULT_HOURS),
});
export type CreateInviteBody = z.input<typeof createInviteBodySchema>;

/** The invitation id is the secret of the link `/channel-invite/{channelUserInviteId}`. */
export const inviteIdSchema = z.string().min(1).max(200);
export const inviteParamsSchema = z.object({ channelId: z.string().max(64), channelUserInviteId: inviteIdSchema });

/** A pending invitation as Admins see it (the id is shown so the link can be copied again). */
export const channelUserInviteSchema = z.object({
  id: z.string(),
  level: accessLevelSchema,
  created_by: userRefSchema.nullable(),
  created_at: z.string(),
  expires_at: z.string(),
});
export type ChannelUserInvite = z.infer<typeof channelUserInviteSchema>;
export const channelUserInviteListSchema = z.array(channelUserInviteSchema);

export const inviteStates = ['valid', 'expired', 'used', 'revoked'] as const;
export type InviteState = (typeof inviteStates)[number];

/** What the invited user sees before accepting. */
export const inviteViewSchema = z.object({
  channel: z.object({ id: z.string(), display_name: z.string() }),
  level: accessLevelSchema,
  invited_by: userRefSchema.nullable(),
  expires_at: z.string(),
  state: z.enum(inviteStates),
  /** The viewer's current level in the channel, if any (accepting never lowers it). */
  current_level: accessLevelSchema.nullable(),
  /** True when the viewer is the one who already used it. */
  used_by_you: z.boolean(),
});
export type InviteView = z.infer<typeof inviteViewSchema>;

export const inviteAcceptedSchema = z.object({ channel_id: z.string(), level: accessLevelSchema });
export type InviteAccepted = z.infer<typeof inviteAcceptedSchema>;

/** Messages shown for invitations that cannot be accepted (server errors and the invitation page). */
export const inviteStateMessages: Record<Exclude<InviteState, 'valid'>, string> = {
  expired: 'This invitation has expired.',
  used: 'This invitation has already been used.',
  revoked: 'This invitation has been revoked.',
};
export const INVITE_NOT_FOUND = 'This invitation does not exist. Check the link you were given.';

export function inviteLink(id: string): string {
  return `/channel-invite/${encodeURIComponent(id)}`;
}

// ---------------------------------------------------------------------------------------------
// Audit log
// ---------------------------------------------------------------------------------------------

/**
 * Actions written by the staff feature. Other features write their own action names (for example
 * moderation); readers must treat `action` as an open string and `data` as a free object.
 */
export const StaffAuditAction = {
  levelChanged: 'staff.level_changed',
  removed: 'staff.removed',
  left: 'staff.left',
  ownershipTransferred: 'staff.ownership_transferred',
  inviteCreated: 'staff.invite_created',
  inviteRevoked: 'staff.invite_revoked',
  inviteAccepted: 'staff.invite_accepted',
} as const;

/** `data` of staff audit rows: the target user (name kept as it was) and the levels before and after. */
export interface StaffAuditData {
  target_user_id?: string;
  target_display_name?: string | null;
  from_level?: number | null;
  to_level?: number | null;
  invite_level?: number;
}

export const auditLogEntrySchema = z.object({
  id: z.string(),
  action: z.string(),
  /** Who acted: a Greenroom user (`actor` is them, null once their account is gone), the channel's bot, or Greenroom itself. */
  actor_kind: z.enum(['user', 'bot', 'system']),
  actor: userRefSchema.nullable(),
  data: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});
export type AuditLogEntry = z.infer<typeof auditLogEntrySchema>;
export const auditLogPageSchema = paginated(auditLogEntrySchema);
export const AUDIT_LOG_PAGE_SIZE = 25;
export const auditLogQuerySchema = z.object({
  cursor: z.string().max(40).optional(),
  per_page: z.coerce.number().int().min(1).max(100).default(AUDIT_LOG_PAGE_SIZE),
  /** An action (`moderation.ban`) or a whole area (`moderation` matches every `moderation.*`). */
  action: z
    .string()
    .max(100)
    .regex(/^[a-z0-9_.]+$/, 'is not an action name')
    .optional(),
  /** Only what this user did. */
  actor_user_id: z.string().max(64).optional(),
});
/** The people who appear as actors in a channel's audit log (for its "person" filter). */
export const auditLogActorsSchema = z.array(userRefSchema);
export type AuditLogQuery = z.input<typeof auditLogQuerySchema>;

/** Levels a user of `actorLevel` may give to someone else (never above their own). */
export function assignableLevels(actorLevel: number): StaffLevel[] {
  return staffLevelValues.filter((l) => l <= actorLevel);
}

/** Whether an actor may change or remove a staff member currently at `targetLevel`. */
export function canManageMember(actorLevel: number, targetLevel: number): boolean {
  if (targetLevel >= AccessLevel.OWNER) return false;
  if (targetLevel >= AccessLevel.ADMIN) return actorLevel >= AccessLevel.OWNER;
  return actorLevel >= AccessLevel.ADMIN && targetLevel <= actorLevel;
}
