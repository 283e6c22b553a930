/**
 * Giveaways: staff create, open, close, draw, re-roll and cancel; viewers enter from chat on every
 * platform (the stage); the timer and claim deadlines run in a job. Every change is published on
 * the bus as `giveaway.updated` with the whole giveaway (the pages, the popout and widgets follow
 * it) and the big moments are said in chat on every platform.
 */
import {
  giveawayBodySchema,
  type Giveaway,
  type GiveawayBody,
  type GiveawayEntries,
  type GiveawayList,
  type GiveawayWinner,
} from '@greenroom/contracts/api/giveaways';
import { providers, type ChannelProviderId } from '@greenroom/contracts/providers';
import { badRequest, conflict, notFound } from '../../lib/errors';
import { decodeKeysetCursor, encodeKeysetCursor, INVALID_CURSOR, pageOf } from '../../lib/pagination';
import type { RandomSource } from '../../lib/random';
import type { AuditRecorder } from '../audit';
import { formatPoints, type BotChat, type IdentityInput } from '../points';
import { drawWinners, entryWeight10 } from './domain/draw';
import type { EntryRow, GiveawayRepository, GiveawayRow, NewWinner, WinnerRow } from './giveaway-repository';
import { WINNER_WATCH_MS, type GiveawayState } from './giveaway-state';
import type { EnterPayload, WinnerChatPayload } from './stages';

export interface GiveawayPoints {
  walletOf(channelId: string, identity: IdentityInput): Promise<{ id: string }>;
  /** The platform identities of wallets (a winner claims from any of them). */
  identitiesOf(walletIds: string[]): Promise<Map<string, { provider: ChannelProviderId; providerUserId: string }[]>>;
  pointsName(channelId: string): string;
}

export interface GiveawayServiceDeps {
  repo: GiveawayRepository;
  state: GiveawayState;
  points: GiveawayPoints;
  chat: BotChat;
  audit: AuditRecorder;
  publish(channelId: string, event: { type: 'giveaway.updated'; data: Giveaway }): void;
  random: RandomSource;
  clock?: () => number;
  log: { warn(obj: object, msg?: string): void };
}

/** An entries cursor: the last row's tickets, entry time (to the microsecond) and wallet; 400 when malformed. */
function entryCursor(cursor: string | undefined): { tickets: number; enteredAt: string; walletId: string } | null {
  const parts = decodeKeysetCursor(cursor, 3);
  if (!parts) return null;
  const tickets = Number(parts[0]);
  if (!Number.isSafeInteger(tickets) || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/u.test(parts[1]!)) throw badRequest(INVALID_CURSOR);
  return { tickets, enteredAt: parts[1]!, walletId: parts[2]! };
}

const platformName = (p: string) => providers[p as ChannelProviderId]?.name ?? p;

export class GiveawayService {
  private readonly clock: () => number;
  /** Giveaways with entry-count changes not yet published (published at most once a second each). */
  private readonly dirty = new Map<string, string>();
  private flushTimer: NodeJS.Timeout | null = null;

  constructor(private readonly deps: GiveawayServiceDeps) {
    this.clock = deps.clock ?? Date.now;
  }

  // Reading ----------------------------------------------------------------------------------

  async list(channelId: string, q: { per_page: number; cursor?: string | undefined }): Promise<GiveawayList> {
    const rows = await this.deps.repo.list(channelId, { ...(q.cursor ? { before: q.cursor } : {}), limit: q.per_page + 1 });
    const page = rows.slice(0, q.per_page);
    const winners = await this.deps.repo.winners(page.map((g) => g.id));
    return {
      records: page.map((g) =>
        toDto(
          g,
          winners.filter((w) => w.giveawayId === g.id),
        ),
      ),
      cursor: rows.length > q.per_page ? page.at(-1)!.id : null,
    };
  }

  async get(channelId: string, id: string): Promise<Giveaway> {
    const g = await this.deps.repo.get(channelId, id);
    if (!g) throw notFound('Giveaway not found');
    return toDto(g, await this.deps.repo.winners([id]));
  }

