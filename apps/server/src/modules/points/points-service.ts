/**
 * Loyalty points: settings, the chat commands (`!points`, `!give`, `!top`, `!addpoints`,
 * `!removepoints`, `!link`), the staff's leaderboard, ledger, adjustments and unlinking, and the
 * wallet lookups other features (games, giveaways, the queue) build on. Every change goes through
 * the repository's atomic operations with an idempotency key (a chat command's effect id), so a
 * command retried after a failure changes nothing twice.
 */
import {
  LINK_CODE_MINUTES,
  pointSettingsSchema,
  type AdjustBody,
  type LedgerPage,
  type PointSettings,
  type PointSettingsBody,
  type ViewerWallet,
  type Wallet,
  type WalletList,
} from '@greenroom/contracts/api/points';
import { providers, type ChannelProviderId } from '@greenroom/contracts/providers';
import { AccessLevel } from '@greenroom/contracts/access';
import type { Db } from '../../db/client';
import { badRequest, notFound } from '../../lib/errors';
import { decodeKeysetCursor, encodeKeysetCursor, INVALID_CURSOR, pageOf } from '../../lib/pagination';
import { newId } from '../../lib/ids';
import type { RandomSource } from '../../lib/random';
import type { AuditRecorder } from '../audit';
import { formatPoints, parseAmount } from './domain/amounts';
import { newLinkCode, normaliseLinkCode } from './domain/link-code';
import type { PointsState } from './points-state';
import type { DbPointsRepository, IdentityInput, IdentityRow, WalletRow } from './points-repository';

/** What the service needs of the repository (the database one, or a fake in unit tests). */
export type PointsRepository = Pick<
  DbPointsRepository,
  | 'allSettings'
  | 'saveSettings'
  | 'wallet'
  | 'walletById'
  | 'walletByLogin'
  | 'identities'
  | 'identity'
  | 'rank'
  | 'list'
  | 'countUpTo'
  | 'ledger'
  | 'change'
  | 'give'
  | 'createLinkCode'
  | 'useLinkCode'
  | 'linkCode'
  | 'pendingLink'
  | 'join'
  | 'unlink'
>;

/** A chat command as the points commands see it (a built-in command's run). */
export interface ChatCaller {
  channelId: string;
  channelProviderId: string;
  provider: ChannelProviderId;
  user: { providerUserId: string; login: string; displayName: string };
  level: number;
  subscriber: boolean;
  args: readonly string[];
  query: string;
  /** The idempotency key of this use of the command. */
  effectId: string;
  now: number;
}

/** Says something in a channel's chat as the bot: on one platform, or on every platform with chat. */
export interface BotChat {
  say(channelId: string, text: string, only?: ChannelProviderId): Promise<void>;
}

export interface PointsServiceDeps {
  repo: PointsRepository;
  state: PointsState;
  audit: AuditRecorder;
  chat: BotChat;
  random: RandomSource;
  clock?: () => number;
}

const stripAt = (v: string | undefined) => (v ?? '').replace(/^@+/u, '').trim();
export const identityOf = (c: Pick<ChatCaller, 'provider' | 'user'>): IdentityInput => ({
  provider: c.provider,
  providerUserId: c.user.providerUserId,
  login: c.user.login,
  displayName: c.user.displayName,
});

/** The most wallets a list's first page counts for its total (more: no total). */
const TOTAL_COUNT_MAX = 1000;

/** A leaderboard cursor: the last row's balance, id, place (1-based) and rank; 400 when malformed. */
function walletCursor(cursor: string | undefined): { balance: number; id: string; place: number; rank: number } | null {
  const parts = decodeKeysetCursor(cursor, 4);
  if (!parts) return null;
  const [balance, place, rank] = [Number(parts[0]), Number(parts[2]), Number(parts[3])];
  if (![balance, place, rank].every((n) => Number.isSafeInteger(n) && n >= 0)) throw badRequest(INVALID_CURSOR);
  return { balance, id: parts[1]!, place, rank };
}

export class PointsService {
  private readonly clock: () => number;

