/**
 * Every loyalty chat command on the emulator's Twitch, YouTube and Kick chats, through the real connections, the chat
 * pipeline and the chatbot's stages, answered on the platform where it was typed: `!points`, `!points @user`, `!give`,
 * `!top`, `!addpoints`, `!removepoints` (Mods), `!slots`, `!roulette`, `!odds`, a ticket giveaway's `!enter N` to a
 * claimed win, a keyword giveaway's `!enter`, and the queue's `!join`, `!position`, `!queue`, `!leave`. Then `!link`
 * across two platforms: a code on Twitch, `!link CODE` on Kick, `!link confirm` on Twitch: one wallet, the balances
 * summed through the ledger.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { ChatMessage } from '@greenroom/platform-emulator';
import { pointLedger } from '../src/db/schema';
import { chatPlatforms, connectSystemBots, startChatWorld, type ChatPlatform, type ChatWorld } from './chat-world';
import { control, until } from './platform-fixtures';

/**
 * Kick and YouTube let one sender say 20 messages per 30 s, and Greenroom's send queue keeps to that: a block asks
 * more than 20 commands within that time on one bot account, so later answers wait for the window, as they would live.
 */
const ANSWER_WAIT_MS = 45_000;
vi.setConfig({ testTimeout: 180_000 });

let world: ChatWorld;
let queueId: string;
const platformName: Record<ChatPlatform, string> = { twitch: 'Twitch', youtube: 'YouTube', kick: 'Kick' };

beforeAll(async () => {
  world = await startChatWorld('Loyalty live');
  await connectSystemBots(world);
  await world.t.s.chatbot.start();
  const api = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: unknown) =>
    world.t.inject(world.owner, { method, url: `/api/2/channels/${world.channelId}${url}`, ...(payload ? { payload } : {}) });
  // Balances move only by the commands under test: no points per message.
  expect((await api('PUT', '/points/settings', { message_points: 0 })).statusCode).toBe(200);
  // The games' and commands' cooldowns would hold the same command back on the next platform.
  for (const game of ['slots', 'roulette']) {
    const current = (await api('GET', `/games/${game}`)).json<Record<string, unknown>>();
    expect((await api('PUT', `/games/${game}`, { ...current, user_cooldown_seconds: 0, global_cooldown_seconds: 0 })).statusCode).toBe(200);
  }
  const commands = (await api('GET', '/chat-commands')).json<Record<string, unknown>[]>();
  for (const c of commands.filter((row) => row.builtin)) {
    const res = await api('PUT', `/chat-commands/${String(c.id)}`, { ...c, user_cooldown_seconds: 0, global_cooldown_seconds: 0 });
    expect(res.statusCode).toBe(200);
  }
  const queue = await api('POST', '/queues', { name: 'Viewer games' });
  queueId = queue.json<{ id: string }>().id;
  expect((await api('POST', `/queues/${queueId}/status`, { status: 'open' })).statusCode).toBe(200);
}, 180_000);

afterAll(async () => {
  await world?.close();
});

/** What Greenroom said in the channel's chat on `p` (the emulator's record of messages sent through its API). */
async function said(p: ChatPlatform): Promise<string[]> {
  const body = await control<{ data: ChatMessage[] }>(
    world.emulator,
    'GET',
    `/messages?platform=${p}&channel=${world.streamer[p].id}&origin=product`,
  );
  return body.data.map((m) => m.text);
}

/**
 * Types `text` as `who` on `p` and waits for the bot's answer there (the first new line matching `answer`); the
 * answer is said on `p` only.
 */
async function ask(p: ChatPlatform, who: { id: string }, text: string, answer: RegExp): Promise<string> {
  const before = await said(p);
  const others = chatPlatforms.filter((o) => o !== p);
  const elsewhere = await Promise.all(others.map(async (o) => (await said(o)).length));
  await world.chat(p, text, who.id);
  const line = await until(async () => (await said(p)).slice(before.length).find((l) => answer.test(l)), ANSWER_WAIT_MS).catch(async () => {
    throw new Error(
      `no answer to ${text} matching ${String(answer)} on ${p}; said: ${JSON.stringify((await said(p)).slice(before.length))}`,
    );
  });
  for (const [i, o] of others.entries()) expect((await said(o)).slice(elsewhere[i])).not.toContain(line);
  return line;
}

