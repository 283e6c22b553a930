import type { AccessLevelValue } from '@greenroom/contracts/access';

/**
 * What a route needs, declared in its definition (`config: { access }`) and enforced by the one
 * authorization gate in plugins/auth.ts. Every /api route must declare it (checked at start-up
 * and by the authorization matrix test).
 *  - 'public': anyone; 'user': a signed-in user; 'operator': an operator of the admin area;
 *  - { channel: level }: a staff member of `params.channelId` with at least that level. Users with
 *    no role in the channel get 404 so channel ids cannot be probed.
 */
export type Access = 'public' | 'user' | 'operator' | { channel: AccessLevelValue };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
}
