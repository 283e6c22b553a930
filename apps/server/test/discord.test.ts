/**
 * Discord go-live announcements against the emulator's Discord: settings (the webhook URL checked, its token
 * encrypted and never sent back), "send test" (and Discord's rate limit as a clear error), one post per stream with
 * the role mention allowed, edited when every platform has been offline for two minutes; once per stream across a
 * restart (a new service over the same database) and never again after an interrupted post.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '@greenroom/platform-emulator';
import { channelProviders, discordAnnouncements, discordPosts } from '../src/db/schema';
import { newId } from '../src/lib/ids';
import { DiscordService, DiscordWebhookClient, END_AFTER_MS } from '../src/modules/discord';
import type { TestApp } from './helper';
import { chatPlatforms, startChatWorld, type ChatWorld } from './chat-world';
import { control, lastActionSeq, until } from './platform-fixtures';

let world: ChatWorld;
let emulator: Emulator;
let t: TestApp;
let hook: { id: string; token: string; url: string };
let now = Date.parse('2026-03-02T20:00:00Z');
const ROLE = '345678901234567890';

const url = () => `/api/2/channels/${world.channelId}/discord`;

/** A service as a (re)started process has it: the same database, its own memory. */
function service(): DiscordService {
  return new DiscordService({
    db: t.s.db,
    cipher: t.s.cipher,
    webhooks: new DiscordWebhookClient(`${emulator.origin}/discord/api/v10`),
    publicUrl: 'https://greenroom.example',
    streamInfo: async () => ({ title: 'Any% speedrun', category: 'Celeste' }),
    clock: () => now,
    log: { warn: () => undefined },
  });
}

/** Every platform of the channel live or offline (as Greenroom sees it). */
async function setLive(live: boolean) {
  for (const p of chatPlatforms) {
    await control(emulator, 'POST', `/channels/${p}/${world.streamer[p].id}/live`, { live, viewerCount: 12 });
  }
  await until(async () => {
    const rows = await t.s.db
      .select({ isLive: channelProviders.isLive })
      .from(channelProviders)
      .where(eq(channelProviders.channelId, world.channelId));
    return rows.every((r) => r.isLive === live);
  }, 30_000);
}

function discordActions(since: number) {
  return emulator.world.actions.filter((a) => a.seq > since && a.type.startsWith('discord.message'));
}

beforeAll(async () => {
  world = await startChatWorld('Discord');
  ({ emulator, t } = world);
  hook = await control(emulator, 'POST', '/discord/webhooks', { name: 'Announcements' });
}, 60_000);

afterAll(async () => {
  await world?.close();
});

