/**
 * Slots and roulette: settings with the odds computed from them, `!slots`, `!roulette` and `!odds`.
 * A play takes its stake and pays out in one atomic update with one ledger row (see the points
 * repository's `play`), keyed by the command's effect id: a retried play answers the same outcome
 * and changes nothing again. Randomness comes from the CSPRNG. A bet the balance does not cover is
 * refused with the balance; the optional loss cap counts per viewer per stream.
 */
import {
  formatChance,
  rouletteOdds,
  rouletteSettingsSchema,
  slotsOdds,
  slotsSettingsSchema,
  type GameOdds,
  type RouletteSettings,
  type RouletteSettingsBody,
  type RouletteSettingsResponse,
  type SlotsSettings,
  type SlotsSettingsBody,
  type SlotsSettingsResponse,
} from '@greenroom/contracts/api/games';
import type { RandomSource } from '../../lib/random';
import type { AuditRecorder } from '../audit';
import {
  formatPoints,
  identityOf,
  parseBet,
  resolveBet,
  type ChannelPoints,
  type ChatCaller,
  type PlayInput,
  type PlayResult,
  type PointsService,
} from '../points';
import { fillMessage, payoutOf, spinRoulette, spinSlots } from './domain/spin';
import type { GameSettingsRepository } from './game-settings-repository';

export type Game = 'slots' | 'roulette';

/** What games need of the points module. */
export interface GamesPoints {
  service: Pick<PointsService, 'walletOf' | 'settings' | 'pointsName'>;
  play: (op: PlayInput) => Promise<PlayResult>;
  channel: (channelId: string) => Pick<ChannelPoints, 'streamKey'>;
}

/** Per-viewer and global cooldowns of one game in one channel, in memory (the stage checks them). */
class GameCooldowns {
  private global = 0;
  private readonly users = new Map<string, number>();

  take(user: string, now: number, s: { user_cooldown_seconds: number; global_cooldown_seconds: number }): boolean {
    if (now < this.global) return false;
    if (now < (this.users.get(user) ?? 0)) return false;
    this.global = now + s.global_cooldown_seconds * 1000;
    if (s.user_cooldown_seconds > 0) {
      this.users.set(user, now + s.user_cooldown_seconds * 1000);
      if (this.users.size > 10_000) for (const [k, until] of this.users) if (until <= now) this.users.delete(k);
    }
    return true;
  }

  /** A play that was refused (no points, the cap) does not cost the viewer their turn. */
  release(user: string): void {
    this.users.delete(user);
    this.global = 0;
  }
}

export interface GamesServiceDeps {
  repo: GameSettingsRepository;
  points: GamesPoints;
  audit: AuditRecorder;
  random: RandomSource;
}

export class GamesService {
  private readonly slotsById = new Map<string, SlotsSettings>();
  private readonly rouletteById = new Map<string, RouletteSettings>();
  private readonly cooldowns = new Map<string, GameCooldowns>();

  constructor(private readonly deps: GamesServiceDeps) {}

  async loadAll(): Promise<void> {
    for (const row of await this.deps.repo.all()) this.remember(row.channelId, row.game, row.settings);
  }

  slots(channelId: string): SlotsSettings {
    return this.slotsById.get(channelId) ?? slotsSettingsSchema.parse({});
  }

  roulette(channelId: string): RouletteSettings {
    return this.rouletteById.get(channelId) ?? rouletteSettingsSchema.parse({});
  }

  slotsResponse(channelId: string): SlotsSettingsResponse {
    const settings = this.slots(channelId);
    return { settings, odds: slotsOdds(settings.symbols) };
  }

  rouletteResponse(channelId: string): RouletteSettingsResponse {
    const settings = this.roulette(channelId);
    return { settings, odds: rouletteOdds(settings) };
  }