  /** A page of entries; the first page also sums every entry's weight (the chances' denominator). */
  async entries(channelId: string, id: string, q: { per_page: number; cursor?: string | undefined }): Promise<GiveawayEntries> {
    const g = await this.deps.repo.get(channelId, id);
    if (!g) throw notFound('Giveaway not found');
    const after = entryCursor(q.cursor);
    const fetched = await this.deps.repo.entries(id, { ...(after ? { after } : {}), limit: q.per_page + 1 });
    const { rows, cursor } = pageOf(fetched, q.per_page, (last) =>
      encodeKeysetCursor([String(last.tickets), last.enteredAtKey, last.walletId]),
    );
    const totalWeight10 = q.cursor
      ? null
      : cursor === null
        ? rows.reduce((sum, e) => sum + entryWeight10(e, g.subLuck), 0)
        : await this.deps.repo.totalWeight10(id, Math.round(g.subLuck * 10));
    return {
      records: rows.map((e) => ({
        wallet_id: e.walletId,
        provider: e.provider as ChannelProviderId,
        provider_user_id: e.providerUserId,
        display_name: e.displayName,
        tickets: e.tickets,
        subscriber: e.subscriber,
        weight: entryWeight10(e, g.subLuck) / 10,
        entered_at: e.enteredAt.toISOString(),
      })),
      cursor,
      total: g.entryCount,
      ...(totalWeight10 === null ? {} : { total_weight: totalWeight10 / 10 }),
    };
  }

  // Staff ------------------------------------------------------------------------------------

  async create(channelId: string, body: GiveawayBody, actorUserId: string): Promise<Giveaway> {
    const s = giveawayBodySchema.parse(body);
    const g = await this.deps.repo.create(channelId, s, actorUserId);
    await this.deps.audit.record({ channelId, actorUserId, action: 'giveaway.created', data: { giveaway_id: g.id, title: g.title } });
    return this.publish(g);
  }

  async update(channelId: string, id: string, body: GiveawayBody): Promise<Giveaway> {
    const s = giveawayBodySchema.parse(body);
    const g = await this.deps.repo.update(channelId, id, s);
    if (!g) {
      if (!(await this.deps.repo.get(channelId, id))) throw notFound('Giveaway not found');
      throw conflict('Only a giveaway that has not opened yet can be changed.');
    }
    return this.publish(g);
  }

  async delete(channelId: string, id: string, actorUserId: string): Promise<void> {
    const g = await this.deps.repo.get(channelId, id);
    if (!g) throw notFound('Giveaway not found');
    if (!(await this.deps.repo.delete(channelId, id)))
      throw conflict('Cancel the giveaway first (its tickets are refunded), then delete it.');
    await this.deps.audit.record({ channelId, actorUserId, action: 'giveaway.deleted', data: { giveaway_id: id, title: g.title } });
  }

  async open(channelId: string, id: string, actorUserId: string): Promise<Giveaway> {
    const g0 = await this.mustGet(channelId, id);
    if (g0.status !== 'draft') throw conflict('This giveaway has been opened already.');
    const now = new Date(this.clock());
    const closesAt = g0.durationSeconds > 0 ? new Date(now.getTime() + g0.durationSeconds * 1000) : null;
    let g: GiveawayRow | null;
    try {
      g = await this.deps.repo.open(channelId, id, now, closesAt);
    } catch (error) {
      const other = await this.deps.repo.openOne(channelId);
      if (other) throw conflict(`“${other.title}” is open. Close it before opening another giveaway.`);
      throw error;
    }
    if (!g) throw conflict('This giveaway has been opened already.');
    this.setOpen(g);
    await this.deps.audit.record({ channelId, actorUserId, action: 'giveaway.opened', data: { giveaway_id: id, title: g.title } });
    const timer = g.durationSeconds > 0 ? ` Entries close in ${durationWords(g.durationSeconds)}.` : '';
    const how =
      g.entryMode === 'keyword'
        ? `Type ${g.keyword} to join.`
        : `Buy tickets with ${g.keyword} 1 (${formatPoints(Number(g.ticketCost))} ${this.deps.points.pointsName(channelId)} each, up to ${g.maxTickets}).`;
    await this.say(channelId, `Giveaway “${g.title}” is open! ${how}${timer}`);
    return this.publish(g);
  }

  async close(channelId: string, id: string, actorUserId: string | null): Promise<Giveaway> {
    await this.mustGet(channelId, id);
    const g = await this.deps.repo.close(channelId, id, new Date(this.clock()));
    if (!g) throw conflict('This giveaway is not open.');
    await this.closed(g, actorUserId);
    return this.publish(g);
  }

