import { createHash, randomBytes } from 'node:crypto';
import { startEmulator, type Emulator, type EmulatorOptions } from '../src/index';
import type { Platform } from '../src/world';

export async function emulator(options: EmulatorOptions = {}): Promise<Emulator> {
  return startEmulator({ seed: 42, ...options });
}

export async function postJson(url: string, body: unknown, method = 'POST'): Promise<Response> {
  return fetch(url, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Runs the authorize step non-interactively; returns the code from the redirect. */
export async function authorizeCode(
  e: Emulator,
  platform: Platform,
  input: { login?: string; scope?: string; codeChallenge?: string; redirectUri?: string; state?: string },
): Promise<{ code: string; redirectUrl: URL; accountId: string }> {
  const res = await postJson(`${e.origin}/_emulator/oauth/authorize`, {
    platform,
    account_login: input.login ?? 'greenroomdemo',
    scope: input.scope ?? '',
    state: input.state ?? 'state-123',
    ...(input.redirectUri ? { redirect_uri: input.redirectUri } : {}),
    ...(input.codeChallenge ? { code_challenge: input.codeChallenge, code_challenge_method: 'S256' } : {}),
  });
  if (!res.ok) throw new Error(`authorize failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { code: string; redirect_url: string; account: { id: string } };
  return { code: body.code, redirectUrl: new URL(body.redirect_url), accountId: body.account.id };
}

export interface TwitchTokens {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  scope: string[];
  userId: string;
}

/** Twitch authorization-code flow as a server would run it. */
export async function twitchUserToken(e: Emulator, login: string, scopes: string[]): Promise<TwitchTokens> {
  const app = e.config.twitch;
  const { code, accountId } = await authorizeCode(e, 'twitch', { login, scope: scopes.join(' ') });
  const form = new URLSearchParams({
    client_id: app.clientId,
    client_secret: app.clientSecret,
    code,
    grant_type: 'authorization_code',
    redirect_uri: app.redirectUris[0]!,
  });
  const res = await fetch(app.tokenUrl, { method: 'POST', body: form });
  if (!res.ok) throw new Error(`token failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { access_token: string; refresh_token: string; expires_in: number; scope: string[] };
  return {
    accessToken: body.access_token,
    refreshToken: body.refresh_token,
    expiresIn: body.expires_in,
    scope: body.scope,
    userId: accountId,
  };
}

/** Resolves when `predicate` holds, polling (no timing assertions: the test timeout is the only limit). */
export async function until(predicate: () => boolean | Promise<boolean>, intervalMs = 20): Promise<void> {
  while (!(await predicate())) await new Promise((r) => setTimeout(r, intervalMs));
}

/** The status and body of a twurple HttpStatusCodeError (duck-typed: the class lives in a transitive package). */
export function httpError(error: unknown): { statusCode: number; body: string } {
  if (error instanceof Error && 'statusCode' in error && 'body' in error)
    return { statusCode: Number(error.statusCode), body: String(error.body) };
  throw new Error(`not an HTTP status error: ${String(error)}`);
}