  constructor(private readonly deps: PointsServiceDeps) {
    this.clock = deps.clock ?? Date.now;
  }

  // Settings ---------------------------------------------------------------------------------

  settings(channelId: string): PointSettings {
    return this.deps.state.settingsOf(channelId);
  }

  async saveSettings(channelId: string, body: PointSettingsBody, actorUserId: string): Promise<PointSettings> {
    const settings = pointSettingsSchema.parse(body);
    await this.deps.repo.saveSettings(channelId, settings);
    this.deps.state.setSettings(channelId, settings);
    await this.deps.audit.record({ channelId, actorUserId, action: 'points.settings_changed', data: {} });
    return settings;
  }

  async loadAll(): Promise<void> {
    this.deps.state.loadSettings(await this.deps.repo.allSettings());
  }

  pointsName(channelId: string): string {
    return this.settings(channelId).points_name;
  }

  // Wallets for other features ---------------------------------------------------------------

  walletOf(channelId: string, identity: IdentityInput): Promise<WalletRow> {
    return this.deps.repo.wallet(channelId, identity);
  }

  // Chat commands ----------------------------------------------------------------------------

  private disabled(channelId: string): string | null {
    return this.settings(channelId).enabled ? null : 'Points are turned off in this channel.';
  }

  /** `!points` (own balance and rank) or `!points @user`. */
  async pointsCommand(c: ChatCaller): Promise<string> {
    const off = this.disabled(c.channelId);
    if (off) return off;
    const name = this.pointsName(c.channelId);
    const target = stripAt(c.args[0]);
    if (target && target.toLowerCase() !== c.user.login.toLowerCase()) {
      const found = await this.deps.repo.walletByLogin(c.channelId, target, c.provider);
      if (!found) return `I have not seen ${target} in this channel yet.`;
      const rank = await this.deps.repo.rank(c.channelId, found.wallet.balance);
      return `${found.identity.displayName} has ${formatPoints(found.wallet.balance)} ${name} (rank #${rank}).`;
    }
    const wallet = await this.deps.repo.wallet(c.channelId, identityOf(c));
    const rank = await this.deps.repo.rank(c.channelId, wallet.balance);
    return `${c.user.displayName} has ${formatPoints(wallet.balance)} ${name} (rank #${rank}).`;
  }

  /** `!give @user N`: moves points to another viewer, whole or not at all. */
  async give(c: ChatCaller): Promise<string> {
    const off = this.disabled(c.channelId);
    if (off) return off;
    const name = this.pointsName(c.channelId);
    const target = stripAt(c.args[0]);
    const amount = parseAmount(c.args[1]);
    if (!target || !c.args[1]) return `Usage: !give @user amount`;
    if (!amount.ok) return amount.message;
    const to = await this.deps.repo.walletByLogin(c.channelId, target, c.provider);
    if (!to) return `I have not seen ${target} in this channel yet.`;
    const from = await this.deps.repo.wallet(c.channelId, identityOf(c));
    if (from.id === to.wallet.id) return 'You cannot give points to yourself.';
    const result = await this.deps.repo.give({
      channelId: c.channelId,
      from: from.id,
      to: to.wallet.id,
      amount: amount.amount,
      key: c.effectId,
      noteOut: `To ${to.identity.displayName} (${providers[to.identity.provider].name})`,
      noteIn: `From ${c.user.displayName} (${providers[c.provider].name})`,
    });
    if (result.status === 'insufficient')
      return `${c.user.displayName}, you have only ${formatPoints(result.balance)} ${name}; you cannot give ${formatPoints(amount.amount)}.`;
    return `${c.user.displayName} gave ${formatPoints(amount.amount)} ${name} to ${to.identity.displayName}. ${c.user.displayName} now has ${formatPoints(result.balance)}.`;
  }

