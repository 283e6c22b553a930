/**
 * Test fixtures for platform adapters: token sources over emulator-issued tokens (refreshing through
 * the emulator's real token endpoint) and a ChannelConnectionContext that records what it receives.
 */
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import type { Emulator } from '@greenroom/platform-emulator';
import type { ChannelProvider, ProviderUpdateMessage } from '@greenroom/contracts/api/channel-providers';
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import type { OAuthProvider, PlatformEndpoints } from '../src/platforms/endpoints';
import { refreshTokens } from '../src/platforms/oauth-client';
import { PlatformError, reconnectNeeded } from '../src/platforms/platform-error';
import { errorBodyOf, type ErrorBodyOf } from '../src/plugins/errors';
import type { BanStore, ChannelConnectionContext, ConnectionState, PlatformEvent, TokenSource } from '../src/platforms/port';
import { testApps, type TestApp, type TestUser } from './helper';

/** A TokenSource over a token the emulator issued to the test app; refreshes through the emulator's token endpoint. */
export class EmulatorTokenSource implements TokenSource {
  access: string;
  private refresh: string | null;
  refreshes = 0;

  constructor(
    readonly provider: OAuthProvider,
    readonly providerUserId: string,
    readonly scopes: string[],
    private readonly endpoints: PlatformEndpoints,
    emulator: Emulator,
    ttlSeconds = 3600,
  ) {
    const token = emulator.world.issueToken({
      platform: provider,
      clientId: testApps[provider].clientId,
      userId: providerUserId,
      scopes,
      ttlSeconds,
      refreshable: true,
    });
    this.access = token.accessToken;
    this.refresh = token.refreshToken;
  }

  async accessToken(): Promise<string> {
    return this.access;
  }

  async refreshAfterUnauthorized(rejected: string): Promise<string> {
    if (rejected !== this.access) return this.access;
    if (!this.refresh) throw reconnectNeeded(this.provider, 'no refresh token');
    const tokens = await refreshTokens(this.provider, this.endpoints[this.provider], this.refresh, this.scopes);
    this.refreshes++;
    this.access = tokens.accessToken;
    this.refresh = tokens.refreshToken ?? this.refresh;
    return this.access;
  }
}

export class MemoryBanStore implements BanStore {
  readonly bans = new Map<string, string>();
  async get(providerViewerId: string): Promise<string | null> {
    return this.bans.get(providerViewerId) ?? null;
  }
  async set(providerViewerId: string, providerBanId: string): Promise<void> {
    this.bans.set(providerViewerId, providerBanId);
  }
  async delete(providerViewerId: string): Promise<void> {
    this.bans.delete(providerViewerId);
  }
}

export interface RecordingContext {
  ctx: ChannelConnectionContext;
  events: PlatformEvent[];
  health: { state: ConnectionState; detail: string | null }[];
  controller: AbortController;
  /** Resolves once `predicate` holds for the recorded events (polling), or rejects after `timeoutMs`. */
  waitFor<T>(predicate: () => T | undefined | null | false, timeoutMs?: number): Promise<T>;
  lastHealth(): ConnectionState | null;
}