describe('Discord announcement settings', () => {
  it('refuses a URL that is not a Discord webhook and stores the token encrypted, never sending it back', async () => {
    const empty = await t.inject(world.owner, { method: 'GET', url: url() });
    expect(empty.json()).toMatchObject({ configured: false, webhook_hint: null, last_post: null });
    const bad = await t.inject(world.owner, {
      method: 'PUT',
      url: url(),
      payload: { webhook_url: 'https://example.com/api/webhooks/1/abc', template: 'Live: {title}', role_id: null, enabled: true },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual({ webhook_url: 'Paste the webhook URL from Discord: https://discord.com/api/webhooks/…' });
    const unknownVariable = await t.inject(world.owner, {
      method: 'PUT',
      url: url(),
      payload: { webhook_url: hook.url, template: 'Live: {titel}', role_id: null, enabled: true },
    });
    expect(unknownVariable.statusCode).toBe(400);
    const noHookYet = await t.inject(world.owner, {
      method: 'PUT',
      url: url(),
      payload: { template: 'Live: {title}', role_id: null, enabled: true },
    });
    expect(noHookYet.statusCode).toBe(400);

    const saved = await t.inject(world.owner, {
      method: 'PUT',
      url: url(),
      payload: {
        webhook_url: hook.url,
        template: '{channel} is live on {platforms}: {title} ({game}) {link}',
        role_id: ROLE,
        enabled: true,
      },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      configured: true,
      webhook_hint: `https://discord.com/api/webhooks/${hook.id}/••••`,
      role_id: ROLE,
    });
    expect(saved.body).not.toContain(hook.token);
    const [row] = await t.s.db.select().from(discordAnnouncements).where(eq(discordAnnouncements.channelId, world.channelId));
    expect(row!.webhookTokenEnc).not.toContain(hook.token);
    expect(t.s.cipher.decrypt(row!.webhookTokenEnc)).toBe(hook.token);
    // Saving without a URL keeps the stored webhook.
    const kept = await t.inject(world.owner, {
      method: 'PUT',
      url: url(),
      payload: { template: '{channel} is live on {platforms}: {title} ({game}) {link}', role_id: ROLE, enabled: true },
    });
    expect(kept.json().webhook_hint).toBe(`https://discord.com/api/webhooks/${hook.id}/••••`);
  });

  it('sends a test announcement, and says so when Discord rate limits the webhook', async () => {
    const since = await lastActionSeq(emulator);
    const test = await t.inject(world.owner, {
      method: 'POST',
      url: `${url()}/test`,
      payload: { template: 'Testing {channel} on {platform}', role_id: null },
    });
    expect(test.statusCode).toBe(204);
    const [posted] = discordActions(since);
    expect(posted!.data.content).toMatch(/^Testing Discord on (Twitch|Kick|YouTube)\n-# Test announcement from Greenroom$/);
    let answer = test;
    for (let i = 0; i < 6 && answer.statusCode === 204; i++) {
      answer = await t.inject(world.owner, { method: 'POST', url: `${url()}/test`, payload: { template: 'Again', role_id: null } });
    }
    expect(answer.statusCode).toBe(429);
    expect(answer.json().message).toMatch(/^Discord is rate limiting this webhook: try again in \d+ s\.$/);
    await new Promise((r) => setTimeout(r, 2_100)); // the emulator's webhook bucket refills
  });
});

describe('go-live announcements', () => {
  it('posts once when the stream goes live, with the role pinged, and again neither on the next sync nor after a restart', async () => {
    const since = await lastActionSeq(emulator);
    await setLive(true);
    await service().sync();
    await service().sync(); // a restarted process: the stream's row says it was announced
    now += 60_000;
    await service().sync();
    const posts = discordActions(since);
    expect(posts).toHaveLength(1);
    const content = posts[0]!.data.content as string;
    expect(content).toBe(
      `<@&${ROLE}> Discord is live on Twitch, Kick, YouTube: Any% speedrun (Celeste) https://www.twitch.tv/${world.streamer.twitch.login}`,
    );
    expect(posts[0]!.data.allowedMentions).toEqual({ parse: [], roles: [ROLE] });
    const [row] = await t.s.db.select().from(discordPosts).where(eq(discordPosts.channelId, world.channelId));
    expect(row).toMatchObject({ state: 'posted', messageId: posts[0]!.data.messageId, endedAt: null });
    expect(emulator.ctx.discord!.webhookMessage(row!.messageId!)?.mentionRoles).toEqual([ROLE]);
  }, 120_000);

  it('edits the announcement once every platform has been offline for two minutes, not on a short drop', async () => {
    const since = await lastActionSeq(emulator);
    await setLive(false);
    await service().sync();
    now += 30_000;
    await service().sync();
    expect(discordActions(since)).toEqual([]);
    // Back within the grace: the same stream.
    await setLive(true);
    await service().sync();
    await setLive(false);
    await service().sync();
    now += END_AFTER_MS;
    await service().sync();
    const edits = discordActions(since);
    expect(edits.map((a) => a.type)).toEqual(['discord.message_edited']);
    const [row] = await t.s.db.select().from(discordPosts).where(eq(discordPosts.channelId, world.channelId));
    expect(row).toMatchObject({ state: 'ended' });
    const message = emulator.ctx.discord!.webhookMessage(row!.messageId!)!;
    expect(message.editedAt).not.toBeNull();
    expect((message.embeds[0] as { footer: { text: string } }).footer.text).toMatch(/^Stream ended · \d+:\d{2}:\d{2}$/);
    const settings = await t.inject(world.owner, { method: 'GET', url: url() });
    expect(settings.json().last_post).toMatchObject({ state: 'ended', error: null });
  }, 120_000);

  it('never posts again a stream whose post was interrupted, and shows why a post failed', async () => {
    // A claim left `sending` by a process that died mid-request.
    await t.s.db.insert(discordPosts).values({
      id: newId(),
      channelId: world.channelId,
      state: 'sending',
      webhookId: hook.id,
      startedAt: new Date(now),
    });
    now += 5 * 60_000;
    const since = await lastActionSeq(emulator);
    await setLive(true);
    await service().sync();
    expect(discordActions(since)).toEqual([]);
    const settings = await t.inject(world.owner, { method: 'GET', url: url() });
    expect(settings.json().last_post).toMatchObject({ state: 'interrupted' });
    await setLive(false);
    await service().sync();
    now += END_AFTER_MS;
    await service().sync();

    // The webhook deleted in Discord: the next stream's post fails with the reason.
    await control(emulator, 'DELETE', `/discord/webhooks/${hook.id}`);
    now += 60_000;
    await setLive(true);
    await service().sync();
    const failed = await t.inject(world.owner, { method: 'GET', url: url() });
    expect(failed.json().last_post).toMatchObject({
      state: 'failed',
      error: 'Discord does not know this webhook any more (it was deleted or its URL changed): paste its current URL.',
    });
    await setLive(false);
  }, 180_000);

  it('is for Admins', async () => {
    const { AccessLevel } = await import('@greenroom/contracts/access');
    const editor = await world.member('Eddie', AccessLevel.EDITOR);
    expect((await t.inject(editor, { method: 'GET', url: url() })).statusCode).toBe(403);
  });
});
