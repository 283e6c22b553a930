import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Account, type Emulator } from '@greenroom/platform-emulator';
import { createTiktokAdapter, TIKTOK_WAITING_DETAIL } from '../src/platforms/tiktok/tiktok-adapter';
import { mapTikTokEvent } from '../src/platforms/tiktok/tiktok-events';
import type { LiveConnection, PlatformAdapter, PlatformEvent } from '../src/platforms/port';
import { createTestApp, testApps, type TestApp } from './helper';
import { chats, control, EmulatorTokenSource, recordingContext, type RecordingContext } from './platform-fixtures';

type Act = Extract<PlatformEvent, { kind: 'activity' }>['activity'];
const activities = (events: PlatformEvent[]): Act[] => events.flatMap((e) => (e.kind === 'activity' ? [e.activity] : []));

describe('TikTok adapter (read-only) against the emulator live socket', () => {
  let emulator: Emulator;
  let t: TestApp;
  let adapter: PlatformAdapter;
  let streamer: Account;
  let viewer: Account;
  let rec: RecordingContext;
  let connection: LiveConnection;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, apps: testApps, crowd: false });
    t = await createTestApp({ emulatorOrigin: emulator.origin });
    expect(t.endpoints.tiktok.liveUrl).toBeTruthy();
    streamer = emulator.world.accountByLogin('tiktok', 'greenroomdemo')!;
    viewer = emulator.world.accountsOf('tiktok', 'viewer')[0]!;
    adapter = createTiktokAdapter({
      endpoints: t.endpoints.tiktok,
      offlinePoll: { baseMs: 50, maxMs: 100 },
      backoff: { baseMs: 50, maxMs: 100 },
    });
    const token = new EmulatorTokenSource('tiktok', streamer.id, ['user.info.basic'], t.endpoints, emulator);
    rec = recordingContext({
      provider: 'tiktok',
      providerChannelId: 'open-id-1',
      providerChannelName: `@${streamer.login}`,
      broadcaster: token,
    });
    connection = adapter.connect(rec.ctx)!;
    await rec.waitFor(() => rec.lastHealth() === 'connected');
  });

  afterAll(async () => {
    await connection?.close();
    await t?.close();
    await emulator?.close();
  });

  it('reports the LIVE and reads chat', async () => {
    expect(rec.events.find((e) => e.kind === 'stream')).toMatchObject({ status: { is_live: true } });
    await control(emulator, 'POST', '/chat', {
      platform: 'tiktok',
      channel: streamer.login,
      user: viewer.id,
      text: 'hello @greenroomdemo',
    });
    const msg = await rec.waitFor(() => chats(rec.events).find((m) => m.text === 'hello @greenroomdemo'));
    expect(msg.author).toMatchObject({ provider_user_id: viewer.id, login: viewer.login, display_name: viewer.displayName });
    expect(msg.mentions).toEqual(['greenroomdemo']);
    expect(msg.provider_message_id).toMatch(/^\d+$/);
  });

  it('counts a gift streak once, with its diamond value, and maps follows and subs', async () => {
    const before = rec.events.length;
    await control(emulator, 'POST', '/events', {
      platform: 'tiktok',
      channel: streamer.login,
      type: 'tiktok_gift',
      user: viewer.id,
      data: { giftName: 'Finger Heart', count: 12 },
    });
    await control(emulator, 'POST', '/events', {
      platform: 'tiktok',
      channel: streamer.login,
      type: 'tiktok_gift',
      user: viewer.id,
      data: { giftName: 'Galaxy', count: 1 },
    });
    await control(emulator, 'POST', '/events', { platform: 'tiktok', channel: streamer.login, type: 'follow', user: viewer.id });
    await control(emulator, 'POST', '/events', {
      platform: 'tiktok',
      channel: streamer.login,
      type: 'sub',
      user: viewer.id,
      data: { months: 3 },
    });
    await control(emulator, 'POST', '/events', {
      platform: 'tiktok',
      channel: streamer.login,
      type: 'like',
      user: viewer.id,
      data: { count: 5 },
    });
    const list = await rec.waitFor(() => {
      const found = activities(rec.events.slice(before));
      return found.length >= 4 ? found : null;
    });
    await new Promise((r) => setTimeout(r, 100));
    const all = activities(rec.events.slice(before));
    expect(all.map((a) => a.type)).toEqual(['tiktok_gift', 'tiktok_gift', 'follow', 'sub']);
    expect(list[0]).toMatchObject({ tier: 'Finger Heart', count: 12, amount: '60 diamonds', viewer: { provider_user_id: viewer.id } });
    expect(list[1]).toMatchObject({ tier: 'Galaxy', count: 1, amount: '1000 diamonds' });
  });

  it('has no action facet: TikTok offers no API to write chat, moderate or change the LIVE', async () => {
    expect(adapter.actions(rec.ctx)).toEqual({});
  });

  it('goes offline when the LIVE ends and reconnects when it starts again', async () => {
    await control(emulator, 'POST', `/channels/tiktok/${streamer.id}/live`, { live: false });
    await rec.waitFor(() => rec.health.at(-1)?.state === 'offline' && rec.health.at(-1)?.detail === TIKTOK_WAITING_DETAIL);
    expect(rec.events.filter((e) => e.kind === 'stream').at(-1)).toMatchObject({ status: { is_live: false } });
    await control(emulator, 'POST', `/channels/tiktok/${streamer.id}/live`, { live: true });
    await rec.waitFor(() => rec.lastHealth() === 'connected');
    await control(emulator, 'POST', '/chat', { platform: 'tiktok', channel: streamer.login, user: viewer.id, text: 'back again' });
    await rec.waitFor(() => chats(rec.events).find((m) => m.text === 'back again'));
  });

  it('waits for an offline creator', async () => {
    const offline = emulator.world.accountByLogin('tiktok', 'dancefloordiva')!;
    const token = new EmulatorTokenSource('tiktok', offline.id, ['user.info.basic'], t.endpoints, emulator);
    const r = recordingContext({
      provider: 'tiktok',
      providerChannelId: 'open-id-2',
      providerChannelName: offline.login,
      broadcaster: token,
    });
    const conn = adapter.connect(r.ctx)!;
    try {
      await r.waitFor(() => r.lastHealth() === 'offline');
      expect(r.health.at(-1)!.detail).toBe(TIKTOK_WAITING_DETAIL);
    } finally {
      await conn.close();
    }
  });
});

