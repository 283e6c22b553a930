import { z } from 'zod';

/** Per-channel access levels. Higher levels include lower ones. */
export const AccessLevel = {
  PUBLIC: 0,
  SUB: 1,
  VIP: 2,
  MOD: 7,
  EDITOR: 100,
  ADMIN: 200,
  OWNER: 500,
} as const;
export type AccessLevelName = keyof typeof AccessLevel;
export type AccessLevelValue = (typeof AccessLevel)[AccessLevelName];

export const accessLevelValues = Object.values(AccessLevel) as AccessLevelValue[];
export const accessLevelSchema = z.union(
  accessLevelValues.map((v) => z.literal(v)) as [z.ZodLiteral<0>, ...z.ZodLiteral<AccessLevelValue>[]],
);

export const accessLevelLabels: Record<AccessLevelValue, string> = {
  0: 'Public',
  1: 'Sub',
  2: 'VIP',
  7: 'Mod',
  100: 'Editor',
  200: 'Admin',
  500: 'Owner',
};

/** Audience levels selectable for chatbot features. */
export const audienceLevels: AccessLevelValue[] = [
  AccessLevel.PUBLIC,
  AccessLevel.SUB,
  AccessLevel.VIP,
  AccessLevel.MOD,
  AccessLevel.OWNER,
];

/** Levels that can be given to staff (user access page, invitations). */
export const staffLevels: AccessLevelValue[] = [AccessLevel.MOD, AccessLevel.EDITOR, AccessLevel.ADMIN];

export function hasLevel(actual: number | null | undefined, required: AccessLevelValue): boolean {
  return actual != null && actual >= required;
}
