import type { TokenSource } from './port';

/**
 * Sends a platform request as `token`'s account. On 401 the token is refreshed once — single-flight inside the
 * TokenSource — and the request sent again; a permanent refusal surfaces from the refresh as a PlatformError asking for reconnection.
 */
export async function sendAuthorized(token: TokenSource, send: (accessToken: string) => Promise<Response>): Promise<Response> {
  let accessToken = await token.accessToken();
  let response = await send(accessToken);
  if (response.status === 401) {
    await response.body?.cancel();
    accessToken = await token.refreshAfterUnauthorized(accessToken);
    response = await send(accessToken);
  }
  return response;
}

/** The JSON body of a platform answer; null for an empty or unreadable body (the status says what it means). */
export async function readJsonBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
