/**
 * Test fixtures for platform adapters: token sources over emulator-issued tokens (refreshing through
 * the emulator's real token endpoint) and a ChannelConnectionContext that records what it receives.
 */
import type { Emulator } from '@greenroom/platform-emulator';
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import type { OAuthProvider, PlatformEndpoints } from '../src/platforms/endpoints';
import { ReauthRequiredError, refreshTokens } from '../src/platforms/oauth-client';
import type { BanStore, ChannelConnectionContext, ConnectionState, PlatformEvent, TokenSource } from '../src/platforms/port';
import { testApps } from './helper';

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
    const token = emulator.world.issueToken({ platform: provider, clientId: testApps[provider].clientId, userId: providerUserId, scopes, ttlSeconds, refreshable: true });
    this.access = token.accessToken;
    this.refresh = token.refreshToken;
  }

  async accessToken(): Promise<string> {
    return this.access;
  }

  async refreshAfterUnauthorized(rejected: string): Promise<string> {
    if (rejected !== this.access) return this.access;
    if (!this.refresh) throw new ReauthRequiredError(this.provider, 'no refresh token');
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
    emit: (event) => void events.push(event),
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