  async saveSlots(channelId: string, body: SlotsSettingsBody, actorUserId: string): Promise<SlotsSettingsResponse> {
    const settings = slotsSettingsSchema.parse(body);
    await this.deps.repo.save(channelId, 'slots', settings);
    this.remember(channelId, 'slots', settings);
    const odds = slotsOdds(settings.symbols);
    await this.deps.audit.record({
      channelId,
      actorUserId,
      action: 'games.slots_changed',
      data: { win_chance: odds.win_chance, expected_return: odds.expected_return },
    });
    return { settings, odds };
  }

  async saveRoulette(channelId: string, body: RouletteSettingsBody, actorUserId: string): Promise<RouletteSettingsResponse> {
    const settings = rouletteSettingsSchema.parse(body);
    await this.deps.repo.save(channelId, 'roulette', settings);
    this.remember(channelId, 'roulette', settings);
    const odds = rouletteOdds(settings);
    await this.deps.audit.record({
      channelId,
      actorUserId,
      action: 'games.roulette_changed',
      data: { win_chance: odds.win_chance, expected_return: odds.expected_return },
    });
    return { settings, odds };
  }

  private remember(channelId: string, game: Game, settings: unknown): void {
    if (game === 'slots') {
      const parsed = slotsSettingsSchema.safeParse(settings);
      if (parsed.success) this.slotsById.set(channelId, parsed.data);
    } else {
      const parsed = rouletteSettingsSchema.safeParse(settings);
      if (parsed.success) this.rouletteById.set(channelId, parsed.data);
    }
  }

  private cooldownsOf(channelId: string, game: Game): GameCooldowns {
    const key = `${channelId}:${game}`;
    let c = this.cooldowns.get(key);
    if (!c) this.cooldowns.set(key, (c = new GameCooldowns()));
    return c;
  }

  /** In the command stage: takes the game's cooldowns (false: still cooling down, the play is ignored). */
  takeTurn(channelId: string, game: Game, userKey: string, now: number): boolean {
    const s = game === 'slots' ? this.slots(channelId) : this.roulette(channelId);
    if (!s.enabled) return true;
    return this.cooldownsOf(channelId, game).take(userKey, now, s);
  }

  /** `!slots BET` / `!roulette BET`. */
  async play(c: ChatCaller, game: Game): Promise<string> {
    const userKey = `${c.provider}:${c.user.providerUserId}`;
    const reply = await this.playOnce(c, game);
    if (reply.refused) this.cooldownsOf(c.channelId, game).release(userKey);
    return reply.text;
  }

