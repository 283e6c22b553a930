/**
 * The loyalty chat commands and stages as the chat pipeline will run them (stages, then effects), with a fake
 * platform that records what the bot says: points (!points, !give, !addpoints, !removepoints, !top), one wallet
 * across platforms (!link), slots and roulette bets refused beyond the balance, the viewer queue (!join, !position,
 * !queue, !leave) across platforms, and a ticket giveaway from entry to a claimed win and a cancelled one refunded.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AccessLevel } from '@greenroom/contracts/access';
import type { ChatMessage } from '@greenroom/contracts/api/events';
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import { channelProviders, channelUsers } from '../src/db/schema';
import { newId } from '../src/lib/ids';
import type { ChatStage, EffectHandler, PipelineEffect, StageMessage } from '../src/pipeline/stage';
import { createChatbot, type BotConnection, type Chatbot, type ChatbotPlatform, type PlatformOutcome } from '../src/modules/chatbot';
import { gamesBuiltins } from '../src/modules/games';
import { queueBuiltins } from '../src/modules/queues';
import { createTestApp, type TestApp, type TestUser } from './helper';

let t: TestApp;
let owner: TestUser;
let channelId: string;
let conns: BotConnection[];
const connOf = (p: ChannelProviderId) => conns.find((c) => c.provider === p)!;

class FakePlatform implements ChatbotPlatform {
  sent: { provider: ChannelProviderId; text: string }[] = [];
  async connections(): Promise<BotConnection[]> {
    return conns;
  }
  async send(id: string, input: { text: string; replyTo?: string }) {
    this.sent.push({ provider: conns.find((c) => c.id === id)!.provider, text: input.text });
  }
  async deleteMessage() {}
  async ban() {}
  async streamInfo() {
    return { title: 'Live', category: 'Celeste' };
  }
  async setTitle(): Promise<PlatformOutcome[]> {
    return [];
  }
  async setCategory(): Promise<PlatformOutcome[]> {
    return [];
  }
}

let platform: FakePlatform;
let bot: Chatbot;
let now = Date.UTC(2026, 0, 1, 12, 0, 0);
let seq = 0;
const roles = { broadcaster: false, moderator: false, vip: false, subscriber: false, member: false, verified: false };

function message(provider: ChannelProviderId, text: string, who: { id: string; name: string; mod?: boolean }): StageMessage {
  seq++;
  const m: ChatMessage = {
    id: `${provider}:m${seq}`,
    channel_id: channelId,
    channel_provider_id: connOf(provider).id,
    provider,
    provider_message_id: `m${seq}`,
    author: {
      provider_user_id: who.id,
      login: who.name.toLowerCase(),
      display_name: who.name,
      color: null,
      avatar_url: null,
      badges: [],
      roles: { ...roles, moderator: Boolean(who.mod) },
      is_self: false,
    },
    text,
    emotes: [],
    reply: null,
    mentions: [],
    highlight: null,
    sent_at: new Date(now).toISOString(),
    deleted: false,
    filtered: null,
  };
  return { message: m, audience: who.mod ? AccessLevel.MOD : AccessLevel.PUBLIC, isSelf: false, now };
}

/** Runs the command stages like the pipeline, then their effects; returns what the bot said. */
async function chat(provider: ChannelProviderId, text: string, who: { id: string; name: string; mod?: boolean }): Promise<string[]> {
  now += 60_000;
  const input = message(provider, text, who);
  const stages: ChatStage[] = [...bot.stages, ...t.s.giveaways.stages].filter((s) => s.phase === 'command');
  const handlers: EffectHandler[] = [...bot.effectHandlers, ...t.s.giveaways.effectHandlers];
  const effects: PipelineEffect[] = [];
  const out = { filter: () => {}, effect: (e: PipelineEffect) => effects.push(e) };
  for (const stage of stages) stage.onMessage(input, out);
  const before = platform.sent.length;
  for (const e of effects) await handlers.find((h) => h.kind === e.kind)!.run({ ...e, id: newId() });
  return platform.sent.slice(before).map((s) => `${s.provider}: ${s.text}`);
}

const ann = { id: 'ann-tw', name: 'Ann' };
const annYt = { id: 'ann-yt', name: 'AnnYT' };
const bob = { id: 'bob-kk', name: 'Bob' };
const mary = { id: 'mary-tw', name: 'Mary', mod: true };

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.createUser({ displayName: 'Owner' });
  const res = await t.inject(owner, { method: 'POST', url: '/api/2/channels', payload: { display_name: 'Loyalty' } });
  channelId = res.json().id;
  conns = (['twitch', 'youtube', 'kick'] as const).map((provider) => ({ id: newId(), provider, name: `${provider}chan`, isLive: true }));
  for (const c of conns) {
    await t.s.db
      .insert(channelProviders)
      .values({ id: c.id, channelId, provider: c.provider, providerChannelId: c.name, providerChannelName: c.name });
  }
  // Seen in chat (the earning stage makes a viewer's wallet on their first message).
  for (const [who, provider] of [
    [ann, 'twitch'],
    [annYt, 'youtube'],
    [bob, 'kick'],
  ] as const) {
    await t.s.points.service.walletOf(channelId, {
      provider,
      providerUserId: who.id,
      login: who.name.toLowerCase(),
      displayName: who.name,
    });
  }
});
afterAll(async () => {
  await bot?.stop();
  await t.close();
});
beforeEach(async () => {
  await bot?.stop();
  platform = new FakePlatform();
  bot = createChatbot({ db: t.s.db, platform, log: { info: () => {}, warn: () => {} }, clock: () => now, random: () => 0 });
  for (const b of [...t.s.points.builtins, ...gamesBuiltins(t.s.games), ...queueBuiltins(t.s.queues)]) bot.builtins.register(b);
  await bot.state.ensure(channelId);
});