/** Waits until Greenroom said `line` on `p`. */
async function saidOn(p: ChatPlatform, line: string): Promise<void> {
  await until(async () => (await said(p)).includes(line), ANSWER_WAIT_MS).catch(async () => {
    throw new Error(`not said on ${p}: ${line}; said: ${JSON.stringify((await said(p)).slice(-5))}`);
  });
}

async function viewer(p: ChatPlatform, name: string, mod = false) {
  const v = await world.newViewer(p, name);
  if (mod) world.emulator.world.channel(p, world.streamer[p].id)!.moderators.add(v.id);
  return v;
}

const identity = (p: ChatPlatform, v: { id: string; displayName: string }) => ({
  provider: p,
  providerUserId: v.id,
  login: world.emulator.world.account(p, v.id)!.login,
  displayName: v.displayName,
});

async function balanceOf(p: ChatPlatform, v: { id: string; displayName: string }): Promise<number> {
  return (await world.t.s.points.service.walletOf(world.channelId, identity(p, v))).balance;
}

/** The wallet's ledger rows sum exactly to its balance. */
async function consistent(p: ChatPlatform, v: { id: string; displayName: string }) {
  const w = await world.t.s.points.service.walletOf(world.channelId, identity(p, v));
  expect(await world.t.s.points.repo.ledgerSum(w.id)).toBe(w.balance);
}

const n = (v: number) => v.toLocaleString('en-US');
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');