describe('TikTok event mapper', () => {
  const user = { userId: '7', uniqueId: 'Fan_7', nickname: 'Fan Seven', profilePicture: { url: ['https://img/7.png'] } };

  it('reads the connector 2.0–2.4 field names', () => {
    const [chat] = mapTikTokEvent(
      { type: 'chat', data: { comment: 'hey', user, common: { msgId: '99', createTime: '1700000000000' } } },
      '2026-01-01T00:00:00.000Z',
    );
    expect(chat).toMatchObject({
      kind: 'chat',
      message: {
        provider_message_id: '99',
        text: 'hey',
        sent_at: '2023-11-14T22:13:20.000Z',
        author: { provider_user_id: '7', login: 'fan_7', avatar_url: 'https://img/7.png' },
      },
    });
  });

  it('skips the running events of a streak and counts the final one', () => {
    const gift = (repeatCount: number, repeatEnd: number) => ({
      type: 'gift' as const,
      data: {
        user,
        repeatCount,
        repeatEnd,
        giftDetails: { giftName: 'Rose', giftType: 1, diamondCount: 1 },
        common: { msgId: `g${repeatCount}-${repeatEnd}` },
      },
    });
    const out = [gift(1, 0), gift(2, 0), gift(3, 0), gift(3, 1)].flatMap((g) => mapTikTokEvent(g, '2026-01-01T00:00:00.000Z'));
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ kind: 'activity', activity: { type: 'tiktok_gift', count: 3, amount: '3 diamonds', tier: 'Rose' } });
  });
});
