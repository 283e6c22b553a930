import { AccessLevel, type AccessLevelValue } from '@greenroom/contracts/access';

/** What each channel level may do; higher levels include everything below them. */
const grants: { level: AccessLevelValue; abilities: string[] }[] = [
  { level: AccessLevel.MOD, abilities: ['Read the activity feed', 'Use the moderation tools in chat'] },
  {
    level: AccessLevel.EDITOR,
    abilities: [
      'Manage chat commands, timers, filters and quotes',
      'Manage gambling settings, giveaways and the viewer queue',
      'Manage stream widgets',
      'Update the stream title, run ads and read stats',
    ],
  },
  { level: AccessLevel.ADMIN, abilities: ['Manage the connected platforms', 'Manage user access', 'Rename the channel'] },
  { level: AccessLevel.OWNER, abilities: ['Transfer ownership and delete the channel'] },
];

export function abilitiesOf(level: number): string[] {
  return grants.filter((grant) => level >= grant.level).flatMap((grant) => grant.abilities);
}

/** Abilities the next levels would add, for "what you cannot do" hints. */
export function missingAbilities(level: number): string[] {
  return grants.filter((grant) => level < grant.level).flatMap((grant) => grant.abilities);
}