describe.each(chatPlatforms)('loyalty commands on %s', (p) => {
  it('points: !points, !addpoints and !removepoints by a Mod, !give, !points @user, !top', async () => {
    const mod = await viewer(p, 'Mod', true);
    const ann = await viewer(p, 'Saver');
    const bob = await viewer(p, 'Friend');
    const A = esc(ann.displayName);
    const B = esc(bob.displayName);
    await ask(p, ann, '!points', new RegExp(`^${A} has 0 points \\(rank #\\d+\\)\\.$`));
    await ask(p, bob, '!points', new RegExp(`^${B} has 0 points \\(rank #\\d+\\)\\.$`));

    // Viewers cannot use the Mods' commands; a Mod can.
    const before = (await said(p)).length;
    await world.chat(p, `!addpoints @${ann.displayName} 500`, bob.id);
    await ask(p, mod, `!addpoints @${ann.displayName} 1000`, new RegExp(`^Added 1,000 points to ${A} \\(now 1,000\\)\\.$`));
    expect((await said(p)).slice(before).some((l) => l.includes('500'))).toBe(false);
    expect(await balanceOf(p, ann)).toBe(1000);

    await ask(p, ann, `!give @${bob.displayName} 300`, new RegExp(`^${A} gave 300 points to ${B}\\. ${A} now has 700\\.$`));
    await ask(p, ann, `!give @${bob.displayName} 5k`, new RegExp(`^${A}, you have only 700 points; you cannot give 5,000\\.$`));
    await ask(p, bob, `!points @${ann.displayName}`, new RegExp(`^${A} has 700 points \\(rank #\\d+\\)\\.$`));
    await ask(p, mod, `!removepoints @${bob.displayName} 100`, new RegExp(`^Removed 100 points from ${B} \\(now 200\\)\\.$`));
    // Removing more than the balance takes what there is, never below zero.
    await ask(p, mod, `!removepoints @${bob.displayName} 100000`, new RegExp(`^Removed 200 points from ${B} \\(now 0\\)\\.$`));
    await ask(p, mod, `!addpoints @${bob.displayName} 200`, new RegExp(`^Added 200 points to ${B} \\(now 200\\)\\.$`));
    const top = await ask(p, bob, '!top', /^Top \d: 1\. /u);
    expect(top).toMatch(new RegExp(`${A} \\(700\\)`));
    expect([await balanceOf(p, ann), await balanceOf(p, bob)]).toEqual([700, 200]);
    await consistent(p, ann);
    await consistent(p, bob);
  });

  it('games: !slots, !roulette, a bet above the balance refused, !odds', async () => {
    const mod = await viewer(p, 'GameMod', true);
    const ann = await viewer(p, 'Gambler');
    const A = esc(ann.displayName);
    await ask(p, ann, '!points', /has 0 points/u);
    await ask(p, mod, `!addpoints @${ann.displayName} 500`, /^Added 500 points/u);

    await ask(p, ann, '!slots 100', new RegExp(A));
    const afterSlots = await balanceOf(p, ann);
    expect(afterSlots).toBeGreaterThanOrEqual(400);
    await ask(p, ann, '!roulette 50k', new RegExp(`^${A}, you have only ${n(afterSlots)} points; you cannot bet 50,000\\.$`));
    expect(await balanceOf(p, ann)).toBe(afterSlots);
    await ask(p, ann, '!roulette all', new RegExp(A));
    const afterRoulette = await balanceOf(p, ann);
    expect([0, afterSlots * 2]).toContain(afterRoulette);
    await consistent(p, ann);

    const odds = await ask(p, ann, '!odds', /^Slots: /u);
    expect(odds).toMatch(/Roulette: [\d.]+% to win 2× the bet/u);
  });

  it('a ticket giveaway: !enter 2 pays for two tickets, the draw, the winner claims by writing in chat', async () => {
    const mod = await viewer(p, 'GiveMod', true);
    const ann = await viewer(p, 'Entrant');
    const A = esc(ann.displayName);
    await ask(p, ann, '!points', /has 0 points/u);
    await ask(p, mod, `!addpoints @${ann.displayName} 100`, /^Added 100 points/u);
    const base = `/api/2/channels/${world.channelId}/giveaways`;
    const created = await world.t.inject(world.owner, {
      method: 'POST',
      url: base,
      payload: { title: `Headset ${p}`, entry_mode: 'tickets', ticket_cost: 10, max_tickets: 5, winners: 1, claim_seconds: 120 },
    });
    expect(created.statusCode).toBe(200);
    const id = created.json<{ id: string }>().id;
    expect((await world.t.inject(world.owner, { method: 'POST', url: `${base}/${id}/open` })).statusCode).toBe(200);
    // Announced on every platform.
    for (const q of chatPlatforms) await until(async () => (await said(q)).some((l) => l.startsWith(`Giveaway “Headset ${p}” is open!`)));

    await ask(p, ann, '!enter 2', new RegExp(`^${A} bought 2 tickets for “Headset ${p}” \\(2 in total\\)\\.$`));
    expect(await balanceOf(p, ann)).toBe(80);
    await ask(p, ann, '!enter 9', new RegExp(`^${A} bought 3 tickets for “Headset ${p}” \\(5 in total\\)\\.$`));
    expect(await balanceOf(p, ann)).toBe(50);
    await consistent(p, ann);

    const drawn = await world.t.inject(world.owner, { method: 'POST', url: `${base}/${id}/draw` });
    expect(drawn.statusCode).toBe(200);
    expect(drawn.json()).toMatchObject({ winner_list: [{ display_name: ann.displayName, status: 'pending' }] });
    await saidOn(p, `Winner of “Headset ${p}”: ${ann.displayName} (${platformName[p]})! Write in chat within 2 minutes to claim.`);
    await world.chat(p, 'it is me, I am here', ann.id);
    await saidOn(p, `${ann.displayName} claimed their win in “Headset ${p}”! Congratulations!`);
    const after = await world.t.inject(world.owner, { method: 'GET', url: `${base}/${id}` });
    expect(after.json()).toMatchObject({ winner_list: [{ status: 'claimed', messages: [{ provider: p, text: 'it is me, I am here' }] }] });
  });

  it('a keyword giveaway: !enter enters once', async () => {
    const ann = await viewer(p, 'Keyword');
    const base = `/api/2/channels/${world.channelId}/giveaways`;
    const created = await world.t.inject(world.owner, {
      method: 'POST',
      url: base,
      payload: { title: `Sticker ${p}`, entry_mode: 'keyword', winners: 1 },
    });
    const id = created.json<{ id: string }>().id;
    expect((await world.t.inject(world.owner, { method: 'POST', url: `${base}/${id}/open` })).statusCode).toBe(200);
    await world.chat(p, '!enter', ann.id);
    await world.chat(p, '!enter', ann.id);
    const entries = async () =>
      (await world.t.inject(world.owner, { method: 'GET', url: `${base}/${id}/entries` })).json<{ records: { display_name: string }[] }>()
        .records;
    await until(async () => (await entries()).length === 1);
    await new Promise((r) => setTimeout(r, 1000));
    await world.t.s.ingest.flush();
    expect((await entries()).map((e) => e.display_name)).toEqual([ann.displayName]);
    expect((await world.t.inject(world.owner, { method: 'POST', url: `${base}/${id}/cancel` })).statusCode).toBe(200);
  });

  it('the queue: !join, !position, !queue, !leave', async () => {
    const ann = await viewer(p, 'Player');
    const bob = await viewer(p, 'Second');
    const [A, B] = [esc(ann.displayName), esc(bob.displayName)];
    await ask(p, ann, '!join', new RegExp(`^${A} joined “Viewer games” at position 1\\.$`));
    await ask(p, bob, '!join', new RegExp(`^${B} joined “Viewer games” at position 2\\.$`));
    await ask(p, ann, '!join', new RegExp(`^${A}, you are already in the queue at position 1 of 2\\.$`));
    await ask(p, bob, '!position', new RegExp(`^${B}, you are #2 of 2 in “Viewer games”\\.$`));
    const listed = await ask(p, bob, '!queue', /^“Viewer games” is open: 2 waiting\./u);
    expect(listed).toContain(ann.displayName);
    await ask(p, ann, '!leave', new RegExp(`^${A} left the queue\\.$`));
    await ask(p, bob, '!position', new RegExp(`^${B}, you are #1 of 1 in “Viewer games”\\.$`));
    await ask(p, bob, '!leave', new RegExp(`^${B} left the queue\\.$`));
    await ask(p, bob, '!position', new RegExp(`^${B}, you are not in the queue\\. Type !join to get in line\\.$`));
  });
});