  /** `!top`: the five highest balances. */
  async top(c: ChatCaller): Promise<string> {
    const off = this.disabled(c.channelId);
    if (off) return off;
    const rows = await this.deps.repo.list(c.channelId, { limit: 5 });
    if (rows.length === 0) return `Nobody has ${this.pointsName(c.channelId)} yet.`;
    return `Top ${rows.length}: ${rows.map((w, i) => `${i + 1}. ${w.displayName} (${formatPoints(w.balance)})`).join(', ')}`;
  }

  /** `!addpoints @user N` and `!removepoints @user N` (Mods). Removing more than the balance takes what there is. */
  async modChange(c: ChatCaller, sign: 1 | -1): Promise<string> {
    const off = this.disabled(c.channelId);
    if (off) return off;
    const name = this.pointsName(c.channelId);
    const command = sign > 0 ? '!addpoints' : '!removepoints';
    const target = stripAt(c.args[0]);
    const amount = parseAmount(c.args[1]);
    if (!target || !c.args[1]) return `Usage: ${command} @user amount`;
    if (!amount.ok) return amount.message;
    const found = await this.deps.repo.walletByLogin(c.channelId, target, c.provider);
    if (!found) return `I have not seen ${target} in this channel yet.`;
    const result = await this.deps.repo.change({
      channelId: c.channelId,
      walletId: found.wallet.id,
      delta: sign * amount.amount,
      kind: 'command',
      key: c.effectId,
      note: `${command} by ${c.user.displayName} (${providers[c.provider].name})`,
      clamp: true,
    });
    if (result.status === 'insufficient') return `${found.identity.displayName} has no ${name} to remove.`;
    const moved = Math.abs(result.delta);
    return sign > 0
      ? `Added ${formatPoints(moved)} ${name} to ${found.identity.displayName} (now ${formatPoints(result.balance)}).`
      : `Removed ${formatPoints(moved)} ${name} from ${found.identity.displayName} (now ${formatPoints(result.balance)}).`;
  }

  /**
   * `!link`: a one-time code; `!link CODE` on another platform asks the code's owner to confirm;
   * `!link confirm` (by the owner) joins the two identities into one wallet. The confirmation is
   * needed because the code is said in public chat: using it proves nothing about who typed it.
   */
  async link(c: ChatCaller): Promise<string> {
    const off = this.disabled(c.channelId);
    if (off) return off;
    const arg = (c.args[0] ?? '').trim();
    const me = identityOf(c);
    const now = new Date(this.clock());
    const platform = providers[c.provider].name;
    if (!arg) {
      const expires = new Date(now.getTime() + LINK_CODE_MINUTES * 60_000);
      for (let attempt = 0; attempt < 5; attempt++) {
        const code = newLinkCode(this.deps.random);
        if (await this.deps.repo.createLinkCode(c.channelId, me, code, expires))
          return `${c.user.displayName}, your link code is ${code}. Type !link ${code} on your other platform within ${LINK_CODE_MINUTES} minutes.`;
      }
      return 'Could not make a code right now; try again.';
    }
    if (['confirm', 'yes', 'accept'].includes(arg.toLowerCase())) {
      const pending = await this.deps.repo.pendingLink(c.channelId, me, now);
      if (!pending?.used) return `${c.user.displayName}, nobody is waiting for your confirmation. Type !link to get a code.`;
      const other = pending.used;
      const result = await this.deps.repo.join(c.channelId, pending.code, me, other);
      const otherName = `${other.displayName} (${providers[other.provider].name})`;
      if (result.status === 'same_wallet') return `${c.user.displayName} and ${otherName} already share one wallet.`;
      if (result.status === 'same_platform')
        return `That wallet already has a ${providers[result.provider].name} account; staff can unlink it on the viewer card.`;
      return `${c.user.displayName} (${platform}) and ${otherName} now share one wallet: ${formatPoints(result.balance)} ${this.pointsName(c.channelId)}.`;
    }
    const code = normaliseLinkCode(arg);
    const invalid = `That link code is not valid; codes last ${LINK_CODE_MINUTES} minutes. Type !link on your other platform to get one.`;
    if (!code) return invalid;
    const existing = await this.deps.repo.linkCode(c.channelId, code);
    if (!existing || existing.expiresAt <= now || existing.usedAt) return invalid;
    if (existing.provider === c.provider) {
      if (existing.providerUserId === c.user.providerUserId) return `Type this code on your other platform, not on ${platform}.`;
      return `Link codes join accounts on two different platforms; this one was made on ${platform} too.`;
    }
    const [mine, theirs] = await Promise.all([
      this.deps.repo.identity(c.channelId, c.provider, c.user.providerUserId),
      this.deps.repo.identity(c.channelId, existing.provider, existing.providerUserId),
    ]);
    if (mine && theirs && mine.walletId === theirs.walletId) return `${c.user.displayName}, these accounts already share one wallet.`;
    const used = await this.deps.repo.useLinkCode(c.channelId, code, me, now);
    if (!used) return invalid;
    const ownerPlatform = providers[existing.provider].name;
    await this.deps.chat
      .say(
        c.channelId,
        `@${existing.displayName}: ${c.user.displayName} on ${platform} typed your link code. Type !link confirm within ${LINK_CODE_MINUTES} minutes to share one wallet, or ignore this.`,
        existing.provider,
      )
      .catch(() => undefined);
    return `${c.user.displayName}, almost done: ${existing.displayName} now types !link confirm on ${ownerPlatform}.`;
  }

