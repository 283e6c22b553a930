/**
 * Moderation done on the platform side (a moderator in Twitch's, YouTube's or Kick's own chat, simulated with the
 * emulator's POST /_emulator/moderation/*): the platform's own wire events (EventSub channel.chat.message_delete,
 * channel.chat.clear_user_messages and channel.ban; YouTube messageDeletedEvent / userBannedEvent items; Kick's
 * moderation.banned webhook) are normalised, reach the staff chat websocket and are persisted: the chat log marks the
 * message deleted and the viewer card shows the viewer timed out or banned.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Account, Emulator } from '@greenroom/platform-emulator';
import { AccessLevel } from '@greenroom/contracts/access';
import type { TestApp, TestUser } from './helper';
import { SocketClient as Client, startChatWorld, type ChatPlatform as P, type ChatWorld } from './chat-world';
import { auditLog } from '../src/db/schema';
import { actionsSince, control, lastActionSeq } from './platform-fixtures';

let world: ChatWorld;
let emulator: Emulator;
let t: TestApp;
let base: string;
let mod: TestUser;
let channelId: string;
let cp: Record<P, string>;
let streamer: Record<P, Account>;

const newViewer = (p: P, name: string) => world.newViewer(p, name);
const chat = (p: P, text: string, user: string) => world.chat(p, text, user);

async function persisted(): Promise<void> {
  await t.s.ingest.flush();
}

beforeAll(async () => {
  world = await startChatWorld('Platform moderation');
  ({ emulator, t, base, channelId, cp, streamer } = world);
  mod = await world.member('Moddy', AccessLevel.MOD);
}, 60_000);

afterAll(async () => {
  await world?.close();
});

describe('the emulator control API for platform-side moderation', () => {
  it('validates its input and does not record the platform moderator as a product action', async () => {
    const since = await lastActionSeq(emulator);
    const bad = async (path: string, body: unknown) =>
      (
        await fetch(`${emulator.origin}/_emulator${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).status;
    expect(await bad('/moderation/delete', { platform: 'twitch', channel: 'greenroomdemo', messageId: 'nope' })).toBe(404);
    expect(await bad('/moderation/delete', { platform: 'tiktok', channel: 'greenroomdemo', messageId: 'x' })).toBe(400);
    expect(await bad('/moderation/ban', { platform: 'twitch', channel: 'greenroomdemo', user: 'nobody-here' })).toBe(404);
    expect(await bad('/moderation/ban', { platform: 'twitch', channel: 'greenroomdemo', user: 'greenroomdemo' })).toBe(400);
    expect(await bad('/moderation/ban', { platform: 'twitch', channel: 'greenroomdemo', user: 'greenroombot', durationSeconds: 0 })).toBe(
      400,
    );
    const viewer = await newViewer('twitch', 'Once');
    const { id } = await chat('twitch', 'twice deleted', viewer.id);
    expect(await bad('/moderation/delete', { platform: 'twitch', channel: 'greenroomdemo', messageId: id })).toBe(200);
    expect(await bad('/moderation/delete', { platform: 'twitch', channel: 'greenroomdemo', messageId: id })).toBe(409);
    expect(await actionsSince(emulator, 'twitch', since)).toEqual([]);
  });
});

describe.each(['twitch', 'youtube'] as const)('a moderator acting in %s chat itself', (p) => {
  it('deletes a message: chat.moderation (source platform) on the staff socket, deleted in the chat log', async () => {
    const client = new Client(`${base}/api/2/channels/${channelId}/chat-ws`, mod.token);
    await client.opened();
    const viewer = await newViewer(p, 'Spammer');
    const { id } = await chat(p, `buy followers on ${p}`, viewer.id);
    await client.waitFor((f) => f.some((x) => x.type === 'chat.message' && x.data.provider_message_id === id));
    await control(emulator, 'POST', '/moderation/delete', { platform: p, channel: streamer[p].id, messageId: id });
    const frame = await client.waitFor((f) =>
      f.find((x) => x.type === 'chat.moderation' && x.data.kind === 'delete' && x.data.provider_message_id === id),
    );
    expect(frame.data).toMatchObject({ provider: p, channel_id: channelId, channel_provider_id: cp[p], source: 'platform' });
    client.close();

    await persisted();
    const history = (await t.inject(mod, { method: 'GET', url: `/api/2/channels/${channelId}/chat/messages?provider=${p}` })).json<{
      records: { provider_message_id: string; deleted: boolean }[];
    }>();
    expect(history.records.find((m) => m.provider_message_id === id)).toMatchObject({ deleted: true });
    const card = (await t.inject(mod, { method: 'GET', url: `/api/2/channels/${channelId}/viewers/${p}/${viewer.id}` })).json<{
      moderation: { kind: string; source: string }[];
    }>();
    expect(card.moderation).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'delete', source: 'platform' })]));
  });

  it('times a viewer out and bans another: timeout with its duration and ban on the socket, their lines removed, the viewer cards say so', async () => {
    const client = new Client(`${base}/api/2/channels/${channelId}/chat-ws`, mod.token);
    await client.opened();
    const bystander = await newViewer(p, 'Nice');
    const rude = await newViewer(p, 'Rude');
    const troll = await newViewer(p, 'Troll');
    const nice = await chat(p, 'hello all', bystander.id);
    const rudeLine = await chat(p, 'rude words', rude.id);
    const trollLine = await chat(p, 'troll words', troll.id);
    await client.waitFor((f) =>
      [nice.id, rudeLine.id, trollLine.id].every((id) => f.some((x) => x.type === 'chat.message' && x.data.provider_message_id === id)),
    );

    await control(emulator, 'POST', '/moderation/ban', {
      platform: p,
      channel: streamer[p].id,
      user: rude.id,
      durationSeconds: 600,
      reason: 'language',
    });
    const timeout = await client.waitFor((f) =>
      f.find(
        (x) =>
          x.type === 'chat.moderation' &&
          x.data.kind === 'timeout' &&
          (x.data.target as { provider_user_id: string } | null)?.provider_user_id === rude.id,
      ),
    );
    expect(timeout.data).toMatchObject({
      provider: p,
      channel_provider_id: cp[p],
      source: 'platform',
      target: { provider_user_id: rude.id },
    });
    expect(timeout.data.duration_seconds).toBeGreaterThanOrEqual(595);
    expect(timeout.data.duration_seconds).toBeLessThanOrEqual(600);
    expect(timeout.data.moderator).toMatchObject({ display_name: streamer[p].displayName });
    if (p === 'twitch') expect(timeout.data.reason).toBe('language');

    await control(emulator, 'POST', '/moderation/ban', { platform: p, channel: streamer[p].id, user: troll.id });
    const ban = await client.waitFor((f) =>
      f.find(
        (x) =>
          x.type === 'chat.moderation' &&
          x.data.kind === 'ban' &&
          (x.data.target as { provider_user_id: string } | null)?.provider_user_id === troll.id,
      ),
    );
    expect(ban.data).toMatchObject({ provider: p, source: 'platform', duration_seconds: null });
    client.close();

    await persisted();
    const history = (await t.inject(mod, { method: 'GET', url: `/api/2/channels/${channelId}/chat/messages?provider=${p}` })).json<{
      records: { provider_message_id: string; deleted: boolean }[];
    }>();
    const byId = (id: string) => history.records.find((m) => m.provider_message_id === id);
    expect(byId(rudeLine.id)).toMatchObject({ deleted: true });
    expect(byId(trollLine.id)).toMatchObject({ deleted: true });
    // Twitch's clear_user_messages names the viewer: the bystander's line stays.
    expect(byId(nice.id)).toMatchObject({ deleted: false });

    const card = async (id: string) =>
      (await t.inject(mod, { method: 'GET', url: `/api/2/channels/${channelId}/viewers/${p}/${id}` })).json<{
        banned: boolean;
        timed_out_until: string | null;
        moderation: { kind: string; source: string }[];
      }>();
    const rudeCard = await card(rude.id);
    expect(rudeCard.banned).toBe(false);
    expect(Date.parse(rudeCard.timed_out_until ?? '')).toBeGreaterThan(Date.now() + 590_000);
    expect(rudeCard.moderation).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'timeout', source: 'platform' })]));
    const trollCard = await card(troll.id);
    expect(trollCard).toMatchObject({ banned: true, timed_out_until: null });
  });
});

describe.each(['twitch', 'kick'] as const)("%s echoes of Greenroom's own moderation", (p) => {
  it('publishes a timeout made through Greenroom once (source greenroom), not again when the platform echoes it (channel.ban, moderation.banned)', async () => {
    const client = new Client(`${base}/api/2/channels/${channelId}/chat-ws`, mod.token);
    await client.opened();
    const viewer = await newViewer(p, 'Echo');
    const sentinel = await newViewer(p, 'Sentinel');
    const res = await t.inject(mod, {
      method: 'POST',
      url: `/api/2/channels/${channelId}/${p}/${cp[p]}/ban`,
      payload: { provider_viewer_id: viewer.id, duration_seconds: 60 },
    });
    expect(res.statusCode, res.body).toBe(204);
    // A platform-side ban afterwards: once it is on the socket, the echo of the first one would have been too.
    await control(emulator, 'POST', '/moderation/ban', { platform: p, channel: streamer[p].id, user: sentinel.id, durationSeconds: 60 });
    await client.waitFor((f) =>
      f.some(
        (x) =>
          x.type === 'chat.moderation' &&
          x.data.kind === 'timeout' &&
          (x.data.target as { provider_user_id: string } | null)?.provider_user_id === sentinel.id,
      ),
    );
    const timeouts = client.frames.filter(
      (x) =>
        x.type === 'chat.moderation' &&
        x.data.kind === 'timeout' &&
        (x.data.target as { provider_user_id: string } | null)?.provider_user_id === viewer.id,
    );
    expect(timeouts.map((x) => x.data.source)).toEqual(['greenroom']);
    client.close();
  });
});

describe('a moderator acting in Kick chat itself', () => {
  it('bans a viewer: Kick has a moderation.banned webhook (not one for deletions), normalised to a timeout', async () => {
    const client = new Client(`${base}/api/2/channels/${channelId}/chat-ws`, mod.token);
    await client.opened();
    const viewer = await newViewer('kick', 'KickTroll');
    await control(emulator, 'POST', '/moderation/ban', {
      platform: 'kick',
      channel: streamer.kick.id,
      user: viewer.id,
      durationSeconds: 300,
    });
    const frame = await client.waitFor((f) =>
      f.find(
        (x) =>
          x.type === 'chat.moderation' &&
          x.data.provider === 'kick' &&
          (x.data.target as { provider_user_id: string } | null)?.provider_user_id === viewer.id,
      ),
    );
    expect(frame.data).toMatchObject({ kind: 'timeout', source: 'platform', channel_provider_id: cp.kick });
    client.close();
  });
});

describe('timeouts the platform would change', () => {
  it('Kick: refuses 30 s (whole minutes, 1 minute to 7 days) before sending anything; records the 2 minutes Kick applied', async () => {
    const viewer = await newViewer('kick', 'Shorty');
    const since = await lastActionSeq(emulator);
    const refused = await t.inject(mod, {
      method: 'POST',
      url: `/api/2/channels/${channelId}/kick/${cp.kick}/ban`,
      payload: { provider_viewer_id: viewer.id, duration_seconds: 30 },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      type: 'bad_request',
      message: 'Kick times out in whole minutes, from 1 minute to 7 days.',
      fields: { duration_seconds: 'Kick times out in whole minutes, from 1 minute to 7 days.' },
    });
    expect(await actionsSince(emulator, 'kick', since)).toEqual([]);

    const ok = await t.inject(mod, {
      method: 'POST',
      url: `/api/2/channels/${channelId}/kick/${cp.kick}/ban`,
      payload: { provider_viewer_id: viewer.id, duration_seconds: 120 },
    });
    expect(ok.statusCode, ok.body).toBe(204);
    const [sent] = (await actionsSince(emulator, 'kick', since)).filter((a) => a.type === 'timeout');
    expect(sent!.data).toMatchObject({ durationMinutes: 2 });
    const audit = await t.s.db.select().from(auditLog).where(eq(auditLog.channelId, channelId));
    const logged = audit.find((r) => r.action === 'moderation.timeout' && r.data.provider_viewer_id === viewer.id);
    expect(logged?.data).toMatchObject({ provider: 'kick', duration_seconds: 120, reason: null });
  });
});