export function recordingContext(input: {
  provider: ChannelProviderId;
  providerChannelId: string;
  providerChannelName: string;
  broadcaster: TokenSource;
  bot?: TokenSource | null;
  state?: Record<string, unknown>;
  bans?: BanStore;
  channelProviderId?: string;
}): RecordingContext {
  const events: PlatformEvent[] = [];
  const health: { state: ConnectionState; detail: string | null }[] = [];
  const controller = new AbortController();
  const state: Record<string, unknown> = input.state ?? {};
  const ctx: ChannelConnectionContext = {
    channelId: 'channel-1',
    channelProviderId: input.channelProviderId ?? `cp-${input.provider}`,
    provider: input.provider,
    providerChannelId: input.providerChannelId,
    providerChannelName: input.providerChannelName,
    broadcaster: input.broadcaster,
    bot: input.bot ?? null,
    state,
    async saveState(patch) {
      Object.assign(state, patch);
    },
    bans: input.bans ?? new MemoryBanStore(),
    async emit(input, options) {
      for (const event of Array.isArray(input) ? input : [input as PlatformEvent]) events.push(event);
      if (options?.state) Object.assign(state, options.state);
    },
    setHealth: (s, detail) => void health.push({ state: s, detail: detail ?? null }),
    signal: controller.signal,
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
  };
  return {
    ctx,
    events,
    health,
    controller,
    lastHealth: () => health.at(-1)?.state ?? null,
    async waitFor(predicate, timeoutMs = 8000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const value = predicate();
        if (value) return value;
        if (Date.now() > until) throw new Error(`timed out waiting; ${events.length} events, health ${JSON.stringify(health.at(-1))}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
}

/** Calls the emulator's control API. */
export async function control<T = unknown>(emulator: Emulator, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${emulator.origin}/_emulator${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? null : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`control ${method} ${path}: ${response.status} ${await response.text()}`);
  return (response.status === 204 ? null : await response.json()) as T;
}

export interface EmulatorAction {
  seq: number;
  platform: string;
  type: string;
  channelId: string | null;
  actorId: string | null;
  data: Record<string, unknown>;
}

export async function actionsSince(emulator: Emulator, platform: string, since: number): Promise<EmulatorAction[]> {
  const body = await control<{ data: EmulatorAction[] }>(emulator, 'GET', `/actions?platform=${platform}&since=${since}`);
  return body.data;
}

export async function lastActionSeq(emulator: Emulator): Promise<number> {
  const body = await control<{ data: EmulatorAction[] }>(emulator, 'GET', '/actions');
  return body.data.at(-1)?.seq ?? 0;
}

/** Polls `fn` until it returns something truthy, or rejects after `timeoutMs`. */
export async function until<T>(
  fn: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  timeoutMs = 15_000,
): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Creates a Greenroom channel owned by `user`; returns its id. */
export async function createChannel(t: TestApp, user: TestUser, name: string): Promise<string> {
  const res = await t.inject(user, { method: 'POST', url: '/api/2/channels', payload: { display_name: name } });
  if (res.statusCode !== 201) throw new Error(`creating a channel: ${res.statusCode} ${res.body}`);
  return res.json<{ id: string }>().id;
}

/**
 * Connects the emulator account `login` of `provider` to a channel through the real flow
 * (connect-chat-url → the emulator's non-interactive authorize → callback); returns the channel provider id.
 */
export async function connectChannelProvider(
  t: TestApp,
  emulator: Emulator,
  user: TestUser,
  channelId: string,
  provider: OAuthProvider,
  login: string,
): Promise<string> {
  const urlRes = await t.inject(user, {
    method: 'GET',
    url: `/api/2/${provider}/connect-chat-url?channel_id=${channelId}&bot=false&redirect_to=/channels/${channelId}/providers`,
  });
  if (urlRes.statusCode !== 200) throw new Error(`connect-chat-url: ${urlRes.statusCode} ${urlRes.body}`);
  const cookie = urlRes.cookies.find((c) => c.name === 'gr_oauth_state')!;
  const params = Object.fromEntries(new URL(urlRes.json<{ url: string }>().url).searchParams);
  const auth = await control<{ redirect_url: string }>(emulator, 'POST', '/oauth/authorize', {
    platform: provider,
    client_id: params.client_id ?? params.client_key,
    redirect_uri: params.redirect_uri,
    scope: params.scope,
    state: params.state,
    ...(params.code_challenge ? { code_challenge: params.code_challenge, code_challenge_method: params.code_challenge_method } : {}),
    ...(params.access_type ? { access_type: params.access_type } : {}),
    account_login: login,
  });
  const back = new URL(auth.redirect_url);
  const res = await t.inject(null, {
    method: 'POST',
    url: `/api/2/auth/${provider}/callback`,
    headers: { cookie: `gr_oauth_state=${cookie.value}` },
    payload: { code: back.searchParams.get('code'), state: back.searchParams.get('state') },
  });
  if (res.statusCode !== 200) throw new Error(`callback: ${res.statusCode} ${res.body}`);
  return decodeURIComponent(res.json<{ redirect_to: string }>().redirect_to.split('#channel_provider_id=')[1]!);
}

/** The channel's providers as GET /api/2/channels/{id}/providers lists them. */
export async function providersOf(t: TestApp, user: TestUser, channelId: string): Promise<ChannelProvider[]> {
  const res = await t.inject(user, { method: 'GET', url: `/api/2/channels/${channelId}/providers` });
  if (res.statusCode !== 200) throw new Error(`providers: ${res.statusCode} ${res.body}`);
  return res.json<ChannelProvider[]>();
}

/** A providers-ws client of a channel (the app must be listening); collects the update messages. */
export async function providersSocket(
  t: TestApp,
  user: TestUser,
  channelId: string,
): Promise<{ updates: ProviderUpdateMessage[]; close(): void }> {
  const port = (t.app.server.address() as AddressInfo).port;
  const ws = new WebSocket(`ws://127.0.0.1:${port}/api/2/channels/${channelId}/providers-ws`, ['greenroom', user.token]);
  const updates: ProviderUpdateMessage[] = [];
  ws.on('message', (data: Buffer) => {
    const message = JSON.parse(data.toString('utf8')) as ProviderUpdateMessage | { type: string };
    if ('action' in message) updates.push(message);
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { updates, close: () => ws.close() };
}

type Chat = Extract<PlatformEvent, { kind: 'chat' }>['message'];
/** The chat messages among recorded adapter events. */
export const chats = (events: PlatformEvent[]): Chat[] => events.flatMap((e) => (e.kind === 'chat' ? [e.message] : []));

/** What the API answers for the error `promise` rejects with (status, type, message), through the one error mapping. */
export async function httpErrorOf(promise: Promise<unknown>): Promise<ErrorBodyOf & { code: string | null }> {
  try {
    await promise;
  } catch (error) {
    return { ...errorBodyOf(error), code: error instanceof PlatformError ? error.code : null };
  }
  throw new Error('expected the call to fail');
}
