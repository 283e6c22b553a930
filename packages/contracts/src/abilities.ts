import { AccessLevel, type AccessLevelValue } from './access';

/**
 * Who may do what in a channel: one table, read by the server's route declarations (`channelAccess(ability)`
 * in apps/server/src/lib/access.ts), the web app's page registry (`ability` of each channel page) and the
 * dashboard's "what your role can do" list (`summary`; abilities without one are not listed there).
 * A level includes every level below it. Operators get Admin-level support access (see plugins/auth.ts).
 */
export const channelAbilities = {
  /** See the channel and its dashboard; leave it. Every staff level. */
  'channel.view': { level: AccessLevel.PUBLIC, summary: null },
  'activity.read': { level: AccessLevel.MOD, summary: 'Read the activity feed' },
  /** Read and write the unified chat, its history and viewer cards, and moderate (ban, timeout, delete). */
  'chat.moderate': { level: AccessLevel.MOD, summary: 'Use the moderation tools in chat' },
  /**
   * Post in chat as the broadcaster's own account (everyone else sends as the bot). Editors too when the Owner
   * turns on the channel's `editors_post_as_streamer` (see `canPostAsStreamer`).
   */
  'chat.post_as_streamer': { level: AccessLevel.ADMIN, summary: 'Post in chat as the streamer' },
  /** Chat settings only the Owner changes (whether Editors may post as the streamer). */
  'chat.settings': { level: AccessLevel.OWNER, summary: null },
  /** See the connected platforms and their live state (the chat tools show them). */
  'platforms.view': { level: AccessLevel.MOD, summary: null },
  'chatbot.manage': { level: AccessLevel.EDITOR, summary: 'Manage chat commands, timers, filters and quotes' },
  'games.manage': { level: AccessLevel.EDITOR, summary: 'Manage gambling settings, giveaways and the viewer queue' },
  /** The song request queue: see it, skip the playing track, remove requests. */
  'songs.queue': { level: AccessLevel.MOD, summary: 'Skip and remove song requests' },
  /** Song request settings (who may request, cost, length limit, blocked tracks). */
  'songs.manage': { level: AccessLevel.EDITOR, summary: 'Manage song request settings' },
  'widgets.manage': { level: AccessLevel.EDITOR, summary: 'Manage stream widgets' },
  /** Title and category on the platforms (also: run ads, read stats). */
  'stream.update': { level: AccessLevel.EDITOR, summary: 'Update the stream title, run ads and read stats' },
  /** The stats page (viewers, chat and events over time); listed with `stream.update`. */
  'stats.read': { level: AccessLevel.EDITOR, summary: null },
  /** Connect and disconnect platforms and bot accounts. */
  'platforms.manage': { level: AccessLevel.ADMIN, summary: 'Manage the connected platforms' },
  /** Staff levels, invitations and the audit log. */
  'staff.manage': { level: AccessLevel.ADMIN, summary: 'Manage user access' },
  'channel.rename': { level: AccessLevel.ADMIN, summary: 'Rename the channel' },
  'channel.delete': { level: AccessLevel.OWNER, summary: 'Transfer ownership and delete the channel' },
} as const satisfies Record<string, { level: AccessLevelValue; summary: string | null }>;

export type ChannelAbility = keyof typeof channelAbilities;

/** The lowest level that has the ability. */
export function abilityLevel(ability: ChannelAbility): AccessLevelValue {
  return channelAbilities[ability].level;
}

/** Whether a caller at `level` (null: no role) has the ability. */
export function can(level: number | null | undefined, ability: ChannelAbility): boolean {
  return level != null && level >= channelAbilities[ability].level;
}

const summarized: { level: AccessLevelValue; summary: string }[] = (Object.keys(channelAbilities) as ChannelAbility[])
  .flatMap((ability): { level: AccessLevelValue; summary: string }[] => {
    const { level, summary } = channelAbilities[ability];
    return summary === null ? [] : [{ level, summary }];
  })
  .sort((a, b) => a.level - b.level);

/** What a level may do, in words, lowest level first (the dashboard's list). */
export function abilitySummariesOf(level: number): string[] {
  return summarized.filter((a) => level >= a.level).map((a) => a.summary);
}

/** What the levels above `level` would add, in words. */
export function missingAbilitySummaries(level: number): string[] {
  return summarized.filter((a) => level < a.level).map((a) => a.summary);
}
