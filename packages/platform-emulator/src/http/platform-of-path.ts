import type { Platform } from '../world';

const prefixes: [string, Platform][] = [
  ['/mock/', 'twitch'],
  ['/eventsub/', 'twitch'],
  ['/auth/', 'twitch'],
  ['/ws', 'twitch'],
  ['/google/', 'youtube'],
  ['/youtube/', 'youtube'],
  ['/kick-id/', 'kick'],
  ['/kick/', 'kick'],
  ['/tiktok-live/', 'tiktok'],
  ['/tiktok/', 'tiktok'],
  ['/spotify-accounts/', 'spotify'],
  ['/spotify/', 'spotify'],
  ['/discord/', 'discord'],
];

/** Which platform a request path belongs to; null for the control API and the emote services. */
export function platformOfPath(url: string): Platform | null {
  for (const [prefix, platform] of prefixes) if (url.startsWith(prefix)) return platform;
  return null;
}
