/** Helix eventsub/subscriptions (websocket transport) and the EventSub WebSocket endpoint /ws. */
import type { FastifyInstance } from 'fastify';
import { asObject, stringRecord } from '../http/params';
import { helixAuth, helixError, paginate, type HelixDeps } from './helix';
import type { EventSubHub, EventSubSubscription } from './eventsub/hub';
import { normaliseCondition, subscriptionTypes, validateCondition } from './eventsub/subscription-types';

function totals(hub: EventSubHub, clientId: string, userId: string): { total: number; total_cost: number; max_total_cost: number } {
  const enabled = hub.subscriptionsOf(clientId, userId).filter((s) => s.status === 'enabled');
  return { total: enabled.length, total_cost: enabled.reduce((sum, s) => sum + s.cost, 0), max_total_cost: hub.settings.maxTotalCost };
}

export async function eventsubRoutes(app: FastifyInstance, deps: HelixDeps & { hub: EventSubHub }): Promise<void> {
  const { hub, world } = deps;

  app.post('/eventsub/subscriptions', async (request, reply) => {
    const token = helixAuth(deps, request, reply);
    if (!token) return reply;
    const body = asObject(request.body);
    const type = typeof body.type === 'string' ? body.type : '';
    const version = typeof body.version === 'string' ? body.version : '';
    if (!type) return helixError(reply, 400, 'Missing required parameter "type"');
    if (!version) return helixError(reply, 400, 'Missing required parameter "version"');
    const spec = subscriptionTypes[type];
    if (!spec || spec.version !== version)
      return helixError(reply, 400, 'The combination of values in the type and version fields is not valid.');
    const rawCondition = asObject(body.condition);
    const conditionError = validateCondition(spec, rawCondition);
    if (conditionError) return helixError(reply, 400, conditionError);
    const condition = normaliseCondition(spec, rawCondition);
    const transport = asObject(body.transport);
    if (transport.method !== 'websocket') {
      if (transport.method === 'webhook' || transport.method === 'conduit')
        return helixError(reply, 400, `The transport method ${transport.method} is not served by the Greenroom emulator; use websocket.`);
      return helixError(reply, 400, 'The transport.method field is not valid.');
    }
    if (token.userId === null) return helixError(reply, 400, 'The websocket transport requires a user access token.');
    const sessionId = typeof transport.session_id === 'string' ? transport.session_id : '';
    if (!sessionId) return helixError(reply, 400, 'Missing required parameter "transport.session_id"');
    const session = hub.sessions.get(sessionId);
    if (!session?.open) return helixError(reply, 400, 'websocket transport session does not exist or has already disconnected');
    if (session.userId !== null && (session.userId !== token.userId || session.clientId !== token.clientId)) {
      return helixError(reply, 400, 'websocket transport session belongs to a different client or user');
    }
    if (spec.scope && !token.scopes.includes(spec.scope)) return helixError(reply, 403, 'subscription missing proper authorization');
    if (!spec.authorized(world, token, condition)) return helixError(reply, 403, 'subscription missing proper authorization');
    if (hub.findDuplicate(session.id, type, version, condition)) return helixError(reply, 409, 'subscription already exists');
    // A user token may hold 3 WebSocket connections with enabled subscriptions; the first subscription on a 4th is refused.
    const enabledHere = [...session.subscriptions].some((id) => hub.subscriptions.get(id)?.status === 'enabled');
    if (!enabledHere && hub.connectionsWithSubscriptions(token.clientId, token.userId, session) >= hub.settings.maxConnectionsPerUser)
      return helixError(reply, 429, 'number of websocket transports limit exceeded');
    if (session.subscriptions.size >= hub.settings.maxSubscriptionsPerSession)
      return helixError(reply, 429, 'websocket transport session exceeded the maximum number of subscriptions');
    const broadcaster = condition.broadcaster_user_id ?? condition.to_broadcaster_user_id ?? condition.from_broadcaster_user_id ?? '';
    const cost = spec.scope !== null || broadcaster === token.userId ? 0 : 1;
    const before = totals(hub, token.clientId, token.userId);
    if (before.total_cost + cost > hub.settings.maxTotalCost)
      return helixError(reply, 429, 'The maximum total cost of subscriptions has been reached.');
    const sub = hub.addSubscription({
      type,
      version,
      condition,
      routeKey: spec.routeKey(condition),
      cost,
      session,
      clientId: token.clientId,
      userId: token.userId,
    });
    world.record({
      platform: 'twitch',
      type: 'subscribe',
      channelId: broadcaster || null,
      actorId: token.userId,
      data: { subscriptionId: sub.id, type, version, condition, sessionId },
    });
    return reply.code(202).send({ data: [hub.subscriptionJson(sub)], ...totals(hub, token.clientId, token.userId) });
  });

  app.get('/eventsub/subscriptions', async (request, reply) => {
    const token = helixAuth(deps, request, reply);
    if (!token) return reply;
    const q = stringRecord(request.query);
    const filters = [q.status, q.type, q.user_id, q.subscription_id].filter((f) => f !== undefined);
    if (filters.length > 1) return helixError(reply, 400, 'Only one of status, type, user_id or subscription_id may be specified.');
    let subs: EventSubSubscription[] = token.userId === null ? [] : hub.subscriptionsOf(token.clientId, token.userId);
    if (q.status) subs = subs.filter((s) => s.status === q.status);
    if (q.type) subs = subs.filter((s) => s.type === q.type);
    if (q.user_id) subs = subs.filter((s) => Object.values(s.condition).includes(q.user_id!));
    if (q.subscription_id) subs = subs.filter((s) => s.id === q.subscription_id);
    const result = paginate(subs, { first: q.first ?? '100', after: q.after });
    if ('error' in result) return helixError(reply, 400, result.error);
    const t =
      token.userId === null
        ? { total: 0, total_cost: 0, max_total_cost: hub.settings.maxTotalCost }
        : totals(hub, token.clientId, token.userId);
    return reply.send({
      data: result.page.map((s) => hub.subscriptionJson(s)),
      ...t,
      pagination: result.cursor ? { cursor: result.cursor } : {},
    });
  });

  app.delete('/eventsub/subscriptions', async (request, reply) => {
    const token = helixAuth(deps, request, reply);
    if (!token) return reply;
    const id = stringRecord(request.query).id;
    if (!id) return helixError(reply, 400, 'Missing required parameter "id"');
    const sub = hub.subscriptions.get(id);
    if (!sub || sub.clientId !== token.clientId || (token.userId !== null && sub.userId !== token.userId))
      return helixError(reply, 404, 'subscription not found');
    hub.deleteSubscription(id);
    world.record({
      platform: 'twitch',
      type: 'unsubscribe',
      channelId: null,
      actorId: token.userId,
      data: { subscriptionId: id, type: sub.type },
    });
    return reply.code(204).send();
  });

  app.get('/ws', { websocket: true }, (socket, request) => {
    hub.accept(socket, stringRecord(request.query), request.raw.socket);
  });
}