  // Staff ------------------------------------------------------------------------------------

  /**
   * The leaderboard, highest balance first, a keyset page at a time. The cursor carries the last
   * row's balance, id, place and rank, so a page of the whole board ranks its rows from its place
   * (ties share the first's rank) without counting; rows of a search are not contiguous and ask
   * their own. The total comes with the first page, where counting it is cheap (up to 1,000).
   */
  async list(channelId: string, q: { search?: string | undefined; per_page: number; cursor?: string | undefined }): Promise<WalletList> {
    const after = walletCursor(q.cursor);
    const fetched = await this.deps.repo.list(channelId, {
      ...(q.search ? { search: q.search } : {}),
      ...(after ? { after: { balance: after.balance, id: after.id } } : {}),
      limit: q.per_page + 1,
    });
    const { rows, cursor: more } = pageOf(fetched, q.per_page, () => '');
    const ids = await this.deps.repo.identities(rows.map((r) => r.id));
    const ranks: number[] = [];
    let place = after?.place ?? 0;
    for (const [i, w] of rows.entries()) {
      place += 1;
      const previous = i > 0 ? { balance: rows[i - 1]!.balance, rank: ranks[i - 1]! } : after;
      if (q.search) ranks.push(await this.deps.repo.rank(channelId, w.balance));
      else if (!previous) ranks.push(await this.deps.repo.rank(channelId, w.balance));
      else ranks.push(w.balance === previous.balance ? previous.rank : place);
    }
    const records = rows.map((w, i) => toWalletDto(w, ids.get(w.id) ?? [], ranks[i]!));
    const last = rows.at(-1);
    const cursor = more !== null && last ? encodeKeysetCursor([String(last.balance), last.id, String(place), String(ranks.at(-1))]) : null;
    const total =
      q.cursor === undefined
        ? cursor === null
          ? rows.length
          : await this.deps.repo.countUpTo(channelId, q.search || undefined, TOTAL_COUNT_MAX)
        : null;
    return { records, cursor, ...(total === null ? {} : { total }) };
  }

  async wallet(channelId: string, walletId: string): Promise<Wallet> {
    const w = await this.deps.repo.walletById(channelId, walletId);
    if (!w) throw notFound('This viewer has no points here.');
    const ids = await this.deps.repo.identities([w.id]);
    return toWalletDto(w, ids.get(w.id) ?? [], await this.deps.repo.rank(channelId, w.balance));
  }