  private async closed(g: GiveawayRow, actorUserId: string | null): Promise<void> {
    const c = this.deps.state.get(g.channelId);
    if (c?.open?.id === g.id) c.open = null;
    if (actorUserId)
      await this.deps.audit.record({
        channelId: g.channelId,
        actorUserId,
        action: 'giveaway.closed',
        data: { giveaway_id: g.id, title: g.title },
      });
    await this.say(
      g.channelId,
      `Entries for “${g.title}” are closed: ${g.entryCount} ${g.entryCount === 1 ? 'viewer' : 'viewers'} entered.`,
    );
  }

  /** Draws the giveaway's winners (closing it first if it is open), weighted by tickets and subscriber luck. */
  async draw(channelId: string, id: string, actorUserId: string): Promise<Giveaway> {
    const g0 = await this.mustGet(channelId, id);
    if (g0.status !== 'open' && g0.status !== 'closed')
      throw conflict(g0.status === 'drawn' ? 'The winners are drawn; re-roll a winner instead.' : 'Open the giveaway first.');
    const entries = await this.deps.repo.allEntries(id);
    if (entries.length === 0) throw conflict('Nobody entered yet; there is no one to draw.');
    const picked = drawWinners(entries, g0.winners, g0.subLuck, this.deps.random);
    const now = new Date(this.clock());
    const winners: NewWinner[] = picked.map((e, i) => newWinner(e, i + 1));
    const g = await this.deps.repo.drawn(channelId, id, now, winners, g0.claimSeconds);
    if (!g) throw conflict('The winners were drawn already.');
    const c = this.deps.state.get(channelId);
    if (c?.open?.id === id) c.open = null;
    const rows = await this.deps.repo.winners([id]);
    await this.watchWinners(g, rows);
    await this.deps.audit.record({
      channelId,
      actorUserId,
      action: 'giveaway.drawn',
      data: { giveaway_id: id, title: g.title, winners: rows.map((w) => w.displayName) },
    });
    const names = rows.map((w) => `${w.displayName} (${platformName(w.provider)})`).join(', ');
    const claim = g.claimSeconds > 0 ? ` Write in chat within ${durationWords(g.claimSeconds)} to claim.` : '';
    await this.say(channelId, `${rows.length === 1 ? 'Winner' : 'Winners'} of “${g.title}”: ${names}!${claim}`);
    return this.publish(g);
  }

  /** Replaces a winner by a new draw among the entries not drawn yet, in the same place. */
  async reroll(channelId: string, id: string, winnerId: string, actorUserId: string): Promise<Giveaway> {
    const g = await this.mustGet(channelId, id);
    if (g.status !== 'drawn') throw conflict('Draw the winners first.');
    const winners = await this.deps.repo.winners([id]);
    const old = winners.find((w) => w.id === winnerId);
    if (!old) throw notFound('Winner not found');
    if (old.status === 'rerolled') throw conflict('This winner was re-rolled already.');
    const drawn = new Set(winners.map((w) => w.walletId));
    const [next] = drawWinners(await this.deps.repo.allEntries(id), 1, g.subLuck, this.deps.random, drawn);
    if (!next) throw conflict('Everyone who entered has been drawn already.');
    const now = new Date(this.clock());
    const replaced = await this.deps.repo.reroll(id, winnerId, newWinner(next, old.place), now, g.claimSeconds);
    if (!replaced) throw conflict('This winner was re-rolled already.');
    this.deps.state.get(channelId)?.unwatch(winnerId);
    const fresh = (await this.deps.repo.winners([id])).filter((w) => w.status !== 'rerolled' && w.place === old.place);
    await this.watchWinners(g, fresh);
    await this.deps.audit.record({
      channelId,
      actorUserId,
      action: 'giveaway.rerolled',
      data: { giveaway_id: id, title: g.title, from: old.displayName, to: next.displayName },
    });
    const claim = g.claimSeconds > 0 ? ` Write in chat within ${durationWords(g.claimSeconds)} to claim.` : '';
    await this.say(channelId, `Re-rolled “${g.title}”: the new winner is ${next.displayName} (${platformName(next.provider)})!${claim}`);
    return this.publish((await this.deps.repo.get(channelId, id))!);
  }

  /** Cancels a giveaway that is not drawn; every ticket is refunded in the same transaction. */
  async cancel(channelId: string, id: string, actorUserId: string): Promise<Giveaway> {
    await this.mustGet(channelId, id);
    const result = await this.deps.repo.cancel(channelId, id, new Date(this.clock()));
    if (!result) throw conflict('A drawn or cancelled giveaway cannot be cancelled.');
    const g = result.giveaway;
    const c = this.deps.state.get(channelId);
    if (c?.open?.id === id) c.open = null;
    await this.deps.audit.record({
      channelId,
      actorUserId,
      action: 'giveaway.cancelled',
      data: { giveaway_id: id, title: g.title, refunds: result.refunded },
    });
    if (g.openedAt)
      await this.say(channelId, `Giveaway “${g.title}” was cancelled.${result.refunded > 0 ? ' Every ticket was refunded.' : ''}`);
    return this.publish(g);
  }

