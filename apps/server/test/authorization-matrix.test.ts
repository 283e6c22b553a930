/**
 * The authorization matrix, generated from the live route table: every /api route declares its
 * access (`config.access`) and the one gate enforces it. For each route this suite checks that
 * everyone below the requirement is refused by the gate and that the requirement itself passes it.
 * Routes added later by other features are covered automatically.
 */
import { afterAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { WebSocket } from 'ws';
import { z } from 'zod';
import { AccessLevel, accessLevelLabels, accessLevelValues, type AccessLevelValue } from '@greenroom/contracts/access';
import { channelUsers, channels } from '../src/db/schema';
import { channelAccess } from '../src/lib/access';
import { newId } from '../src/lib/ids';
import { GATE_MESSAGES, OPERATOR_CHANNEL_LEVEL, registerAuth, WS_PROTOCOL, type AccessRoute } from '../src/plugins/auth';
import { createTestApp, type TestApp, type TestUser } from './helper';

// ---------------------------------------------------------------------------------------------
// Building requests from a route's declaration
// ---------------------------------------------------------------------------------------------

/** A valid-looking value for one path parameter, from its zod schema when there is one. */
function paramValue(name: string, schema: unknown): string {
  // The last: a content hash (SHA-256 hex), as public media addresses use.
  const candidates = [newId(), 'twitch', '1', 'abc', 'a'.repeat(64)];
  if (schema instanceof z.ZodType) {
    const options = (schema as { options?: unknown }).options;
    if (Array.isArray(options)) candidates.unshift(...options.map(String));
    const fit = candidates.find((c) => schema.safeParse(c).success);
    if (fit === undefined) throw new Error(`No valid-looking value for :${name}; teach the matrix test a candidate`);
    return fit;
  }
  return candidates[0]!;
}

function urlFor(route: AccessRoute, channelId: string): string {
  const shape = route.params instanceof z.ZodObject ? (route.params.shape as Record<string, unknown>) : {};
  return route.url.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) =>
    encodeURIComponent(name === 'channelId' ? channelId : paramValue(name, shape[name])),
  );
}

