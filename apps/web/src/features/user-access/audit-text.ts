import { accessLevelLabels, type AccessLevelValue } from '@greenroom/contracts/access';
import { StaffAuditAction, type AuditLogEntry } from '@greenroom/contracts/api/staff';
import { providerIdSchema, providers } from '@greenroom/contracts/providers';
import { duration } from '../../lib/format';

const levelName = (value: unknown): string =>
  typeof value === 'number' && value in accessLevelLabels ? accessLevelLabels[value as AccessLevelValue] : 'no role';
const text = (value: unknown, fallback: string): string => (typeof value === 'string' && value !== '' ? value : fallback);
/** A platform's name from a stored provider id ("the platform" when it is missing or unknown). */
const platform = (value: unknown): string => {
  const parsed = providerIdSchema.safeParse(value);
  return parsed.success ? providers[parsed.data].name : 'the platform';
};
/** Quoted, shortened user text. */
const quote = (value: unknown, max = 80): string => {
  const s = typeof value === 'string' ? value : '';
  const short = [...s].length > max ? `${[...s].slice(0, max - 1).join('')}…` : s;
  return `“${short}”`;
};

/** "moderation.ban" → "Moderation: ban"; "chat_commands.updated" → "Chat commands: updated". */
export function humanizeAction(action: string): string {
  const [area, ...rest] = action.split('.');
  const words = (s: string) => s.replace(/[_-]+/g, ' ').trim();
  const head = words(area ?? '');
  const capitalised = head.charAt(0).toUpperCase() + head.slice(1);
  return rest.length === 0 ? capitalised : `${capitalised}: ${words(rest.join(' '))}`;
}

/**
 * Short details of an action this page does not know (other features' rows), as words: ids, nested values and
 * empty fields are left out.
 */
