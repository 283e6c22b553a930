import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { api, ApiError, buildUrl, readCookie, setSessionEndedHandler, signInPathFor } from './api-client';
import { getAccessToken, setAccessToken } from './auth-token';

function jsonResponse(status: number, body: unknown): Response {
  return new Response(body === null ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

describe('api client', () => {
  const fetchMock = vi.fn<typeof fetch>();

  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    localStorage.clear();
    document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
  });
  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
  });

  it('sends the bearer token and parses the answer with the schema', async () => {
    setAccessToken('tok-1');
    fetchMock.mockResolvedValue(jsonResponse(200, { id: 'u1', extra: true }));
    const result = await api.get('/api/2/user', { schema: z.object({ id: z.string() }) });
    expect(result).toEqual({ id: 'u1' });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/2/user');
    const headers = new Headers(init!.headers);
    expect(headers.get('Authorization')).toBe('Bearer tok-1');
    expect(headers.get('X-XSRF-TOKEN')).toBeNull();
  });

  it('sends no Authorization header without a token', async () => {
    fetchMock.mockResolvedValue(jsonResponse(204, null));
    await api.get('/api/2/auth/providers');
    expect(new Headers(fetchMock.mock.calls[0]![1]!.headers).has('Authorization')).toBe(false);
  });

  it('adds the anti-forgery header from the XSRF-TOKEN cookie on state-changing calls, with a JSON body', async () => {
    document.cookie = `XSRF-TOKEN=${encodeURIComponent('abc.def+/=')}; path=/`;
    fetchMock.mockResolvedValue(jsonResponse(204, null));
    await api.post('/api/2/channels', { display_name: 'x' });
    const init = fetchMock.mock.calls[0]![1]!;
    const headers = new Headers(init.headers);
    expect(init.method).toBe('POST');
    expect(headers.get('X-XSRF-TOKEN')).toBe('abc.def+/=');
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(init.body).toBe('{"display_name":"x"}');
  });

  it('turns { type, message } bodies into ApiError', async () => {
    fetchMock.mockResolvedValue(jsonResponse(404, { type: 'not_found', message: 'Channel not found' }));
    const error = await api.get('/api/2/channels/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, type: 'not_found', message: 'Channel not found' });
  });

  it('reports unreachable servers as a network ApiError', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(api.get('/api/2/user')).rejects.toMatchObject({ status: 0, type: 'network_error' });
  });

  it.each(['unauthenticated', 'user_no_longer_exists'])('on 401 %s clears the token and calls the session-ended handler', async (type) => {
    setAccessToken('tok-1');
    const handler = vi.fn();
    setSessionEndedHandler(handler);
    fetchMock.mockResolvedValue(jsonResponse(401, { type, message: 'Sign in again' }));
    await expect(api.get('/api/2/user')).rejects.toMatchObject({ status: 401, type });
    expect(getAccessToken()).toBeNull();
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('does not end the session for other errors', async () => {
    setAccessToken('tok-1');
    const handler = vi.fn();
    setSessionEndedHandler(handler);
    fetchMock.mockResolvedValue(jsonResponse(403, { type: 'forbidden', message: 'No' }));
    await expect(api.get('/api/2/admin/channels')).rejects.toMatchObject({ status: 403 });
    expect(getAccessToken()).toBe('tok-1');
    expect(handler).not.toHaveBeenCalled();
  });

  it('rejects answers that do not match the schema', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { id: 5 }));
    await expect(api.get('/api/2/user', { schema: z.object({ id: z.string() }) })).rejects.toMatchObject({ type: 'invalid_response' });
  });
});

describe('helpers', () => {
  it('builds query strings without empty values', () => {
    expect(buildUrl('/api/2/channels', { name: 'a b', cursor: null, per_page: 50, x: undefined, y: '' })).toBe(
      '/api/2/channels?name=a+b&per_page=50',
    );
    expect(buildUrl('/p', {})).toBe('/p');
  });

  it('reads cookies by exact name', () => {
    expect(readCookie('XSRF-TOKEN', 'a=1; XSRF-TOKEN=x%2By; XSRF-TOKEN2=z')).toBe('x+y');
    expect(readCookie('missing', 'a=1')).toBeNull();
  });

  it('keeps next with path and query, except at /', () => {
    expect(signInPathFor({ pathname: '/', search: '' })).toBe('/sign-in');
    expect(signInPathFor({ pathname: '/channels/abc', search: '?tab=1' })).toBe(
      `/sign-in?next=${encodeURIComponent('/channels/abc?tab=1')}`,
    );
    // A session found over on the sign-in page itself keeps that page's own next.
    expect(signInPathFor({ pathname: '/sign-in', search: '?next=%2Fchannels' })).toBe('/sign-in?next=%2Fchannels');
  });
});
