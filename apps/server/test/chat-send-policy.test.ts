/**
 * Who a message sent from Greenroom goes out as: the streamer's own account only for Admins and the Owner
 * (and Editors when the Owner allows it), the bot for everyone else, enforced by the server; every message a
 * platform accepted is in the audit log with who sent it and as which account.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Account } from '@greenroom/platform-emulator';
import { AccessLevel } from '@greenroom/contracts/access';
import { POST_AS_STREAMER_REFUSED } from '@greenroom/contracts/api/channels';
import type { AuditLogEntry } from '@greenroom/contracts/api/staff';
import { scopesFor } from '../src/platforms/scopes';
import type { TestUser } from './helper';
import { startChatWorld, type ChatWorld } from './chat-world';
import { actionsSince, lastActionSeq } from './platform-fixtures';
import { testApps } from './helper';

let world: ChatWorld;
let mod: TestUser;
let editor: TestUser;
let admin: TestUser;
let bot: Account;

beforeAll(async () => {
  world = await startChatWorld('Send policy');
  mod = await world.member('Mona', AccessLevel.MOD);
  editor = await world.member('Eddie', AccessLevel.EDITOR);
  admin = await world.member('Ada', AccessLevel.ADMIN);
  // The operators' Twitch system bot sends for channels without a bot of their own.
  bot = world.emulator.world.accountsOf('twitch', 'bot')[0]!;
  const token = world.emulator.world.issueToken({
    platform: 'twitch',
    clientId: testApps.twitch.clientId,
    userId: bot.id,
    scopes: scopesFor.twitch.bot,
    ttlSeconds: 3600,
    refreshable: true,
  });
  await world.t.s.systemBots.connect(
    'twitch',
    { providerUserId: bot.id, login: bot.login, displayName: bot.displayName, avatarUrl: null },
    { accessToken: token.accessToken, refreshToken: token.refreshToken, expiresAt: null, scopes: scopesFor.twitch.bot },
  );
}, 60_000);

afterAll(async () => world?.close());

async function send(user: TestUser, body: Record<string, unknown>) {
  return world.t.inject(user, {
    method: 'POST',
    url: `/api/2/channels/${world.channelId}/chat/messages`,
    payload: { channel_provider_ids: [world.cp.twitch], ...body },
  });
}

async function twitchSender(text: string, since: number): Promise<string | null> {
  const sends = await actionsSince(world.emulator, 'twitch', since);
  return sends.find((a) => a.type === 'chat.send' && a.data.text === text)?.actorId ?? null;
}

async function auditRows(): Promise<AuditLogEntry[]> {
  const res = await world.t.inject(world.owner, { method: 'GET', url: `/api/2/channels/${world.channelId}/audit-log?action=chat.sent` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ records: AuditLogEntry[] }>().records;
}

describe('posting as the streamer', () => {
  it('a Mod sends as the bot, and cannot ask to post as the streamer', async () => {
    const since = await lastActionSeq(world.emulator);
    const sent = await send(mod, { text: 'mod says hi' });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().results[0]).toMatchObject({ ok: true });
    expect(await twitchSender('mod says hi', since)).toBe(bot.id);

    const refused = await send(mod, { text: 'pretending to be the streamer', as: 'broadcaster' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ type: 'forbidden', message: POST_AS_STREAMER_REFUSED });
    expect(await twitchSender('pretending to be the streamer', since)).toBeNull();
  });

  it('an Editor posts as the streamer only once the Owner allows it; Admins and the Owner always may', async () => {
    const since = await lastActionSeq(world.emulator);
    expect((await send(editor, { text: 'editor as streamer', as: 'broadcaster' })).statusCode).toBe(403);
    expect((await send(editor, { text: 'editor default' })).statusCode).toBe(200);
    expect(await twitchSender('editor default', since)).toBe(bot.id);

    const settings = `/api/2/channels/${world.channelId}/chat-settings`;
    expect((await world.t.inject(admin, { method: 'PUT', url: settings, payload: { editors_post_as_streamer: true } })).statusCode).toBe(
      403,
    );
    const allowed = await world.t.inject(world.owner, { method: 'PUT', url: settings, payload: { editors_post_as_streamer: true } });
    expect(allowed.statusCode, allowed.body).toBe(200);
    expect(allowed.json().editors_post_as_streamer).toBe(true);

    expect((await send(editor, { text: 'editor now as streamer', as: 'broadcaster' })).statusCode).toBe(200);
    expect(await twitchSender('editor now as streamer', since)).toBe(world.streamer.twitch.id);
    expect((await send(admin, { text: 'admin default' })).statusCode).toBe(200);
    expect(await twitchSender('admin default', since)).toBe(world.streamer.twitch.id);
    expect((await send(admin, { text: 'admin as bot', as: 'bot' })).statusCode).toBe(200);
    expect(await twitchSender('admin as bot', since)).toBe(bot.id);

    await world.t.inject(world.owner, { method: 'PUT', url: settings, payload: { editors_post_as_streamer: false } });
    expect((await send(editor, { text: 'not any more', as: 'broadcaster' })).statusCode).toBe(403);
  });

  it('records every sent message in the audit log with who sent it and as which account', async () => {
    const rows = await auditRows();
    const byText = (text: string) => rows.find((r) => r.data.text === text);
    expect(byText('mod says hi')).toMatchObject({
      action: 'chat.sent',
      actor: { id: mod.id, display_name: 'Mona' },
      data: { provider: 'twitch', as: 'bot', account: bot.displayName },
    });
    expect(byText('editor now as streamer')).toMatchObject({
      actor: { id: editor.id },
      data: { as: 'broadcaster', account: world.streamer.twitch.login },
    });
    expect(byText('pretending to be the streamer')).toBeUndefined();
  });
});
