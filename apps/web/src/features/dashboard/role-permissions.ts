import { abilitySummariesOf, missingAbilitySummaries } from '@greenroom/contracts/abilities';

/** What a channel level may do, in words (from the one ability table; higher levels include everything below them). */
export function abilitiesOf(level: number): string[] {
  return abilitySummariesOf(level);
}

/** Abilities the next levels would add, for "what you cannot do" hints. */
export function missingAbilities(level: number): string[] {
  return missingAbilitySummaries(level);
}
