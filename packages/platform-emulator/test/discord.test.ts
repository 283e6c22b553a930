import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDiscordWebhook, discordPlugin } from '../src/discord/plugin';
import { account, matching, startHarness, token, type Harness } from './plugin-harness';

let h: Harness;
const USER = '123456789012345678';

beforeEach(async () => {
  h = await startHarness(discordPlugin);
  account(h.world, 'discord', USER, 'streamer', 'streamer');
  account(h.world, 'discord', '223456789012345678', 'greenroombot', 'bot');
});

afterEach(async () => {
  await h.close();
});

describe('Discord', () => {
  it('returns users/@me on both the unversioned and v10 paths, and 401 otherwise', async () => {
    const t = token(h.world, 'discord', USER, ['identify', 'email']);
    for (const path of ['/discord/api/users/@me', '/discord/api/v10/users/@me']) {
      const res = await h.app.inject({ method: 'GET', url: path, headers: { authorization: `Bearer ${t}` } });
      expect(res.json()).toMatchObject({
        id: USER,
        username: 'streamer',
        global_name: 'Streamer',
        discriminator: '0',
        email: 'streamer@example.test',
      });
    }
    const bad = await h.app.inject({ method: 'GET', url: '/discord/api/users/@me', headers: { authorization: 'Bearer nope' } });
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toEqual({ message: '401: Unauthorized', code: 0 });
  });

  it('executes a webhook (204, or the message with ?wait=true) and records each post', async () => {
    const hook = createDiscordWebhook(h.world, { userId: USER, applicationId: 'app', origin: h.origin });
    expect(hook.url).toBe(`${h.origin}/discord/api/webhooks/${hook.id}/${hook.token}`);
    const path = new URL(hook.url).pathname;
    const noWait = await h.app.inject({ method: 'POST', url: path, payload: { content: 'We are live!' } });
    expect(noWait.statusCode).toBe(204);
    const wait = await h.app.inject({
      method: 'POST',
      url: `${path}?wait=true`,
      payload: { content: '@everyone live', embeds: [{ title: 'Stream' }], allowed_mentions: { parse: ['everyone'] } },
    });
    expect(wait.statusCode).toBe(200);
    expect(wait.json()).toMatchObject({
      id: matching(/^\d+$/),
      channel_id: hook.channel_id,
      content: '@everyone live',
      embeds: [{ title: 'Stream' }],
      webhook_id: hook.id,
      author: { bot: true, id: hook.id },
    });
    const actions = h.world.actions.filter((a) => a.type === 'discord.message');
    expect(actions.map((a) => a.data.content)).toEqual(['We are live!', '@everyone live']);
    expect(actions[1]!.data.allowedMentions).toEqual({ parse: ['everyone'] });
  });

  it('rejects empty and too-long messages and bad webhook tokens with Discord errors', async () => {
    const hook = createDiscordWebhook(h.world, { userId: USER, applicationId: 'app', origin: h.origin });
    const path = `/discord/api/webhooks/${hook.id}/${hook.token}`;
    expect((await h.app.inject({ method: 'POST', url: path, payload: {} })).json()).toEqual({
      message: 'Cannot send an empty message',
      code: 50006,
    });
    const long = await h.app.inject({ method: 'POST', url: path, payload: { content: 'x'.repeat(2001) } });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({ code: 50035, errors: { content: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH' }] } } });
    const wrong = await h.app.inject({ method: 'POST', url: `/discord/api/webhooks/${hook.id}/wrong`, payload: { content: 'x' } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ message: 'Invalid Webhook Token', code: 50027 });
    expect((await h.app.inject({ method: 'POST', url: '/discord/api/webhooks/1/2', payload: { content: 'x' } })).json()).toEqual({
      message: 'Unknown Webhook',
      code: 10015,
    });
  });

  it('posts bot channel messages with a Bot token only', async () => {
    const botToken = h.ctx.discord!.botToken();
    const url = '/discord/api/v10/channels/998877665544332211/messages';
    const res = await h.app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bot ${botToken}` },
      payload: { content: 'Going live' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      channel_id: '998877665544332211',
      content: 'Going live',
      author: { id: '223456789012345678', bot: true },
    });
    expect(h.ctx.discord!.messages().at(-1)).toMatchObject({ via: 'bot', channelId: '998877665544332211' });
    const asUser = await h.app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${token(h.world, 'discord', USER, ['identify'])}` },
      payload: { content: 'x' },
    });
    expect(asUser.statusCode).toBe(401);
  });

  it("edits a webhook message (only the fields sent), refusing other webhooks' messages, unknown webhooks and wrong tokens", async () => {
    const hook = createDiscordWebhook(h.world, { userId: USER, applicationId: 'app', origin: h.origin });
    const other = createDiscordWebhook(h.world, { userId: USER, applicationId: 'app', origin: h.origin });
    const path = new URL(hook.url).pathname;
    const role = '345678901234567890';
    const sent = await h.app.inject({
      method: 'POST',
      url: `${path}?wait=true`,
      payload: { content: `<@&${role}> We are live`, embeds: [{ title: 'Live' }], allowed_mentions: { roles: [role] } },
    });
    expect(sent.json()).toMatchObject({ mention_roles: [role], edited_timestamp: null });
    const id = sent.json().id as string;
    const edited = await h.app.inject({
      method: 'PATCH',
      url: `/discord/api/v10/webhooks/${hook.id}/${hook.token}/messages/${id}`,
      payload: { embeds: [{ title: 'Ended' }] },
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({
      id,
      content: `<@&${role}> We are live`,
      embeds: [{ title: 'Ended' }],
      edited_timestamp: matching(/T/),
    });
    expect(h.world.actions.filter((a) => a.type === 'discord.message_edited').map((a) => a.data.messageId)).toEqual([id]);
    const editPath = (hookId: string, token: string, messageId: string) => `/discord/api/webhooks/${hookId}/${token}/messages/${messageId}`;
    const notOurs = await h.app.inject({ method: 'PATCH', url: editPath(other.id, other.token, id), payload: { content: 'x' } });
    expect([notOurs.statusCode, notOurs.json()]).toEqual([404, { message: 'Unknown Message', code: 10008 }]);
    const wrongToken = await h.app.inject({ method: 'PATCH', url: editPath(hook.id, other.token, id), payload: { content: 'x' } });
    expect([wrongToken.statusCode, wrongToken.json().code]).toEqual([401, 50027]);
    const unknown = await h.app.inject({ method: 'PATCH', url: editPath('999999999999999999', hook.token, id), payload: { content: 'x' } });
    expect([unknown.statusCode, unknown.json()]).toEqual([404, { message: 'Unknown Webhook', code: 10015 }]);
    const emptied = await h.app.inject({ method: 'PATCH', url: editPath(hook.id, hook.token, id), payload: { content: '', embeds: [] } });
    expect([emptied.statusCode, emptied.json().code]).toEqual([400, 50006]);
  });

  it('pings a role only as allowed_mentions permits, and refuses parse roles with a roles list', async () => {
    const hook = createDiscordWebhook(h.world, { userId: USER, applicationId: 'app', origin: h.origin });
    const path = `${new URL(hook.url).pathname}?wait=true`;
    const role = '345678901234567890';
    const none = await h.app.inject({ method: 'POST', url: path, payload: { content: `<@&${role}> hi`, allowed_mentions: { parse: [] } } });
    expect(none.json().mention_roles).toEqual([]);
    const all = await h.app.inject({ method: 'POST', url: path, payload: { content: `<@&${role}> hi` } });
    expect(all.json().mention_roles).toEqual([role]);
    const both = await h.app.inject({
      method: 'POST',
      url: path,
      payload: { content: `<@&${role}> hi`, allowed_mentions: { parse: ['roles'], roles: [role] } },
    });
    expect([both.statusCode, both.json().code]).toEqual([400, 50035]);
  });

  it('takes 5 requests per 2 seconds per webhook, then answers 429 with retry_after', async () => {
    const hook = createDiscordWebhook(h.world, { userId: USER, applicationId: 'app', origin: h.origin });
    const other = createDiscordWebhook(h.world, { userId: USER, applicationId: 'app', origin: h.origin });
    const post = (x: typeof hook) => h.app.inject({ method: 'POST', url: new URL(x.url).pathname, payload: { content: 'hi' } });
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await post(hook));
    expect(answers.slice(0, 5).map((r) => r.statusCode)).toEqual([204, 204, 204, 204, 204]);
    expect(answers[4]!.headers['x-ratelimit-remaining']).toBe('0');
    const limited = answers[5]!;
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ message: 'You are being rate limited.', global: false, retry_after: expect.any(Number) });
    expect(limited.json().retry_after).toBeGreaterThan(0);
    expect(limited.json().retry_after).toBeLessThanOrEqual(2);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Another webhook has its own bucket.
    expect((await post(other)).statusCode).toBe(204);
  });
});