  async ledger(channelId: string, walletId: string, q: { per_page: number; cursor?: string | undefined }): Promise<LedgerPage> {
    const w = await this.deps.repo.walletById(channelId, walletId);
    if (!w) throw notFound('This viewer has no points here.');
    const beforeSeq = q.cursor ? Number.parseInt(q.cursor, 10) : undefined;
    const rows = await this.deps.repo.ledger(walletId, {
      ...(beforeSeq !== undefined && Number.isFinite(beforeSeq) ? { beforeSeq } : {}),
      limit: q.per_page + 1,
    });
    const page = rows.slice(0, q.per_page);
    return {
      records: page.map((r) => ({
        id: String(r.seq),
        at: r.at.toISOString(),
        kind: r.kind,
        delta: r.delta,
        balance: r.balance,
        note: r.note,
      })),
      cursor: rows.length > q.per_page ? String(page.at(-1)!.seq) : null,
    };
  }

  /** A staff adjustment from the dashboard, audited in the same transaction; a removal larger than the balance is refused. */
  async adjust(channelId: string, walletId: string, body: AdjustBody, actorUserId: string): Promise<Wallet> {
    const w = await this.deps.repo.walletById(channelId, walletId);
    if (!w) throw notFound('This viewer has no points here.');
    const result = await this.deps.repo.change({
      channelId,
      walletId,
      delta: body.delta,
      kind: 'adjust',
      key: `adjust:${newId()}`,
      note: body.reason,
      actorUserId,
      also: (tx: Db, applied) =>
        this.deps.audit.record(
          {
            channelId,
            actorUserId,
            action: 'points.adjusted',
            data: { wallet_id: walletId, viewer: w.displayName, delta: applied.delta, balance: applied.balance, reason: body.reason },
          },
          tx,
        ),
    });
    if (result.status === 'insufficient') {
      const message = `${w.displayName} has only ${formatPoints(result.balance)}; you can remove at most that.`;
      throw badRequest(message, { delta: message });
    }
    return this.wallet(channelId, walletId);
  }

  /** A viewer's wallet for the viewer card (null: never earned or used points here). */
  async viewerWallet(channelId: string, provider: ChannelProviderId, providerUserId: string): Promise<ViewerWallet | null> {
    const identity = await this.deps.repo.identity(channelId, provider, providerUserId);
    if (!identity) return null;
    const w = await this.deps.repo.walletById(channelId, identity.walletId);
    if (!w) return null;
    const ids = await this.deps.repo.identities([w.id]);
    return {
      wallet_id: w.id,
      balance: w.balance,
      rank: await this.deps.repo.rank(channelId, w.balance),
      points_name: this.pointsName(channelId),
      identities: (ids.get(w.id) ?? []).map(toIdentityDto),
    };
  }

  /** Takes one identity off a shared wallet (audited); it starts again with an empty wallet. */
  async unlink(
    channelId: string,
    walletId: string,
    provider: ChannelProviderId,
    providerUserId: string,
    actorUserId: string,
  ): Promise<Wallet> {
    const identity = await this.deps.repo.identity(channelId, provider, providerUserId);
    if (!identity || identity.walletId !== walletId) throw notFound('This account is not on that wallet.');
    const done = await this.deps.repo.unlink(channelId, provider, providerUserId);
    if (!done) throw badRequest('This account is the only one on its wallet; there is nothing to unlink.');
    await this.deps.audit.record({
      channelId,
      actorUserId,
      action: 'points.unlinked',
      data: { wallet_id: walletId, provider, provider_user_id: providerUserId, viewer: identity.displayName },
    });
    return this.wallet(channelId, walletId);
  }
}

export function toIdentityDto(i: IdentityRow) {
  return {
    provider: i.provider,
    provider_user_id: i.providerUserId,
    login: i.login,
    display_name: i.displayName,
    linked_at: i.linkedAt.toISOString(),
  };
}

function toWalletDto(w: WalletRow, identities: IdentityRow[], rank: number): Wallet {
  return {
    id: w.id,
    display_name: w.displayName,
    balance: w.balance,
    rank,
    identities: identities.map(toIdentityDto),
    updated_at: w.updatedAt.toISOString(),
  };
}

/** Chat levels a mod command needs (the built-ins' defaults). */
export const MOD_LEVEL = AccessLevel.MOD;