  // Chat -------------------------------------------------------------------------------------

  /** An entry typed in chat (the stage's effect); ticket giveaways answer the buyer where they typed. */
  async enterFromChat(channelId: string, p: EnterPayload, key: string): Promise<void> {
    const identity = { provider: p.provider, providerUserId: p.provider_user_id, login: p.login, displayName: p.display_name };
    const wallet = await this.deps.points.walletOf(channelId, identity);
    const result = await this.deps.repo.enter({
      giveawayId: p.giveawayId,
      walletId: wallet.id,
      provider: p.provider,
      providerUserId: p.provider_user_id,
      displayName: p.display_name,
      subscriber: p.subscriber,
      tickets: p.tickets,
      key,
      now: new Date(this.clock()),
    });
    if (result.status === 'entered' && result.bought > 0) this.markDirty(channelId, p.giveawayId);
    const g = await this.deps.repo.giveawayOf(p.giveawayId);
    if (!g || g.entryMode !== 'tickets') return;
    const name = this.deps.points.pointsName(channelId);
    const who = p.display_name;
    let text: string | null = null;
    if (result.status === 'entered' && result.bought > 0)
      text = `${who} bought ${result.bought} ticket${result.bought === 1 ? '' : 's'} for “${g.title}” (${result.tickets} in total).`;
    else if (result.status === 'at_max') text = `${who}, you have the most tickets allowed (${g.maxTickets}).`;
    else if (result.status === 'insufficient')
      text = `${who}, that costs ${formatPoints(result.cost)} ${name}; you have ${formatPoints(result.balance)}.`;
    if (text) await this.deps.chat.say(channelId, text, p.provider);
  }

  /** A drawn winner wrote in chat: the line is kept, and it claims the win before the deadline. */
  async winnerChat(channelId: string, p: WinnerChatPayload): Promise<void> {
    const result = await this.deps.repo.winnerChat(p.winnerId, { provider: p.provider, text: p.text, at: p.at });
    if (!result) return;
    const g = await this.deps.repo.giveawayOf(p.giveawayId);
    if (!g) return;
    if (result.claimed) await this.say(channelId, `${result.winner.displayName} claimed their win in “${g.title}”! Congratulations!`);
    await this.publish(g);
  }

  // Timers -----------------------------------------------------------------------------------

  /** Closes giveaways whose timer ran out and expires unclaimed wins (every second or so). */
  async tick(): Promise<void> {
    const now = new Date(this.clock());
    for (const g of await this.deps.repo.closeDue(now)) {
      await this.closed(g, null);
      await this.publish(g);
    }
    const expired = await this.deps.repo.expireDue(now);
    const byGiveaway = new Map<string, WinnerRow[]>();
    for (const w of expired) byGiveaway.set(w.giveawayId, [...(byGiveaway.get(w.giveawayId) ?? []), w]);
    for (const [giveawayId, list] of byGiveaway) {
      const g = await this.deps.repo.giveawayOf(giveawayId);
      if (!g) continue;
      const names = list.map((w) => w.displayName).join(', ');
      await this.say(g.channelId, `${names} did not claim in time in “${g.title}”.`);
      await this.publish(g);
    }
  }

  /** Rebuilds the in-memory state at start: open giveaways and winners still being watched. */
  async load(): Promise<void> {
    const active = await this.deps.repo.active();
    for (const g of active) if (g.status === 'open') this.setOpen(g);
    const drawn = active.filter((g) => g.status === 'drawn' && g.drawnAt && g.drawnAt.getTime() + WINNER_WATCH_MS > this.clock());
    const winners = await this.deps.repo.winners(drawn.map((g) => g.id));
    for (const g of drawn)
      await this.watchWinners(
        g,
        winners.filter((w) => w.giveawayId === g.id && w.status !== 'rerolled'),
      );
  }

  // Helpers ----------------------------------------------------------------------------------

  private async mustGet(channelId: string, id: string): Promise<GiveawayRow> {
    const g = await this.deps.repo.get(channelId, id);
    if (!g) throw notFound('Giveaway not found');
    return g;
  }

