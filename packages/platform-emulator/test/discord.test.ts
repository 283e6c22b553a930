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
});
