import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helper';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('GET /api/2/user', () => {
  it('returns the signed-in user', async () => {
    const u = await t.createUser({ displayName: 'Alice' });
    const res = await t.inject(u, { method: 'GET', url: '/api/2/user' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: u.id, display_name: 'Alice', avatar_url: null, is_operator: false });
  });

  it('answers 401 unauthenticated without a token, and for an unknown token', async () => {
    const res = await t.inject(null, { method: 'GET', url: '/api/2/user' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ type: 'unauthenticated' });
    const bad = await t.inject(null, { method: 'GET', url: '/api/2/user', headers: { authorization: 'Bearer nope' } });
    expect(bad.statusCode).toBe(401);
    expect(bad.json().type).toBe('unauthenticated');
  });

  it('sets the anti-forgery cookie on an authenticated GET without one', async () => {
    const u = await t.createUser();
    const res = await t.app.inject({ method: 'GET', url: '/api/2/user', headers: { authorization: u.headers.authorization! } });
    expect(res.statusCode).toBe(200);
    expect(res.cookies.find((c) => c.name === 'XSRF-TOKEN')?.value).toMatch(/^[\w-]+\.[\w-]+$/);
  });

  it('stores session tokens only hashed', async () => {
    const u = await t.createUser();
    const { sessions } = await import('../src/db/schema');
    const rows = await t.s.db.select().from(sessions);
    expect(rows.some((r) => r.tokenHash === u.token)).toBe(false);
    expect(rows.some((r) => r.id === u.sessionId)).toBe(true);
  });
});

describe('anti-forgery header', () => {
  it('refuses a state-changing request without the header, or with one from another session', async () => {
    const u = await t.createUser();
    const other = await t.createUser();
    const missing = await t.app.inject({
      method: 'PUT',
      url: '/api/2/user/settings',
      headers: { authorization: u.headers.authorization! },
      payload: { a: 1 },
    });
    expect(missing.statusCode).toBe(403);
    expect(missing.json().type).toBe('forbidden');
    const foreign = await t.app.inject({
      method: 'PUT',
      url: '/api/2/user/settings',
      headers: { authorization: u.headers.authorization!, cookie: other.headers.cookie!, 'x-xsrf-token': other.headers['x-xsrf-token']! },
      payload: { a: 1 },
    });
    expect(foreign.statusCode).toBe(403);
    const ok = await t.inject(u, { method: 'PUT', url: '/api/2/user/settings', payload: { a: 1 } });
    expect(ok.statusCode).toBe(200);
  });
});

describe('user settings', () => {
  it('saves and loads the whole object, per user', async () => {
    const u = await t.createUser();
    const other = await t.createUser();
    expect((await t.inject(u, { method: 'GET', url: '/api/2/user/settings' })).json()).toEqual({});
    const put = await t.inject(u, { method: 'PUT', url: '/api/2/user/settings', payload: { theme: { compact: true }, n: 3 } });
    expect(put.statusCode).toBe(200);
    expect((await t.inject(u, { method: 'GET', url: '/api/2/user/settings' })).json()).toEqual({ theme: { compact: true }, n: 3 });
    expect((await t.inject(other, { method: 'GET', url: '/api/2/user/settings' })).json()).toEqual({});
  });

  it('rejects a non-object and an oversized body with 400', async () => {
    const u = await t.createUser();
    const arr = await t.inject(u, { method: 'PUT', url: '/api/2/user/settings', payload: [1, 2] });
    expect(arr.statusCode).toBe(400);
    expect(arr.json()).toMatchObject({ type: 'validation_error' });
    const big = await t.inject(u, { method: 'PUT', url: '/api/2/user/settings', payload: { blob: 'x'.repeat(20_000) } });
    expect(big.statusCode).toBe(413);
    expect(big.json().type).toBe('bad_request');
  });
});

