/**
 * The widgets API on a real database: create with defaults, settings validated per type, duplicate, delete, the
 * secret URL (public state without sign-in, nothing private, rotation stops the old URL at once, sockets closed),
 * test events reaching an open widget socket, replay of missed alerts after a reconnect, goals counting activities.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Activity } from '@greenroom/contracts/api/events';
import { defaultWidgetSettings, WIDGET_GONE_CLOSE_CODE, type Widget } from '@greenroom/contracts/api/widgets';
import { activities, pointLedger, pointWallets } from '../src/db/schema';
import { newId } from '../src/lib/ids';
import { activity as activityFixture } from './chat-fixtures';
import { createTestApp, type TestApp, type TestUser } from './helper';

let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
let channelId: string;
let origin: string;

const base = (channel: string) => `/api/2/channels/${channel}/widgets`;

async function create(type: string, name?: string): Promise<Widget> {
  const res = await t.inject(owner, { method: 'POST', url: base(channelId), payload: { type, ...(name ? { name } : {}) } });
  expect(res.statusCode).toBe(201);
  return res.json<Widget>();
}

interface Client {
  ws: WebSocket;
  frames: { type: string; data?: unknown }[];
  closed: Promise<number>;
  next(match: (f: { type: string; data?: unknown }) => boolean): Promise<{ type: string; data?: unknown }>;
}

async function open(token: string, since?: string): Promise<Client> {
  const ws = new WebSocket(
    `${origin.replace('http', 'ws')}/api/2/public/widgets/${token}/ws${since ? `?since=${encodeURIComponent(since)}` : ''}`,
  );
  const frames: { type: string; data?: unknown }[] = [];
  const waiters: { match: (f: { type: string; data?: unknown }) => boolean; resolve: (f: { type: string; data?: unknown }) => void }[] = [];
  ws.on('message', (raw: Buffer) => {
    const frame = JSON.parse(raw.toString()) as { type: string; data?: unknown };
    frames.push(frame);
    for (const w of [...waiters])
      if (w.match(frame)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(frame);
      }
  });
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    ws.on('open', () => resolve());
    ws.on('error', reject);
  });
  return {
    ws,
    frames,
    closed,
    next: (match) => {
      const found = frames.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ match, resolve }));
    },
  };
}

function activity(type: Activity['type'], extra: Partial<Activity> = {}): Activity {
  const id = newId();
  return activityFixture(0, {
    id,
    channel_id: channelId,
    channel_provider_id: 'cp',
    provider_event_id: id,
    type,
    viewer: { provider_user_id: 'secret-viewer-id', login: 'fan', display_name: 'Fan' },
    ...extra,
  });
}

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.createUser({ displayName: 'Owner' });
  stranger = await t.createUser({ displayName: 'Stranger' });
  const res = await t.inject(owner, { method: 'POST', url: '/api/2/channels', payload: { display_name: 'Widgets' } });
  channelId = res.json<{ id: string }>().id;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => t.close());

describe('widgets for Editors', () => {
  it('creates each type with its default settings and lists them', async () => {
    const alerts = await create('alerts');
    expect(alerts).toMatchObject({ type: 'alerts', name: 'Alert box', settings: defaultWidgetSettings('alerts') });
    expect(alerts.token).toMatch(/^[\w-]{40,}$/);
    await create('chat', 'My chat');
    const list = await t.inject(owner, { method: 'GET', url: base(channelId) });
    expect(list.json<Widget[]>().map((w) => w.name)).toEqual(expect.arrayContaining(['Alert box', 'My chat']));
    // Someone without a role in the channel learns nothing.
    expect((await t.inject(stranger, { method: 'GET', url: base(channelId) })).statusCode).toBe(404);
  });

  it('validates settings per type and refuses to change the type, naming the fields', async () => {
    const goal = await create('goal');
    const bad = await t.inject(owner, {
      method: 'PUT',
      url: `${base(channelId)}/${goal.id}`,
      payload: { type: 'goal', name: '', settings: { ...goal.settings, target: 0, bar_color: 'green' } },
    });
    expect(bad.statusCode).toBe(400);
    const body = bad.json<{ fields: Record<string, string> }>();
    expect(body.fields).toMatchObject({ name: 'Name is required', 'settings.target': 'Target is at least 1' });
    expect(body.fields['settings.bar_color']).toBe('A colour like #ffcc00');
    const retype = await t.inject(owner, {
      method: 'PUT',
      url: `${base(channelId)}/${goal.id}`,
      payload: { type: 'chat', name: 'x', settings: defaultWidgetSettings('chat') },
    });
    expect(retype.statusCode).toBe(400);
    const ok = await t.inject(owner, {
      method: 'PUT',
      url: `${base(channelId)}/${goal.id}`,
      payload: { type: 'goal', name: 'Sub goal', settings: { ...goal.settings, kind: 'subs', target: 10 } },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json<Widget>()).toMatchObject({ name: 'Sub goal', settings: { kind: 'subs', target: 10 } });
  });

  it('duplicates with a new secret URL and deletes', async () => {
    const original = await create('events', 'Recent');
    const copy = await t.inject(owner, { method: 'POST', url: `${base(channelId)}/${original.id}/duplicate` });
    expect(copy.statusCode).toBe(201);
    expect(copy.json<Widget>()).toMatchObject({ name: 'Recent (copy)', type: 'events', settings: original.settings });
    expect(copy.json<Widget>().token).not.toBe(original.token);
    const del = await t.inject(owner, { method: 'DELETE', url: `${base(channelId)}/${original.id}` });
    expect(del.statusCode).toBe(204);
    expect((await t.inject(null, { method: 'GET', url: `/api/2/public/widgets/${original.token}` })).statusCode).toBe(404);
    expect((await t.inject(owner, { method: 'GET', url: `${base(channelId)}/${original.id}` })).statusCode).toBe(404);
  });
});

describe('the public widget URL', () => {
  it('gives the settings without sign-in, and nothing private', async () => {
    const events = await create('events');
    t.s.bus.publish(`channel:${channelId}`, { type: 'activity', seq: 1, data: activity('follow') });
    await t.s.db.insert(activities).values({
      id: newId(),
      channelId,
      channelProviderId: 'cp',
      provider: 'twitch',
      providerEventId: newId(),
      type: 'follow',
      viewerId: 'secret-viewer-id',
      viewerLogin: 'fan',
      viewerName: 'Fan',
      occurredAt: new Date(),
    });
    const res = await t.inject(null, { method: 'GET', url: `/api/2/public/widgets/${events.token}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const text = res.body;
    expect(text).not.toContain('secret-viewer-id');
    expect(text).not.toContain(channelId);
    expect(text).not.toContain(events.id);
    expect(res.json()).toMatchObject({ type: 'events', events: [{ type: 'follow', name: 'Fan' }] });
    expect((await t.inject(null, { method: 'GET', url: `/api/2/public/widgets/${'x'.repeat(43)}` })).statusCode).toBe(404);
  });

  it('streams test events and live activities to an open page; rotating the URL closes it and the old URL stops', async () => {
    const alerts = await create('alerts');
    const page = await open(alerts.token);
    const test = await t.inject(owner, { method: 'POST', url: `${base(channelId)}/${alerts.id}/test`, payload: { type: 'raid' } });
    expect(test.statusCode).toBe(200);
    const frame = await page.next((f) => f.type === 'event');
    expect(frame.data).toMatchObject({ type: 'raid', test: true, count: 42, name: 'GreenroomTester' });

    t.s.bus.publish(`channel:${channelId}`, { type: 'activity', seq: 1, data: activity('cheer', { count: 100, amount: '100 bits' }) });
    const cheer = await page.next((f) => f.type === 'event' && (f.data as { type: string }).type === 'cheer');
    expect(JSON.stringify(cheer)).not.toContain('secret-viewer-id');

    const rotated = await t.inject(owner, { method: 'POST', url: `${base(channelId)}/${alerts.id}/rotate-url` });
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json<Widget>().token).not.toBe(alerts.token);
    expect(await page.closed).toBe(WIDGET_GONE_CLOSE_CODE);
    expect((await t.inject(null, { method: 'GET', url: `/api/2/public/widgets/${alerts.token}` })).statusCode).toBe(404);
    expect((await t.inject(null, { method: 'GET', url: `/api/2/public/widgets/${rotated.json<Widget>().token}` })).statusCode).toBe(200);
    await expect(open(alerts.token)).rejects.toThrow(/404/);
  });

  it('a Spotify now-playing page starts from what the channel plays and follows spotify.now_playing live', async () => {
    const song = await create('spotify');
    expect(song.settings).toEqual(defaultWidgetSettings('spotify'));
    const state = await t.inject(null, { method: 'GET', url: `/api/2/public/widgets/${song.token}` });
    expect(state.statusCode).toBe(200);
    // This channel has no Spotify connection: the page knows (and draws nothing); the editor says so.
    expect(state.json()).toMatchObject({ type: 'spotify', now_playing: { state: 'not_connected' } });
    const page = await open(song.token);
    const alerts = await open((await create('alerts')).token);
    const track = {
      id: 't1',
      uri: 'spotify:track:t1',
      name: 'Neon Skyline',
      artists: ['The Midnight Drivers'],
      album: 'Night Transit',
      duration_ms: 214_000,
      url: 'https://open.spotify.com/track/t1',
      image_url: null,
    };
    const playing = { state: 'playing' as const, track, is_playing: true, progress_ms: 5_000, at: new Date().toISOString() };
    t.s.bus.publish(`channel:${channelId}`, { type: 'spotify.now_playing', data: { channel_id: channelId, now_playing: playing } });
    expect((await page.next((f) => f.type === 'now_playing')).data).toEqual(playing);
    // Settings are checked per type like every other widget.
    const bad = await t.inject(owner, {
      method: 'PUT',
      url: `${base(channelId)}/${song.id}`,
      payload: { type: 'spotify', name: 'Song', settings: { ...defaultWidgetSettings('spotify'), idle_text: 'x'.repeat(81) } },
    });
    expect(bad.statusCode).toBe(400);
    expect(alerts.frames.filter((f) => f.type === 'now_playing')).toHaveLength(0);
    page.ws.close();
    alerts.ws.close();
  });

  it('an alert box that reconnects gets the alerts it missed since its last state, from the database, once', async () => {
    const alerts = await create('alerts');
    const state = (await t.inject(null, { method: 'GET', url: `/api/2/public/widgets/${alerts.token}` })).json<{ server_time: string }>();
    const first = await open(alerts.token);
    const a = await t.inject(owner, { method: 'POST', url: `${base(channelId)}/${alerts.id}/test`, payload: { type: 'follow' } });
    await first.next((f) => (f.data as { id?: string } | undefined)?.id === a.json<{ id: string }>().id);
    first.ws.close();
    await first.closed;
    // Missed while the page was away: a platform activity (stored by the pipeline) and a test (stored by widgets).
    // No page of the channel is open on this server: nothing is kept in memory.
    const b = activity('sub', { tier: '1000' });
    await t.s.db.insert(activities).values({
      id: b.id,
      channelId,
      channelProviderId: 'cp',
      provider: 'twitch',
      providerEventId: b.provider_event_id,
      type: 'sub',
      viewerId: 'secret-viewer-id',
      viewerName: 'Fan',
      tier: '1000',
      occurredAt: new Date(),
    });
    const c = (await t.inject(owner, { method: 'POST', url: `${base(channelId)}/${alerts.id}/test`, payload: { type: 'raid' } })).json<{
      id: string;
    }>();
    const again = await open(alerts.token, state.server_time);
    await again.next((f) => (f.data as { id?: string } | undefined)?.id === c.id);
    await again.next((f) => (f.data as { id?: string } | undefined)?.id === b.id);
    const ids = again.frames.filter((f) => f.type === 'event').map((f) => (f.data as { id: string }).id);
    // Each once (the page itself drops the first one, which it showed before the drop).
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining([a.json<{ id: string }>().id, b.id, c.id]));
    expect(JSON.stringify(again.frames)).not.toContain('secret-viewer-id');
    // Live events keep flowing after the catch-up; event lists and goals are not given old alerts (they reload state).
    const d = (await t.inject(owner, { method: 'POST', url: `${base(channelId)}/${alerts.id}/test`, payload: { type: 'cheer' } })).json<{
      id: string;
    }>();
    await again.next((f) => (f.data as { id?: string } | undefined)?.id === d.id);
    const list = await open((await create('events')).token, state.server_time);
    const e = (await t.inject(owner, { method: 'POST', url: `${base(channelId)}/${alerts.id}/test`, payload: { type: 'cheer' } })).json<{
      id: string;
    }>();
    await list.next((f) => (f.data as { id?: string } | undefined)?.id === e.id);
    expect(list.frames.filter((f) => f.type === 'event')).toHaveLength(1);
    again.ws.close();
    list.ws.close();
  });

  it("the activity feed's Replay sends the event to alert boxes again, as a new alert each time", async () => {
    const alerts = await create('alerts');
    const page = await open(alerts.token);
    const id = newId();
    await t.s.db.insert(activities).values({
      id,
      channelId,
      channelProviderId: 'cp',
      provider: 'twitch',
      providerEventId: newId(),
      type: 'raid',
      viewerId: 'secret-viewer-id',
      viewerLogin: 'raider',
      viewerName: 'Raider',
      count: 12,
      occurredAt: new Date(),
    });
    for (let i = 0; i < 2; i++) {
      const res = await t.inject(owner, { method: 'POST', url: `/api/2/channels/${channelId}/activity/${id}/replay` });
      expect(res.statusCode).toBe(200);
    }
    await page.next((f) => f.type === 'event' && page.frames.filter((x) => x.type === 'event').length >= 2);
    const replays = page.frames.filter((f) => f.type === 'event').map((f) => f.data as { id: string; replay: boolean; name: string });
    expect(replays.every((r) => r.replay && r.name === 'Raider')).toBe(true);
    expect(replays[0]!.id).not.toBe(replays[1]!.id);
    page.ws.close();
  });

  it('a goal counts follows since it started, and a reset counts from now', async () => {
    const goal = await create('goal');
    const state = async () =>
      (await t.inject(null, { method: 'GET', url: `/api/2/public/widgets/${goal.token}` })).json<{ goal_current: number }>();
    const before = (await state()).goal_current;
    for (let i = 0; i < 3; i++)
      await t.s.db.insert(activities).values({
        id: newId(),
        channelId,
        channelProviderId: 'cp',
        provider: 'twitch',
        providerEventId: newId(),
        type: 'follow',
        occurredAt: new Date(),
      });
    expect((await state()).goal_current).toBe(before + 3);
    const page = await open(goal.token);
    await t.inject(owner, { method: 'POST', url: `${base(channelId)}/${goal.id}/reset-goal` });
    expect(await page.next((f) => f.type === 'goal.current')).toEqual({ type: 'goal.current', data: { current: 0 } });
    page.ws.close();
  });

  it('a points goal counts the points viewers earned since it started, not gifts between viewers, games or refunds', async () => {
    const goal = await create('goal');
    const saved = await t.inject(owner, {
      method: 'PUT',
      url: `${base(channelId)}/${goal.id}`,
      payload: {
        type: 'goal',
        name: 'Points',
        settings: { ...goal.settings, kind: 'points', title: 'Community points', target: 10_000, start_value: 5 },
      },
    });
    expect(saved.statusCode).toBe(200);
    const wallet = newId();
    await t.s.db.insert(pointWallets).values({ id: wallet, channelId, displayName: 'Fan', balance: 0 });
    const ledger = (delta: number, kind: 'chat' | 'watch' | 'give' | 'slots', createdAt = new Date()) =>
      t.s.db.insert(pointLedger).values({ channelId, walletId: wallet, delta, kind, idempotencyKey: newId(), createdAt });
    await ledger(100, 'chat', new Date(Date.now() - 3_600_000)); // before the goal started
    await ledger(10, 'chat');
    await ledger(50, 'watch');
    await ledger(500, 'give');
    await ledger(300, 'slots');
    await ledger(-40, 'chat');
    const state = await t.inject(null, { method: 'GET', url: `/api/2/public/widgets/${goal.token}` });
    expect(state.json<{ goal_current: number }>().goal_current).toBe(5 + 60);
  });
});
