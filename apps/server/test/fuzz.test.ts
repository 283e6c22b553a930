/**
 * Hostile-input fuzzing of the whole API: every operation of the live OpenAPI document (so routes
 * added later are covered without touching this file) plus the hidden Kick webhook route, called as
 * an anonymous visitor and as the channel's Owner (also an operator) with hostile path segments,
 * query strings, JSON bodies and raw bodies. No request may answer 5xx, and every refusal is a
 * `{ type, message }` body.
 *
 * Cost: a fixed number of runs per route and identity (`FUZZ_RUNS`, default 20) from a fixed seed
 * (`FUZZ_SEED`), so a run is reproducible and bounded: about 50 routes × 20 runs ≈ 1,000 requests,
 * ~15–25 s on PGlite.
 */
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { startEmulator } from '@greenroom/platform-emulator';
import { AccessLevel } from '@greenroom/contracts/access';
import { channelProviders, channelUsers } from '../src/db/schema';
import { newId } from '../src/lib/ids';
import { scopesFor } from '../src/platforms/scopes';
import { bodyFor, queryFor, segmentFor } from './fuzz-arbitraries';
import { createTestApp, testApps } from './helper';

const RUNS = Number(process.env.FUZZ_RUNS ?? 20);
const SEED = Number(process.env.FUZZ_SEED ?? 20_251_116);

interface Operation {
  method: string;
  path: string;
  query: string[];
  body: Record<string, unknown> | undefined;
  hasBody: boolean;
  headers?: fc.Arbitrary<Record<string, string>>;
}

// The world the requests run against: a channel with Twitch, Kick and YouTube connected (no live
// connections: actions are built on demand against the emulator), an Owner who is also an operator.
const emulator = await startEmulator({ port: 0, apps: testApps, crowd: false });
process.env.TWURPLE_MOCK_API_PORT = String(emulator.port);
const t = await createTestApp({ emulatorOrigin: emulator.origin });
const owner = await t.createUser({ displayName: 'FuzzOwner', operator: true });
const member = await t.createUser({ displayName: 'FuzzMember' });
const channelId = (await t.s.channels.create(owner.id, 'Fuzz channel')).id;
const platforms = ['twitch', 'kick', 'youtube'] as const;
const cps = platforms.map(() => newId());
/** The `greenroomdemo` account of a platform connected to the channel with fresh tokens (a disconnect revokes them). */
function connection(i: number): typeof channelProviders.$inferInsert {
  const p = platforms[i]!;
  const account = emulator.world.accountByLogin(p, 'greenroomdemo')!;
  const token = emulator.world.issueToken({
    platform: p,
    clientId: testApps[p].clientId,
    userId: account.id,
    scopes: scopesFor[p].channel,
    ttlSeconds: 3600,
    refreshable: true,
  });
  return {
    id: cps[i]!,
    channelId,
    provider: p,
    providerChannelId: account.id,
    providerChannelName: account.login,
    accessTokenEnc: t.s.cipher.encrypt(token.accessToken),
    refreshTokenEnc: token.refreshToken ? t.s.cipher.encrypt(token.refreshToken) : null,
    tokenExpiresAt: new Date(Date.now() + 3600_000),
    scopes: scopesFor[p].channel,
  };
}
/** Puts back what a fuzzed request may have removed (a disconnected platform, the Owner's role), so later routes reach deep code. */
async function restoreWorld(): Promise<void> {
  const present = new Set((await t.s.db.select({ id: channelProviders.id }).from(channelProviders)).map((r) => r.id));
  for (let i = 0; i < cps.length; i++) {
    if (present.has(cps[i]!)) continue;
    await t.s.db.insert(channelProviders).values(connection(i));
    t.s.tokens.forgetChannelProvider(cps[i]!);
  }
  await t.s.db
    .insert(channelUsers)
    .values({ channelId, userId: owner.id, level: AccessLevel.OWNER })
    .onConflictDoUpdate({ target: [channelUsers.channelId, channelUsers.userId], set: { level: AccessLevel.OWNER } });
}
await restoreWorld();
const invite = await t.s.invites.create(
  channelId,
  { id: owner.id, displayName: owner.displayName, avatarUrl: null, isOperator: true },
  500,
  { level: 100, expires_in_hours: 24 },
);

// Viewers that exist on the platforms, so moderation reaches them.
const viewerIds = platforms.map((p) => emulator.world.accountsOf(p, 'viewer')[0]!.id);
const bodyHints = { provider_viewer_id: viewerIds, channel_provider_ids: [cps, []], display_name: ['Renamed'], title: ['New title'] };

const validSegments: Record<string, string[]> = {
  channelId: [channelId],
  channelProviderId: cps,
  provider: ['twitch', 'kick', 'youtube', 'tiktok', 'spotify'],
  userId: [owner.id, member.id],
  id: [newId()],
  channelUserInviteId: [invite.id],
  activityId: [newId()],
  providerViewerId: viewerIds,
  providerMessageId: ['msg-1'],
};
const validQuery: Record<string, string[]> = {
  channel_id: [channelId],
  provider: ['twitch'],
  per_page: ['10'],
  limit: ['10'],
  redirect_to: ['/'],
  providers: ['twitch,kick'],
  provider_viewer_id: viewerIds,
};