describe('user providers', () => {
  it('lists connections and refuses to remove the last sign-in connection', async () => {
    const u = await t.createUser({ provider: 'kick' });
    const list = await t.inject(u, { method: 'GET', url: '/api/2/user/providers' });
    expect(list.statusCode).toBe(200);
    const rows = list.json<{ id: string; provider: string }[]>();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.provider).toBe('kick');
    const del = await t.inject(u, { method: 'DELETE', url: `/api/2/user/providers/${rows[0]!.id}` });
    expect(del.statusCode).toBe(400);
    expect(del.json().message).toMatch(/only sign-in connection/);
  });

  it("removes one of two connections, and 404s for another user's connection", async () => {
    const u = await t.createUser({ provider: 'twitch' });
    await t.s.users.link(
      u.id,
      'youtube',
      { providerUserId: 'UC123', login: 'yt', displayName: 'YT', avatarUrl: null },
      { accessToken: 'a', refreshToken: null, expiresAt: null, scopes: [] },
    );
    const rows = (await t.inject(u, { method: 'GET', url: '/api/2/user/providers' })).json<{ id: string; provider: string }[]>();
    expect(rows.map((r) => r.provider).sort()).toEqual(['twitch', 'youtube']);
    const stranger = await t.createUser();
    const foreign = await t.inject(stranger, { method: 'DELETE', url: `/api/2/user/providers/${rows[1]!.id}` });
    expect(foreign.statusCode).toBe(404);
    const del = await t.inject(u, { method: 'DELETE', url: `/api/2/user/providers/${rows[1]!.id}` });
    expect(del.statusCode).toBe(204);
    expect((await t.inject(u, { method: 'GET', url: '/api/2/user/providers' })).json()).toHaveLength(1);
  });

  it('refuses to link an account that belongs to another user', async () => {
    const a = await t.createUser({ provider: 'kick', providerUserId: 'k-1' });
    const b = await t.createUser();
    await expect(
      t.s.users.link(
        b.id,
        'kick',
        { providerUserId: 'k-1', login: 'x', displayName: 'x', avatarUrl: null },
        { accessToken: 'a', refreshToken: null, expiresAt: null, scopes: [] },
      ),
    ).rejects.toMatchObject({ status: 409 });
    expect(a.id).not.toBe(b.id);
  });
});

describe('DELETE /api/2/user', () => {
  it('requires the display name typed exactly', async () => {
    const u = await t.createUser({ displayName: 'Carol' });
    const res = await t.inject(u, { method: 'DELETE', url: '/api/2/user?username=carol' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('"Carol"');
    expect((await t.inject(u, { method: 'GET', url: '/api/2/user' })).statusCode).toBe(200);
  });

  it('deletes the account, its solely owned channels, and answers user_no_longer_exists afterwards', async () => {
    const u = await t.createUser({ displayName: 'Dave' });
    const other = await t.createUser();
    const mine = (await t.inject(u, { method: 'POST', url: '/api/2/channels', payload: { display_name: 'Dave TV' } })).json<{
      id: string;
    }>();
    const theirs = (await t.inject(other, { method: 'POST', url: '/api/2/channels', payload: { display_name: 'Other TV' } })).json<{
      id: string;
    }>();
    const res = await t.inject(u, { method: 'DELETE', url: '/api/2/user?username=Dave' });
    expect(res.statusCode).toBe(204);
    const after = await t.inject(u, { method: 'GET', url: '/api/2/user' });
    expect(after.statusCode).toBe(401);
    expect(after.json().type).toBe('user_no_longer_exists');
    const { channels } = await import('../src/db/schema');
    const ids = (await t.s.db.select({ id: channels.id }).from(channels)).map((c) => c.id);
    expect(ids).not.toContain(mine.id);
    expect(ids).toContain(theirs.id);
  });
});

describe('errors', () => {
  it('answers unknown API routes with a JSON 404', async () => {
    const res = await t.inject(null, { method: 'GET', url: '/api/2/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ type: 'not_found' });
  });

  it('serves the OpenAPI document', async () => {
    const res = await t.inject(null, { method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json<{ openapi: string; paths: Record<string, unknown> }>();
    expect(doc.openapi).toMatch(/^3/);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/2/user', '/api/2/channels', '/api/2/admin/channels']));
  });
});