  private async playOnce(c: ChatCaller, game: Game): Promise<{ text: string; refused: boolean }> {
    const refuse = (text: string) => ({ text, refused: true });
    const label = game === 'slots' ? 'Slots' : 'Roulette';
    const s = game === 'slots' ? this.slots(c.channelId) : this.roulette(c.channelId);
    if (!s.enabled) return refuse(`${label} is turned off in this channel.`);
    const pointSettings = this.deps.points.service.settings(c.channelId);
    if (!pointSettings.enabled) return refuse('Points are turned off in this channel.');
    const name = pointSettings.points_name;
    const who = c.user.displayName;
    const bet = parseBet(c.args[0]);
    if (!bet.ok) return refuse(`${who}: ${bet.message}`);
    const wallet = await this.deps.points.service.walletOf(c.channelId, identityOf(c));
    const stake = resolveBet(bet.bet, wallet.balance, { min: s.min_bet, max: s.max_bet });
    if (!stake.ok) {
      if (stake.reason === 'below_min') return refuse(`${who}, the smallest bet is ${formatPoints(s.min_bet)} ${name}.`);
      if (stake.reason === 'above_max') return refuse(`${who}, the largest bet is ${formatPoints(s.max_bet)} ${name}.`);
      if (stake.reason === 'empty') return refuse(`${who}, you have no ${name} to bet.`);
      return refuse(
        `${who}, you have only ${formatPoints(wallet.balance)} ${name}` +
          (bet.bet.kind === 'amount'
            ? `; you cannot bet ${formatPoints(bet.bet.amount)}.`
            : `; the smallest bet is ${formatPoints(s.min_bet)}.`),
      );
    }
    let multiplier: number;
    let emotes = '';
    let reels: number[] = [];
    if (game === 'slots') {
      const spin = spinSlots((s as SlotsSettings).symbols, this.deps.random);
      multiplier = spin.multiplier;
      reels = spin.reels;
      emotes = reels.map((i) => (s as SlotsSettings).symbols[i]!.emote).join(' | ');
    } else multiplier = spinRoulette(s as RouletteSettings, this.deps.random);
    const payout = payoutOf(stake.stake, multiplier);
    const cap = pointSettings.gamble_loss_cap;
    const result = await this.deps.points.play({
      channelId: c.channelId,
      walletId: wallet.id,
      stake: stake.stake,
      payout,
      kind: game,
      key: c.effectId,
      note:
        game === 'slots'
          ? `Bet ${formatPoints(stake.stake)}: ${emotes}`
          : `Bet ${formatPoints(stake.stake)}: ${payout > 0 ? 'won' : 'lost'}`,
      data: { stake: stake.stake, payout, emotes, all_in: stake.allIn },
      lossCap: cap > 0 ? { streamKey: this.deps.points.channel(c.channelId).streamKey(c.now), cap } : null,
    });
    if (result.status === 'insufficient')
      return refuse(`${who}, you have only ${formatPoints(result.balance)} ${name}; you cannot bet ${formatPoints(stake.stake)}.`);
    if (result.status === 'capped')
      return refuse(
        result.remaining > 0
          ? `${who}, this stream's loss limit leaves you ${formatPoints(result.remaining)} ${name} to bet.`
          : `${who}, you reached this stream's loss limit of ${formatPoints(cap)} ${name}. See you next stream!`,
      );
    // A re-delivered play answers the outcome it had.
    const outcome =
      result.status === 'duplicate' && result.data
        ? {
            stake: Number(result.data.stake),
            payout: Number(result.data.payout),
            emotes: typeof result.data.emotes === 'string' ? result.data.emotes : '',
            allIn: result.data.all_in === true,
          }
        : { stake: stake.stake, payout, emotes, allIn: stake.allIn };
    const vars = {
      user: who,
      bet: formatPoints(outcome.stake),
      payout: formatPoints(outcome.payout),
      points: formatPoints(outcome.payout),
      balance: formatPoints(result.balance),
      pointsname: name,
      emotes: outcome.emotes,
    };
    const won = outcome.payout > 0;
    let template: string;
    if (game === 'roulette' && outcome.allIn) {
      const r = s as RouletteSettings;
      template = won ? r.all_in_win_message : r.all_in_lose_message;
    } else template = won ? s.win_message : s.lose_message;
    return { text: fillMessage(template, vars), refused: false };
  }

  /** `!odds`: both games' chances and return, and the loss cap. */
  odds(channelId: string): string {
    const parts: string[] = [];
    const slots = this.slots(channelId);
    const roulette = this.roulette(channelId);
    if (slots.enabled) {
      const o = slotsOdds(slots.symbols);
      const top = topPrize(o);
      parts.push(
        `Slots: ${formatChance(o.win_chance)} to win, ${formatChance(o.expected_return)} of bets paid back on average${top ? ` (top prize ${top})` : ''}.`,
      );
    }
    if (roulette.enabled) {
      const o = rouletteOdds(roulette);
      parts.push(
        `Roulette: ${formatChance(o.win_chance)} to win ${roulette.payout_multiplier}× the bet, ${formatChance(o.expected_return)} paid back on average.`,
      );
    }
    if (parts.length === 0) return 'No games are on in this channel.';
    const cap = this.deps.points.service.settings(channelId).gamble_loss_cap;
    if (cap > 0) parts.push(`Loss limit: ${formatPoints(cap)} ${this.deps.points.service.pointsName(channelId)} per stream.`);
    return parts.join(' ');
  }
}

function topPrize(o: GameOdds): string | null {
  const best = [...o.outcomes].sort((a, b) => b.multiplier - a.multiplier)[0];
  return best ? `${best.multiplier}× for ${best.label}` : null;
}
