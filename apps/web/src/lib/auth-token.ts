/** The bearer access token of the signed-in browser, kept in localStorage. */
const TOKEN_KEY = 'greenroom.access_token';
const EXPIRES_KEY = 'greenroom.access_token_expires_at';

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export function getAccessToken(now: number = Date.now()): string | null {
  const store = storage();
  const token = store?.getItem(TOKEN_KEY) ?? null;
  if (!token) return null;
  const expiresAt = store?.getItem(EXPIRES_KEY);
  if (expiresAt && Date.parse(expiresAt) <= now) {
    clearAccessToken();
    return null;
  }
  return token;
}

export function hasAccessToken(): boolean {
  return getAccessToken() != null;
}

export function setAccessToken(token: string, expiresAt?: string | null): void {
  const store = storage();
  store?.setItem(TOKEN_KEY, token);
  if (expiresAt) store?.setItem(EXPIRES_KEY, expiresAt);
  else store?.removeItem(EXPIRES_KEY);
}

export function clearAccessToken(): void {
  const store = storage();
  store?.removeItem(TOKEN_KEY);
  store?.removeItem(EXPIRES_KEY);
}