/** Every /api route in Fastify's router, read from `printRoutes` (independent of the gate's own table). */
function routerApiRoutes(app: FastifyInstance): Set<string> {
  const found = new Set<string>();
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^((?:│ {3}| {4})*)(?:├── |└── )(.*?)(?: \(([^)]*)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    const path = (stack[depth - 1] ?? '') + m[2]!;
    stack[depth] = path;
    for (const method of (m[3] ?? '').split(',').map((x) => x.trim())) {
      if (method && method !== 'HEAD' && path.startsWith('/api/')) found.add(`${method} ${path}`);
    }
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// Probing
// ---------------------------------------------------------------------------------------------

interface Fixture {
  channelId: string;
  byLevel: Map<AccessLevelValue, TestUser>;
  outsider: TestUser;
  operator: TestUser;
}

/** A fresh channel with one staff member at every level, a signed-in outsider and an operator (fresh per route: handlers may change state). */
async function fixture(t: TestApp): Promise<Fixture> {
  const channelId = newId();
  await t.s.db.insert(channels).values({ id: channelId, displayName: `Matrix ${channelId.slice(-6)}` });
  const byLevel = new Map<AccessLevelValue, TestUser>();
  for (const level of accessLevelValues) {
    const user = await t.createUser({ displayName: `${accessLevelLabels[level]}_${channelId.slice(-4)}` });
    await t.s.db.insert(channelUsers).values({ channelId, userId: user.id, level });
    byLevel.set(level, user);
  }
  return { channelId, byLevel, outsider: await t.createUser(), operator: await t.createUser({ operator: true }) };
}

async function probe(t: TestApp, route: AccessRoute, user: TestUser | null, channelId: string): Promise<LightMyRequestResponse> {
  const url = urlFor(route, channelId);
  // Websocket clients authenticate through the subprotocol (`greenroom, <token>`), not a header.
  const headers: Record<string, string> =
    route.websocket && user ? { 'sec-websocket-protocol': `${WS_PROTOCOL}, ${user.token}` } : { ...(user?.headers ?? {}) };
  const withBody = ['POST', 'PUT', 'PATCH'].includes(route.method);
  return t.app.inject({
    method: route.method as 'GET',
    url,
    headers: withBody ? { ...headers, 'content-type': 'application/json' } : headers,
    payload: withBody ? '{}' : undefined,
  });
}

/**
 * Opens a real websocket (over a listening socket: the gate runs on the upgrade request) with the
 * token offered as subprotocol. Resolves once open; rejects with the HTTP status of a refused upgrade.
 */
async function openSocket(t: TestApp, route: AccessRoute, user: TestUser, channelId: string): Promise<void> {
  if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  const socket = new WebSocket(`ws://127.0.0.1:${address.port}${urlFor(route, channelId)}`, [WS_PROTOCOL, user.token]);
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused with ${res.statusCode}`)));
    socket.once('error', reject);
  }).finally(() => socket.terminate());
}

const describeAccess = (r: AccessRoute) =>
  typeof r.access === 'string' ? r.access : `channel ${accessLevelLabels[r.access.channel]} (${r.access.channel}, ${r.access.ability})`;
const bodyOf = (res: LightMyRequestResponse): { type?: string; message?: string } => {
  try {
    return res.json();
  } catch {
    return {};
  }
};

/** True when the gate refused: 401, or 403/404 with one of the gate's own messages. */
function gateRefused(res: LightMyRequestResponse): boolean {
  const { message } = bodyOf(res);
  if (res.statusCode === 401) return true;
  if (res.statusCode === 403)
    return message === GATE_MESSAGES.belowLevel || message === GATE_MESSAGES.notOperator || /anti-forgery/.test(message ?? '');
  return res.statusCode === 404 && message === GATE_MESSAGES.channelNotFound;
}

function expectPassed(res: LightMyRequestResponse, who: string): void {
  expect(gateRefused(res), `${who} was refused: ${res.statusCode} ${res.body}`).toBe(false);
  expect(res.statusCode, `${who}: ${res.body}`).not.toBe(500);
}

function expectStatus(res: LightMyRequestResponse, status: number, message: string | null, who: string): void {
  expect(res.statusCode, `${who}: ${res.body}`).toBe(status);
  if (message != null) expect(bodyOf(res).message, who).toBe(message);
}

/** Checks one route against its declared access. */
async function checkRoute(t: TestApp, route: AccessRoute): Promise<void> {
  const fx = await fixture(t);
  const { access } = route;
  const signedOut = await probe(t, route, null, fx.channelId);

  if (access === 'public') {
    expectPassed(signedOut, 'signed-out visitor');
    return;
  }
  expectStatus(signedOut, 401, null, 'signed-out visitor');
  expect(bodyOf(signedOut).type).toBe('unauthenticated');

  if (access === 'user') {
    expectPassed(await probe(t, route, fx.outsider, fx.channelId), 'signed-in user');
    return;
  }
  if (access === 'operator') {
    const staffOwner = fx.byLevel.get(AccessLevel.OWNER)!;
    expectStatus(await probe(t, route, staffOwner, fx.channelId), 403, GATE_MESSAGES.notOperator, 'non-operator (a channel Owner)');
    expectPassed(await probe(t, route, fx.operator, fx.channelId), 'operator');
    return;
  }

  const required = access.channel;
  // No role at all, and a channel that does not exist: the same 404, so channel ids cannot be probed.
  expectStatus(await probe(t, route, fx.outsider, fx.channelId), 404, GATE_MESSAGES.channelNotFound, 'user without a role');
  expectStatus(
    await probe(t, route, fx.byLevel.get(AccessLevel.OWNER)!, newId()),
    404,
    GATE_MESSAGES.channelNotFound,
    'member, unknown channel id',
  );
  for (const level of accessLevelValues.filter((l) => l < required)) {
    expectStatus(
      await probe(t, route, fx.byLevel.get(level)!, fx.channelId),
      403,
      GATE_MESSAGES.belowLevel,
      `${accessLevelLabels[level]} (${level})`,
    );
  }
  const requiredUser = fx.byLevel.get(required);
  if (!requiredUser) throw new Error(`Route ${route.method} ${route.url} requires level ${required}, which is not an access level`);

  // Operators have Admin support access to every channel; use a second channel so the probes do not interfere.
  const opFx = await fixture(t);
  const asOperator = await probe(t, route, opFx.operator, opFx.channelId);
  if (required <= OPERATOR_CHANNEL_LEVEL) expectPassed(asOperator, 'operator (support access)');
  else expectStatus(asOperator, 403, GATE_MESSAGES.belowLevel, 'operator (support access)');

  if (route.websocket) await openSocket(t, route, requiredUser, fx.channelId);
  else expectPassed(await probe(t, route, requiredUser, fx.channelId), `${accessLevelLabels[required]} (the requirement)`);
}

// ---------------------------------------------------------------------------------------------
// The live app
// ---------------------------------------------------------------------------------------------

const live = await createTestApp();
afterAll(async () => live.close());
const routes = live.app.accessRoutes;

describe('authorization matrix of the live route table', () => {
  it('knows every /api route of the router, each with a declared access', () => {
    const table = new Set(routes.map((r) => `${r.method} ${r.url}`));
    expect([...routerApiRoutes(live.app)].filter((r) => !table.has(r))).toEqual([]);
    expect(routes.length).toBeGreaterThan(20);
    expect(routes.every((r) => r.access !== undefined)).toBe(true);
  });

  it.each(routes.map((r) => [`${r.method} ${r.url}`, describeAccess(r), r] as const))('%s — %s', async (_name, _access, route) => {
    await checkRoute(live, route);
  });
});

// ---------------------------------------------------------------------------------------------
// The gate itself
// ---------------------------------------------------------------------------------------------

describe('the gate', () => {
  it('refuses at start-up an /api route that declares no access, in the root and in a plugin', async () => {
    const app = Fastify();
    registerAuth(app, {
      db: live.s.db,
      sessions: live.s.sessions,
      cookieSecret: 'x'.repeat(32),
      secureCookies: false,
      publicOrigin: 'http://localhost:3000',
    });
    expect(() => app.get('/api/2/forgotten', async () => ({ ok: true }))).toThrow(
      'Route GET /api/2/forgotten does not declare config.access',
    );
    const inPlugin = Fastify();
    registerAuth(inPlugin, {
      db: live.s.db,
      sessions: live.s.sessions,
      cookieSecret: 'x'.repeat(32),
      secureCookies: false,
      publicOrigin: 'http://localhost:3000',
    });
    void inPlugin.register(async (scope) => {
      scope.post('/api/2/also-forgotten', async () => ({ ok: true }));
    });
    await expect(inPlugin.ready()).rejects.toThrow('Route POST /api/2/also-forgotten does not declare config.access');
  });

  it('refuses channel access on a route without a :channelId parameter', () => {
    const app = Fastify();
    registerAuth(app, {
      db: live.s.db,
      sessions: live.s.sessions,
      cookieSecret: 'x'.repeat(32),
      secureCookies: false,
      publicOrigin: 'http://localhost:3000',
    });
    expect(() => app.get('/api/2/things/:id', { config: { access: channelAccess('chat.moderate') } }, async () => ({}))).toThrow(
      'without a :channelId parameter',
    );
    // Non-API routes (the web app) need no declaration.
    expect(() => app.get('/assets/x.js', async () => '')).not.toThrow();
  });

  describe('on websockets and on routes whose input is invalid', async () => {
    const t = await createTestApp({
      configure: (app) => {
        app.get(
          '/api/2/channels/:channelId/matrix-ws',
          { websocket: true, config: { access: channelAccess('chat.moderate') } },
          (socket) => {
            socket.send('hello');
          },
        );
        app.post(
          '/api/2/channels/:channelId/matrix-editor',
          { config: { access: channelAccess('stream.update') }, schema: { body: z.object({ required_field: z.string() }) } },
          async () => ({ ok: true }),
        );
      },
    });
    afterAll(async () => t.close());
    const extra = t.app.accessRoutes.filter((r) => r.url.includes('/matrix-'));

    it('collects the added routes in the table', () => {
      expect(extra.map((r) => `${r.method} ${r.url} ${r.websocket}`)).toEqual([
        'GET /api/2/channels/:channelId/matrix-ws true',
        'POST /api/2/channels/:channelId/matrix-editor false',
      ]);
    });

    it.each(extra.map((r) => [`${r.method} ${r.url}`, r] as const))('%s follows the matrix', async (_name, route) => {
      await checkRoute(t, route);
    });

    it('decides access before validating input: below the level is 403 even with an invalid body', async () => {
      const fx = await fixture(t);
      const route = extra.find((r) => r.method === 'POST')!;
      const mod = await probe(t, route, fx.byLevel.get(AccessLevel.MOD)!, fx.channelId);
      expectStatus(mod, 403, GATE_MESSAGES.belowLevel, 'Mod');
      const editor = await probe(t, route, fx.byLevel.get(AccessLevel.EDITOR)!, fx.channelId);
      expect(editor.statusCode).toBe(400);
    });

    it('refuses a websocket upgrade below the level and without a token', async () => {
      const fx = await fixture(t);
      const route = extra.find((r) => r.websocket)!;
      await expect(openSocket(t, route, fx.byLevel.get(AccessLevel.VIP)!, fx.channelId)).rejects.toThrow(/403/);
      await expect(openSocket(t, route, fx.outsider, fx.channelId)).rejects.toThrow(/404/);
      await expect(openSocket(t, route, { ...fx.outsider, token: 'not-a-session' }, fx.channelId)).rejects.toThrow(/401/);
    });
  });
});