const balanceOf = async (who: { id: string; name: string }, provider: ChannelProviderId = 'twitch') =>
  (
    await t.s.points.service.walletOf(channelId, {
      provider,
      providerUserId: who.id,
      login: who.name.toLowerCase(),
      displayName: who.name,
    })
  ).balance;

describe('loyalty commands', () => {
  it('!addpoints by a Mod, !points, !give across platforms, !removepoints, !top', async () => {
    const added = await chat('twitch', '!addpoints @Ann 1000', mary);
    expect(added.join('\n')).toMatch(/Ann/);
    expect(await balanceOf(ann)).toBe(1000);
    const own = await chat('twitch', '!points', ann);
    expect(own.join('\n')).toMatch(/1,000/);
    // Bob has never chatted on Twitch: a give finds him by login on any platform once he has a wallet.
    await chat('kick', '!points', bob);
    const gave = await chat('twitch', '!give @bob 300', ann);
    expect(gave[0]).toMatch(/^twitch: /);
    expect(await balanceOf(bob, 'kick')).toBe(300);
    expect(await balanceOf(ann)).toBe(700);
    const tooMuch = await chat('twitch', '!give @bob 5000', ann);
    expect(tooMuch.join('\n')).toMatch(/700/);
    expect(await balanceOf(ann)).toBe(700);
    // Viewers cannot use the Mods' commands.
    expect(await chat('kick', '!addpoints @Bob 100', bob)).toEqual([]);
    await chat('twitch', '!removepoints @Bob 100000', mary);
    expect(await balanceOf(bob, 'kick')).toBe(0);
    const top = await chat('youtube', '!top', annYt);
    expect(top[0]).toMatch(/^youtube: .*Ann/);
  });

  it('!link joins a YouTube account to the Twitch wallet, balances summed', async () => {
    await chat('youtube', '!addpoints @AnnYT 50', { ...mary, id: 'mary-yt' });
    expect(await balanceOf(annYt, 'youtube')).toBe(50);
    const asked = (await chat('twitch', '!link', ann)).join('\n');
    const code = /\b([A-Z0-9]{6})\b/.exec(asked)?.[1];
    expect(code, asked).toBeDefined();
    await chat('youtube', `!link ${code}`, annYt);
    await chat('twitch', '!link confirm', ann);
    expect(await balanceOf(ann)).toBe(750);
    expect(await balanceOf(annYt, 'youtube')).toBe(750);
  });

  it('refuses a bet above the balance and never goes negative', async () => {
    const refused = await chat('youtube', '!slots 5000', annYt);
    expect(refused.join('\n')).toMatch(/750/);
    expect(await balanceOf(ann)).toBe(750);
    await chat('twitch', '!roulette all', ann);
    expect(await balanceOf(ann)).toBeGreaterThanOrEqual(0);
    const odds = await chat('kick', '!odds', bob);
    expect(odds.join('\n')).toMatch(/%/);
  });

  it('!join, !position, !queue and !leave from three platforms', async () => {
    const created = await t.inject(owner, { method: 'POST', url: `/api/2/channels/${channelId}/queues`, payload: { name: 'Games' } });
    const queueId = created.json().id;
    expect(await chat('twitch', '!join', ann)).toEqual([expect.stringMatching(/^twitch: There is no queue open/)]);
    await t.inject(owner, { method: 'POST', url: `/api/2/channels/${channelId}/queues/${queueId}/status`, payload: { status: 'open' } });
    await chat('twitch', '!join', ann);
    await chat('kick', '!join', bob);
    expect((await chat('kick', '!position', bob)).join('\n')).toMatch(/2/);
    // Ann's linked YouTube account is the same viewer: already in the line.
    expect((await chat('youtube', '!join', annYt)).join('\n')).toMatch(/1/);
    const detail = await t.inject(owner, { method: 'GET', url: `/api/2/channels/${channelId}/queues/${queueId}` });
    expect(detail.json().entries.map((e: { display_name: string }) => e.display_name)).toEqual(['Ann', 'Bob']);
    const picked = await t.inject(owner, {
      method: 'POST',
      url: `/api/2/channels/${channelId}/queues/${queueId}/pick`,
      payload: { mode: 'next' },
    });
    expect(picked.json().picked.display_name).toBe('Ann');
    await chat('kick', '!leave', bob);
    const after = await t.inject(owner, { method: 'GET', url: `/api/2/channels/${channelId}/queues/${queueId}` });
    expect(after.json().size).toBe(0);
    expect((await chat('twitch', '!queue', ann)).length).toBe(1);
  });

  it('a ticket giveaway: entries pay, the draw, the winner claims in chat; a cancelled one refunds', async () => {
    const base = `/api/2/channels/${channelId}/giveaways`;
    const make = async (title: string) => {
      const res = await t.inject(owner, {
        method: 'POST',
        url: base,
        payload: { title, entry_mode: 'tickets', ticket_cost: 10, max_tickets: 5, winners: 1, claim_seconds: 120 },
      });
      expect(res.statusCode).toBe(200);
      return res.json().id as string;
    };
    await chat('twitch', '!addpoints @Bob 100', mary);
    const bobBefore = await balanceOf(bob, 'kick');
    const first = await make('Keyboard');
    expect((await t.inject(owner, { method: 'POST', url: `${base}/${first}/open` })).statusCode).toBe(200);
    await chat('kick', '!enter 3', bob);
    expect(await balanceOf(bob, 'kick')).toBe(bobBefore - 30);
    // Asking for more than allowed buys up to the maximum.
    await chat('kick', '!enter 9', bob);
    expect(await balanceOf(bob, 'kick')).toBe(bobBefore - 50);
    const entries = await t.inject(owner, { method: 'GET', url: `${base}/${first}/entries` });
    expect(entries.json().records).toMatchObject([{ display_name: 'Bob', tickets: 5 }]);
    const drawn = await t.inject(owner, { method: 'POST', url: `${base}/${first}/draw` });
    expect(drawn.statusCode).toBe(200);
    expect(drawn.json().winner_list).toMatchObject([{ display_name: 'Bob', status: 'pending' }]);
    await chat('kick', 'I am here!', bob);
    const claimed = await t.inject(owner, { method: 'GET', url: `${base}/${first}` });
    expect(claimed.json().winner_list).toMatchObject([{ status: 'claimed', messages: [{ provider: 'kick', text: 'I am here!' }] }]);

    const second = await make('Mouse');
    await t.inject(owner, { method: 'POST', url: `${base}/${second}/open` });
    const beforeEntry = await balanceOf(bob, 'kick');
    await chat('kick', '!enter 2', bob);
    expect(await balanceOf(bob, 'kick')).toBe(beforeEntry - 20);
    const cancelled = await t.inject(owner, { method: 'POST', url: `${base}/${second}/cancel` });
    expect(cancelled.json().status).toBe('cancelled');
    expect(await balanceOf(bob, 'kick')).toBe(beforeEntry);
  });
  it('the viewer card shows a viewer’s linked accounts to Mods; an Editor unlinks one (audited), a Mod cannot', async () => {
    const member = async (displayName: string, level: number) => {
      const user = await t.createUser({ displayName });
      await t.s.db.insert(channelUsers).values({ channelId, userId: user.id, level });
      return user;
    };
    const mod = await member('Card Mod', AccessLevel.MOD);
    const editor = await member('Card Editor', AccessLevel.EDITOR);
    const card = await t.inject(mod, { method: 'GET', url: `/api/2/channels/${channelId}/points/viewers/youtube/${annYt.id}` });
    expect(card.statusCode).toBe(200);
    const wallet = card.json<{ wallet_id: string; balance: number; identities: { provider: string; display_name: string }[] }>();
    expect(wallet.identities.map((i) => `${i.provider}:${i.display_name}`).sort()).toEqual(['twitch:Ann', 'youtube:AnnYT']);
    expect(wallet.balance).toBe(await balanceOf(ann));
    const unknown = await t.inject(mod, { method: 'GET', url: `/api/2/channels/${channelId}/points/viewers/kick/nobody` });
    expect(unknown.statusCode).toBe(404);

    const unlink = `/api/2/channels/${channelId}/points/wallets/${wallet.wallet_id}/identities/youtube/${annYt.id}`;
    expect((await t.inject(mod, { method: 'DELETE', url: unlink })).statusCode).toBe(403);
    const done = await t.inject(editor, { method: 'DELETE', url: unlink });
    expect(done.statusCode).toBe(200);
    expect(done.json<{ identities: { provider: string }[] }>().identities.map((i) => i.provider)).toEqual(['twitch']);
    const after = await t.inject(mod, { method: 'GET', url: `/api/2/channels/${channelId}/points/viewers/youtube/${annYt.id}` });
    expect(after.json()).toMatchObject({ balance: 0, identities: [{ provider: 'youtube' }] });
    const log = await t.inject(owner, { method: 'GET', url: `/api/2/channels/${channelId}/audit-log` });
    expect(
      log.json<{ records: { action: string; actor: { display_name: string } | null; data: Record<string, unknown> }[] }>().records,
    ).toContainEqual(
      expect.objectContaining({ action: 'points.unlinked', data: expect.objectContaining({ provider: 'youtube', viewer: 'AnnYT' }) }),
    );
  });
});
