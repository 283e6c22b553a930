import type { AccessLevelValue } from '@greenroom/contracts/access';
import { abilityLevel, type ChannelAbility } from '@greenroom/contracts/abilities';

/**
 * What a route needs, declared in its definition (`config: { access }`) and enforced by the one
 * authorization gate in plugins/auth.ts. Every /api route must declare it (checked at start-up
 * and by the authorization matrix test).
 *  - 'public': anyone; 'user': a signed-in user; 'operator': an operator of the admin area;
 *  - channel access, built by `channelAccess(ability)` from the one ability table
 *    (packages/contracts/src/abilities.ts): a staff member of `params.channelId` with at least the
 *    ability's level. Users with no role in the channel get 404 so channel ids cannot be probed.
 */
export type Access = 'public' | 'user' | 'operator' | ChannelAccess;

export interface ChannelAccess {
  ability: ChannelAbility;
  /** The ability's level (from the table), read by the gate. */
  channel: AccessLevelValue;
}

/** Channel access for a route: the caller needs `ability` in `params.channelId`. */
export function channelAccess(ability: ChannelAbility): ChannelAccess {
  return { ability, channel: abilityLevel(ability) };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
}
