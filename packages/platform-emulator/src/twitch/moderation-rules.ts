import type { Channel } from '../world';

export type BanEntry = Channel['bans'] extends Map<string, infer V> ? V : never;

/** The live ban of a user in a channel (expired timeouts are dropped). */
export function activeBan(channel: Channel, userId: string, now = Date.now()): BanEntry | undefined {
  const ban = channel.bans.get(userId);
  if (!ban) return undefined;
  if (ban.expiresAt && ban.expiresAt.getTime() <= now) {
    channel.bans.delete(userId);
    return undefined;
  }
  return ban;
}

export function isModerator(channel: Channel, userId: string): boolean {
  return userId === channel.id || channel.moderators.has(userId);
}