describe('one wallet across platforms', () => {
  it('!link on Twitch, !link CODE on Kick, !link confirm on Twitch: one wallet, balances summed in the ledger', async () => {
    const mod = await viewer('twitch', 'LinkMod', true);
    const kickMod = await viewer('kick', 'LinkModK', true);
    const tw = await viewer('twitch', 'Linker');
    const kk = await viewer('kick', 'LinkerK');
    await ask('twitch', tw, '!points', /has 0 points/u);
    await ask('kick', kk, '!points', /has 0 points/u);
    await ask('twitch', mod, '!points', /has 0 points/u);
    await ask('twitch', mod, `!addpoints @${tw.displayName} 400`, /^Added 400 points/u);
    await ask('kick', kickMod, `!addpoints @${kk.displayName} 150`, /^Added 150 points/u);

    const asked = await ask('twitch', tw, '!link', new RegExp(`^${esc(tw.displayName)}, your link code is [A-Z0-9]{6}\\.`));
    const code = /link code is ([A-Z0-9]{6})/u.exec(asked)![1]!;
    await ask(
      'kick',
      kk,
      `!link ${code}`,
      new RegExp(`^${esc(kk.displayName)}, almost done: ${esc(tw.displayName)} now types !link confirm on Twitch\\.$`),
    );
    await until(async () =>
      (await said('twitch')).some((l) => l.startsWith(`@${tw.displayName}: ${kk.displayName} on Kick typed your link code.`)),
    );
    await ask('twitch', tw, '!link confirm', new RegExp(`now share one wallet: 550 points\\.$`));

    const a = await world.t.s.points.service.walletOf(world.channelId, identity('twitch', tw));
    const b = await world.t.s.points.service.walletOf(world.channelId, identity('kick', kk));
    expect(b.id).toBe(a.id);
    expect(a.balance).toBe(550);
    await consistent('twitch', tw);
    // The Kick wallet's points moved over as two ledger rows.
    const links = await world.t.s.db
      .select({ delta: pointLedger.delta, walletId: pointLedger.walletId })
      .from(pointLedger)
      .where(and(eq(pointLedger.channelId, world.channelId), eq(pointLedger.kind, 'link')));
    expect(links.map((l) => l.delta).sort((x, y) => x - y)).toEqual([-150, 150]);
    expect(links.find((l) => l.delta === 150)!.walletId).toBe(a.id);

    // Either platform now spends from the one wallet.
    await ask('kick', kk, '!points', new RegExp(`^${esc(kk.displayName)} has 550 points`));
    await ask('kick', kk, `!give @${mod.displayName} 50`, /now has 500\.$/u);
    await ask('twitch', tw, '!points', new RegExp(`^${esc(tw.displayName)} has 500 points`));
  });
});
