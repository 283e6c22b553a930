import { accessLevelLabels, type AccessLevelValue } from '@greenroom/contracts/access';
import { StaffAuditAction, type AuditLogEntry } from '@greenroom/contracts/api/staff';

const levelName = (value: unknown): string =>
  typeof value === 'number' && value in accessLevelLabels ? accessLevelLabels[value as AccessLevelValue] : 'no role';
const text = (value: unknown, fallback: string): string => (typeof value === 'string' && value !== '' ? value : fallback);

/** "moderation.ban" → "Moderation: ban"; "chat_commands.updated" → "Chat commands: updated". */
export function humanizeAction(action: string): string {
  const [area, ...rest] = action.split('.');
  const words = (s: string) => s.replace(/[_-]+/g, ' ').trim();
  const head = words(area ?? '');
  const capitalised = head.charAt(0).toUpperCase() + head.slice(1);
  return rest.length === 0 ? capitalised : `${capitalised}: ${words(rest.join(' '))}`;
}

/** Short "key: value" details of an action this page does not know (other features' rows). */
export function auditDetails(data: Record<string, unknown>): string {
  return Object.entries(data)
    .filter(([, v]) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')
    .slice(0, 4)
    .map(([k, v]) => `${k.replace(/_/g, ' ')}: ${String(v)}`)
    .join(' · ');
}

/** What an audit row says, after the actor's name: "changed Mona from Mod to Editor". */
export function describeAuditEntry(entry: Pick<AuditLogEntry, 'action' | 'data'>): string {
  const d = entry.data;
  const target = text(d.target_display_name, 'a former user');
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
    default: {
      const details = auditDetails(d);
      return details ? `${humanizeAction(entry.action)} — ${details}` : humanizeAction(entry.action);
    }
  }
}