  private setOpen(g: GiveawayRow): void {
    this.deps.state.of(g.channelId).open = {
      id: g.id,
      keyword: g.keyword,
      entryMode: g.entryMode,
      maxTickets: g.maxTickets,
      minLevel: g.minLevel,
      platforms: g.platforms as ChannelProviderId[],
      closesAt: g.closesAt?.getTime() ?? null,
    };
  }

  private async watchWinners(g: GiveawayRow, rows: WinnerRow[]): Promise<void> {
    const ids = await this.deps.points.identitiesOf(rows.map((w) => w.walletId));
    const c = this.deps.state.of(g.channelId);
    for (const w of rows) {
      const keys = (ids.get(w.walletId) ?? [{ provider: w.provider as ChannelProviderId, providerUserId: w.providerUserId }]).map(
        (i) => `${i.provider}:${i.providerUserId}`,
      );
      const until = Math.max(w.claimDeadline?.getTime() ?? 0, w.drawnAt.getTime() + WINNER_WATCH_MS);
      c.watch(keys, { giveawayId: g.id, winnerId: w.id, until });
    }
  }

  private async say(channelId: string, text: string): Promise<void> {
    await this.deps.chat
      .say(channelId, text)
      .catch((error: unknown) => this.deps.log.warn({ err: error }, 'a giveaway announcement failed'));
  }

  /** Publishes the giveaway as it now is (with its winners) and answers it. */
  private async publish(g: GiveawayRow): Promise<Giveaway> {
    const dto = toDto(g, await this.deps.repo.winners([g.id]));
    this.deps.publish(g.channelId, { type: 'giveaway.updated', data: dto });
    return dto;
  }

  private markDirty(channelId: string, giveawayId: string): void {
    this.dirty.set(giveawayId, channelId);
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = null;
      const due = [...this.dirty.entries()];
      this.dirty.clear();
      for (const [id, ch] of due) {
        void this.deps.repo
          .get(ch, id)
          .then((g) => (g ? this.publish(g) : null))
          .catch((error: unknown) => this.deps.log.warn({ err: error }, 'publishing giveaway entries failed'));
      }
    }, 1000);
    this.flushTimer.unref?.();
  }

  stop(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
  }
}

function newWinner(e: EntryRow, place: number): NewWinner {
  return {
    place,
    walletId: e.walletId,
    provider: e.provider,
    providerUserId: e.providerUserId,
    displayName: e.displayName,
    tickets: e.tickets,
  };
}

export function toDto(g: GiveawayRow, winners: WinnerRow[]): Giveaway {
  return {
    id: g.id,
    title: g.title,
    entry_mode: g.entryMode,
    keyword: g.keyword,
    ticket_cost: Number(g.ticketCost),
    max_tickets: g.maxTickets,
    min_level: g.minLevel as Giveaway['min_level'],
    platforms: g.platforms as ChannelProviderId[],
    sub_luck: g.subLuck,
    winners: g.winners,
    duration_seconds: g.durationSeconds,
    claim_seconds: g.claimSeconds,
    status: g.status,
    entry_count: g.entryCount,
    ticket_count: g.ticketCount,
    opened_at: g.openedAt?.toISOString() ?? null,
    closes_at: g.closesAt?.toISOString() ?? null,
    closed_at: g.closedAt?.toISOString() ?? null,
    drawn_at: g.drawnAt?.toISOString() ?? null,
    created_at: g.createdAt.toISOString(),
    winner_list: winners.map(toWinnerDto),
  };
}

function toWinnerDto(w: WinnerRow): GiveawayWinner {
  return {
    id: w.id,
    place: w.place,
    wallet_id: w.walletId,
    provider: w.provider as ChannelProviderId,
    provider_user_id: w.providerUserId,
    display_name: w.displayName,
    tickets: w.tickets,
    status: w.status,
    drawn_at: w.drawnAt.toISOString(),
    claim_deadline: w.claimDeadline?.toISOString() ?? null,
    claimed_at: w.claimedAt?.toISOString() ?? null,
    messages: w.messages,
  };
}

/** "90 seconds", "5 minutes", "1 hour 30 minutes". */
export function durationWords(seconds: number): string {
  if (seconds < 120) return `${seconds} seconds`;
  const h = Math.floor(seconds / 3600);
  const m = Math.round((seconds % 3600) / 60);
  const parts = [h ? `${h} hour${h === 1 ? '' : 's'}` : '', m ? `${m} minute${m === 1 ? '' : 's'}` : ''].filter(Boolean);
  return parts.join(' ');
}