export function auditDetails(data: Record<string, unknown>): string {
  return Object.entries(data)
    .filter(([k, v]) => !k.endsWith('_id') && k !== 'id' && (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'))
    .slice(0, 4)
    .map(([k, v]) => `${k.replace(/_/g, ' ')} ${k === 'provider' ? platform(v) : String(v)}`)
    .join(', ');
}

/** " — “reason”" when there is one. */
const because = (reason: unknown) => (typeof reason === 'string' && reason !== '' ? ` — ${quote(reason)}` : '');

/** What an audit row says, after the actor's name: "changed Mona from Mod to Editor", "timed out Troll on Twitch for 0:10:00". */
export function describeAuditEntry(entry: Pick<AuditLogEntry, 'action' | 'data'>): string {
  const d = entry.data;
  const target = text(d.target_display_name, 'a former user');
  const viewer = text(d.viewer_display_name, 'a viewer');
  const on = platform(d.provider);
  switch (entry.action) {
    case StaffAuditAction.levelChanged:
      return `changed ${target} from ${levelName(d.from_level)} to ${levelName(d.to_level)}`;
    case StaffAuditAction.removed:
      return `removed ${target} (${levelName(d.from_level)})`;
    case StaffAuditAction.left:
      return `left the channel (was ${levelName(d.from_level)})`;
    case StaffAuditAction.ownershipTransferred:
      return `transferred ownership to ${target} and became Admin`;
    case StaffAuditAction.inviteCreated:
      return `created an invitation for ${levelName(d.invite_level)}`;
    case StaffAuditAction.inviteRevoked:
      return `revoked an invitation for ${levelName(d.invite_level)}`;
    case StaffAuditAction.inviteAccepted:
      return d.from_level == null
        ? `joined as ${levelName(d.to_level)} through an invitation`
        : `accepted an invitation: ${levelName(d.from_level)} to ${levelName(d.to_level)}`;
    case 'moderation.timeout':
      return `timed out ${viewer} on ${on}${typeof d.duration_seconds === 'number' ? ` for ${duration(d.duration_seconds)}` : ''}${because(d.reason)}`;
    case 'moderation.ban':
      return `banned ${viewer} on ${on}${because(d.reason)}`;
    case 'moderation.unban':
      return `unbanned ${viewer} on ${on}`;
    case 'moderation.delete_message':
      return d.message_text
        ? `deleted a message by ${viewer} on ${on}: ${quote(d.message_text)}`
        : `deleted a message by ${viewer} on ${on}`;
    case 'chat.sent': {
      const as = d.as === 'broadcaster' ? 'the streamer' : 'the bot';
      const account = typeof d.account === 'string' && d.account !== '' ? ` (${d.account})` : '';
      return `sent ${quote(d.text)} on ${on} as ${as}${account}`;
    }
    case 'platform.connected':
      return `connected ${on}${typeof d.provider_channel_name === 'string' ? ` (${d.provider_channel_name})` : ''}`;
    case 'platform.disconnected':
      return `disconnected ${on}${typeof d.provider_channel_name === 'string' ? ` (${d.provider_channel_name})` : ''}`;
    case 'platform.bot_connected':
      return `connected ${text(d.bot, 'an account')} as the ${on} bot account`;
    case 'platform.bot_disconnected':
      return `removed the ${on} bot account`;
    case 'stream.updated': {
      const changes: string[] = [];
      if (typeof d.title === 'string') changes.push(`the title to ${quote(d.title)}`);
      if (d.category_id != null) changes.push(`the category to ${text(d.category_name, 'another one')}`);
      return changes.length ? `changed ${changes.join(' and ')} on ${on}` : `changed the stream info on ${on}`;
    }
    case 'points.unlinked':
      return `unlinked ${text(d.viewer, 'a viewer')}’s ${on} account from their points wallet`;
    case 'points.adjusted': {
      const delta = typeof d.delta === 'number' ? d.delta : 0;
      const amount = Math.abs(delta).toLocaleString('en-US');
      const who = text(d.viewer, 'a viewer');
      return `${delta < 0 ? `removed ${amount} points from ${who}` : `added ${amount} points to ${who}`}${because(d.reason)}`;
    }
    case 'stream.commercial':
      return typeof d.length_seconds === 'number' ? `ran a ${d.length_seconds}-second ad on ${on}` : `ran an ad on ${on}`;
    case 'channel.renamed':
      return `renamed the channel from ${quote(d.from)} to ${quote(d.to)}`;
    case 'channel.chat_settings_changed':
      return d.editors_post_as_streamer ? 'let Editors post in chat as the streamer' : 'stopped Editors posting in chat as the streamer';
    default: {
      const details = auditDetails(d);
      return details ? `${humanizeAction(entry.action)} — ${details}` : humanizeAction(entry.action);
    }
  }
}

/** The action filter of the audit log: an area (every action in it) or one action, with what people call it. */
export const auditActionFilters: { group: string; items: { value: string; label: string }[] }[] = [
  {
    group: 'Moderation',
    items: [
      { value: 'moderation', label: 'All moderation' },
      { value: 'moderation.timeout', label: 'Timeouts' },
      { value: 'moderation.ban', label: 'Bans' },
      { value: 'moderation.unban', label: 'Unbans' },
      { value: 'moderation.delete_message', label: 'Deleted messages' },
    ],
  },
  {
    group: 'Chat',
    items: [{ value: 'chat.sent', label: 'Messages sent from Greenroom' }],
  },
  {
    group: 'Staff',
    items: [
      { value: 'staff', label: 'All staff changes' },
      { value: 'staff.level_changed', label: 'Role changes' },
      { value: 'staff.invite_accepted', label: 'Invitations accepted' },
    ],
  },
  {
    group: 'Channel',
    items: [
      { value: 'platform', label: 'Platforms connected and disconnected' },
      { value: 'stream.updated', label: 'Stream title and category' },
      { value: 'stream.commercial', label: 'Ads run' },
      { value: 'channel', label: 'Channel name and settings' },
    ],
  },
];