const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
  paths: Record<
    string,
    Record<
      string,
      { parameters?: { in: string; name: string }[]; requestBody?: { content?: Record<string, { schema?: Record<string, unknown> }> } }
    >
  >;
}>();

const operations: Operation[] = [];
for (const [path, item] of Object.entries(doc.paths)) {
  for (const [method, op] of Object.entries(item)) {
    operations.push({
      method: method.toUpperCase(),
      path,
      query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
      body: op.requestBody?.content?.['application/json']?.schema,
      hasBody: ['POST', 'PUT', 'PATCH', 'DELETE'].includes(method.toUpperCase()),
    });
  }
}
// Hidden from the document (it is Kick's, not ours), public, and it reads a raw body.
const headerValue = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 60 });
operations.push({
  method: 'POST',
  path: '/api/2/webhooks/kick',
  query: [],
  body: undefined,
  hasBody: true,
  headers: fc.record(
    {
      'kick-event-message-id': headerValue,
      'kick-event-subscription-id': headerValue,
      'kick-event-signature': headerValue,
      'kick-event-message-timestamp': fc.oneof(headerValue, fc.constant(new Date().toISOString())),
      'kick-event-type': fc.oneof(headerValue, fc.constantFrom('chat.message.sent', 'channel.followed')),
      'kick-event-version': fc.constantFrom('1', '2', 'x'),
    },
    { requiredKeys: [] },
  ),
});

afterAll(async () => {
  await t.close();
  await emulator.close();
});

type FuzzRequest = {
  identity: 'anonymous' | 'owner';
  params: string[];
  query: string;
  body: { raw: string; contentType: string } | null;
  headers: Record<string, string>;
};

const segmentsOf = (op: Operation) => [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);

/**
 * The cases every route gets before the random ones, as the Owner: each path parameter in turn as NUL, empty or an
 * unpaired surrogate (the others valid), each query parameter as NUL, and bodies with NUL, a lone surrogate and deep nesting.
 */
function knownBadExamples(op: Operation): [FuzzRequest][] {
  const valid = segmentsOf(op).map((name) => encodeURIComponent((validSegments[name] ?? [newId()])[0]!));
  const base: FuzzRequest = { identity: 'owner', params: valid, query: '', body: null, headers: {} };
  const out: FuzzRequest[] = [];
  valid.forEach((_, i) => {
    for (const bad of ['%00', '', '%ED%A0%80']) out.push({ ...base, params: valid.map((v, j) => (j === i ? bad : v)) });
  });
  for (const name of op.query) out.push({ ...base, query: `?${name}=%00` }, { ...base, query: `?${name}=%ED%A0%80` });
  if (op.hasBody) {
    const deep = 5000;
    for (const raw of ['{"text":"a\\u0000b","display_name":"a\\u0000"}', '{"x":"\\ud800"}', '['.repeat(deep) + ']'.repeat(deep)]) {
      out.push({ ...base, body: { raw, contentType: 'application/json' } });
    }
  }
  return out.map((r) => [r]);
}

function requestFor(op: Operation): fc.Arbitrary<FuzzRequest> {
  const segments = segmentsOf(op);
  return fc.record({
    identity: fc.constantFrom<'anonymous' | 'owner'>('owner', 'owner', 'anonymous'),
    params: fc.tuple(...segments.map((name) => segmentFor(validSegments[name] ?? [newId()]))),
    query: queryFor(op.query, validQuery),
    body: op.hasBody ? fc.option(bodyFor(op.body, bodyHints), { freq: 6 }) : fc.constant(null),
    headers: op.headers ?? fc.constant({}),
  });
}

describe('hostile input never gets a 5xx', () => {
  it('fuzzes every route of the OpenAPI document', () => {
    // The document must list the API, or this suite would pass by testing nothing.
    expect(operations.length).toBeGreaterThan(40);
  });

  it.each(operations.map((op) => [`${op.method} ${op.path}`, op] as const))('%s', async (_name, op) => {
    await fc.assert(
      fc.asyncProperty(requestFor(op), async (req) => {
        await restoreWorld();
        let i = 0;
        const url = op.path.replace(/\{[^}]+\}/g, () => req.params[i++] ?? '') + req.query;
        const headers: Record<string, string> = { ...req.headers };
        if (req.identity === 'owner') {
          const session = await t.s.sessions.create(owner.id);
          Object.assign(headers, t.headersFor(session.token, session.sessionId));
        }
        if (req.body) headers['content-type'] = req.body.contentType;
        const res = await t.app.inject({ method: op.method as 'GET', url, headers, ...(req.body ? { payload: req.body.raw } : {}) });
        const where = `${op.method} ${url.slice(0, 300)} as ${req.identity} → ${res.statusCode} ${res.body.slice(0, 300)}`;
        expect(res.statusCode, where).toBeLessThan(500);
        if (res.statusCode >= 400) {
          const body = res.json<{ type?: unknown; message?: unknown }>();
          expect(typeof body.type, where).toBe('string');
          expect(typeof body.message, where).toBe('string');
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true, examples: knownBadExamples(op) },
    );
  });
});
