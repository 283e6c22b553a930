import type { FastifyInstance } from 'fastify';
import { stringList } from '../http/params';
import type { Account, World } from '../world';
import { helixAuth, helixError, type HelixDeps } from './helix';

export function helixUser(account: Account, includeEmail: boolean): Record<string, unknown> {
  return {
    id: account.id,
    login: account.login,
    display_name: account.displayName,
    type: '',
    broadcaster_type: account.kind === 'streamer' ? 'affiliate' : '',
    description: account.kind === 'streamer' ? `${account.displayName} streams on Greenroom.` : '',
    profile_image_url: account.avatarUrl,
    offline_image_url: '',
    view_count: 0,
    ...(includeEmail ? { email: account.email } : {}),
    created_at: account.createdAt.toISOString(),
  };
}

export function twitchAccount(world: World, id: string): Account | undefined {
  return world.account('twitch', id);
}

export async function usersRoutes(app: FastifyInstance, deps: HelixDeps): Promise<void> {
  app.get('/mock/users', async (request, reply) => {
    const token = helixAuth(deps, request, reply);
    if (!token) return reply;
    const query = request.query as Record<string, unknown>;
    const ids = stringList(query.id);
    const logins = stringList(query.login);
    if (ids.length + logins.length > 100) return helixError(reply, 400, 'The sum of the id and login parameters must not exceed 100.');
    let accounts: Account[];
    if (ids.length === 0 && logins.length === 0) {
      if (token.userId === null) return helixError(reply, 400, 'Must provide an ID, Login or OAuth Token');
      const me = deps.world.account('twitch', token.userId);
      accounts = me ? [me] : [];
    } else {
      const found = new Map<string, Account>();
      for (const id of ids) {
        const a = deps.world.account('twitch', id);
        if (a) found.set(a.id, a);
      }
      for (const login of logins) {
        const a = deps.world.accountByLogin('twitch', login);
        if (a) found.set(a.id, a);
      }
      accounts = [...found.values()];
    }
    const canSeeEmail = token.scopes.includes('user:read:email');
    return reply.send({ data: accounts.map((a) => helixUser(a, canSeeEmail && a.id === token.userId)) });
  });
}
