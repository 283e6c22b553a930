import { z } from 'zod';
import { POINTS_MAX } from './points';

/**
 * Slots and roulette: their settings and the odds computed from them. The odds functions are here so
 * the settings pages show the same figures, as the streamer types, that `!odds` tells viewers.
 *
 * A multiplier is what a winning bet pays back in total, stake included: a bet of 100 at 2× returns
 * 200 (a net win of 100). Expected return (return to player) is the average paid back per point bet.
 */

export const SLOTS_REELS = 3;
export const SLOTS_SYMBOLS_MIN = 2;
export const SLOTS_SYMBOLS_MAX = 12;
export const GAME_MESSAGE_MAX = 400;

const cooldown = z
  .number({ error: 'Enter a number of seconds' })
  .int('Whole seconds')
  .min(0, 'At least 0 seconds')
  .max(86_400, 'At most one day (86400 s)');

const bet = (label: string) =>
  z
    .number({ error: `${label} must be a number` })
    .int(`${label} must be a whole number`)
    .min(1, `${label} is at least 1`)
    .max(POINTS_MAX, `${label} is too large`);

/** A payout: 0 (nothing) or more than 1× the bet — a payout of the bet or less would be a loss called a win. */
const multiplier = (label: string, max: number) =>
  z
    .number({ error: `${label} must be a number` })
    .min(0, `${label} cannot be negative`)
    .max(max, `${label} is at most ${max}×`)
    .multipleOf(0.01, 'At most two decimals')
    .refine((v) => v === 0 || v > 1, `${label} is 0 (nothing) or more than 1× the bet`);

const message = (label: string) =>
  z.string().trim().min(1, `${label} is required`).max(GAME_MESSAGE_MAX, `At most ${GAME_MESSAGE_MAX} characters`);

/** Bets: the minimum, and the maximum (at least the minimum). */
const betRange = <T extends { min_bet: number; max_bet: number }>(v: T, ctx: z.RefinementCtx) => {
  if (v.max_bet < v.min_bet) ctx.addIssue({ code: 'custom', path: ['max_bet'], message: 'The maximum bet must be at least the minimum' });
};

export const slotsSymbolSchema = z.object({
  emote: z
    .string()
    .trim()
    .min(1, 'Enter an emote or word')
    .max(50, 'At most 50 characters')
    .regex(/^\S+$/u, 'One emote or word, without spaces'),
  /** How often it shows on a reel, relative to the other symbols. */
  weight: z.number({ error: 'Enter a weight' }).int('A whole number').min(1, 'At least 1').max(1000, 'At most 1000'),
  /** Pays this multiple of the bet when all three reels show it. */
  pays_three: multiplier('The three-of-a-kind payout', 10_000),
  /** Pays this multiple of the bet when exactly two reels show it (0: nothing). */
  pays_two: multiplier('The two-of-a-kind payout', 100),
});
export type SlotsSymbol = z.infer<typeof slotsSymbolSchema>;

export const slotsSettingsSchema = z
  .object({
    enabled: z.boolean().default(true),
    symbols: z
      .array(slotsSymbolSchema)
      .min(SLOTS_SYMBOLS_MIN, `At least ${SLOTS_SYMBOLS_MIN} symbols`)
      .max(SLOTS_SYMBOLS_MAX, `At most ${SLOTS_SYMBOLS_MAX} symbols`)
      .superRefine((symbols, ctx) => {
        const seen = new Set<string>();
        symbols.forEach((s, i) => {
          if (seen.has(s.emote)) ctx.addIssue({ code: 'custom', path: [i, 'emote'], message: 'Each symbol once' });
          seen.add(s.emote);
        });
      })
      .default([
        { emote: 'Kappa', weight: 4, pays_three: 8, pays_two: 0 },
        { emote: 'PogChamp', weight: 3, pays_three: 15, pays_two: 0 },
        { emote: 'LUL', weight: 3, pays_three: 15, pays_two: 0 },
        { emote: 'BibleThump', weight: 2, pays_three: 40, pays_two: 1.5 },
        { emote: 'Jebaited', weight: 1, pays_three: 150, pays_two: 2 },
      ]),
    min_bet: bet('The minimum bet').default(10),
    max_bet: bet('The maximum bet').default(10_000),
    user_cooldown_seconds: cooldown.default(60),
    global_cooldown_seconds: cooldown.default(0),
    win_message: message('The win message').default('{user} spun {emotes} and won {payout} {pointsname}! Balance: {balance}.'),
    lose_message: message('The lose message').default('{user} spun {emotes} and lost {bet} {pointsname}. Balance: {balance}.'),
  })
  .superRefine(betRange);
export type SlotsSettings = z.infer<typeof slotsSettingsSchema>;
export type SlotsSettingsBody = z.input<typeof slotsSettingsSchema>;
export const defaultSlotsSettings: SlotsSettings = slotsSettingsSchema.parse({});

export const rouletteSettingsSchema = z
  .object({
    enabled: z.boolean().default(true),
    win_chance_percent: z
      .number({ error: 'Enter a chance' })
      .min(0, 'At least 0%')
      .max(100, 'At most 100%')
      .multipleOf(0.1, 'At most one decimal')
      .default(45),
    payout_multiplier: multiplier('The payout', 100)
      .refine((v) => v > 0, 'The payout is more than 1× the bet')
      .default(2),
    min_bet: bet('The minimum bet').default(1),
    max_bet: bet('The maximum bet').default(100_000),
    user_cooldown_seconds: cooldown.default(60),
    global_cooldown_seconds: cooldown.default(0),
    win_message: message('The win message').default('{user} won {payout} {pointsname} in roulette! Balance: {balance}.'),
    lose_message: message('The lose message').default('{user} lost {bet} {pointsname} in roulette. Balance: {balance}.'),
    all_in_win_message: message('The all-in win message').default('{user} went all in and won {payout} {pointsname}! PogChamp'),
    all_in_lose_message: message('The all-in lose message').default('{user} went all in and lost everything. LUL'),
  })
  .superRefine(betRange);
export type RouletteSettings = z.infer<typeof rouletteSettingsSchema>;
export type RouletteSettingsBody = z.input<typeof rouletteSettingsSchema>;
export const defaultRouletteSettings: RouletteSettings = rouletteSettingsSchema.parse({});

/** One way a spin can end, with its probability and what it pays. */
export const gameOutcomeSchema = z.object({ label: z.string(), chance: z.number(), multiplier: z.number() });
export type GameOutcome = z.infer<typeof gameOutcomeSchema>;
export const gameOddsSchema = z.object({
  /** Probability that a spin wins (pays more than the bet; every payout is 0 or more than 1×). */
  win_chance: z.number(),
  /** Average paid back per point bet (1 = break even). */
  expected_return: z.number(),
  /** The paying outcomes, most likely first. */
  outcomes: z.array(gameOutcomeSchema),
});
export type GameOdds = z.infer<typeof gameOddsSchema>;

/** The probability of each symbol on one reel. */
export function symbolChances(symbols: readonly Pick<SlotsSymbol, 'weight'>[]): number[] {
  const total = symbols.reduce((sum, s) => sum + s.weight, 0);
  return symbols.map((s) => (total > 0 ? s.weight / total : 0));
}

/**
 * Exact slots odds for three independent reels: all three show symbol i with p³, exactly two with
 * 3p²(1−p). These are the only paying outcomes.
 */
export function slotsOdds(symbols: readonly SlotsSymbol[]): GameOdds {
  const p = symbolChances(symbols);
  const outcomes: GameOutcome[] = [];
  symbols.forEach((s, i) => {
    const pi = p[i] ?? 0;
    if (s.pays_three > 0) outcomes.push({ label: `${s.emote} ${s.emote} ${s.emote}`, chance: pi ** 3, multiplier: s.pays_three });
    if (s.pays_two > 0) outcomes.push({ label: `Two ${s.emote}`, chance: 3 * pi ** 2 * (1 - pi), multiplier: s.pays_two });
  });
  outcomes.sort((a, b) => b.chance - a.chance);
  return {
    win_chance: outcomes.reduce((sum, o) => sum + o.chance, 0),
    expected_return: outcomes.reduce((sum, o) => sum + o.chance * o.multiplier, 0),
    outcomes,
  };
}

export function rouletteOdds(settings: Pick<RouletteSettings, 'win_chance_percent' | 'payout_multiplier'>): GameOdds {
  const chance = settings.win_chance_percent / 100;
  const outcomes = chance > 0 && settings.payout_multiplier > 0 ? [{ label: 'Win', chance, multiplier: settings.payout_multiplier }] : [];
  return {
    win_chance: outcomes.length ? chance : 0,
    expected_return: chance * settings.payout_multiplier,
    outcomes,
  };
}

/** A percentage for people: `12.35%`, `0.012%`, `<0.001%`. */
export function formatChance(p: number): string {
  if (p <= 0) return '0%';
  const pct = p * 100;
  if (pct < 0.001) return '<0.001%';
  if (pct < 1) return `${Number(pct.toPrecision(2))}%`;
  return `${Number(pct.toFixed(2))}%`;
}

export const slotsSettingsResponseSchema = z.object({ settings: slotsSettingsSchema, odds: gameOddsSchema });
export type SlotsSettingsResponse = z.infer<typeof slotsSettingsResponseSchema>;
export const rouletteSettingsResponseSchema = z.object({ settings: rouletteSettingsSchema, odds: gameOddsSchema });
export type RouletteSettingsResponse = z.infer<typeof rouletteSettingsResponseSchema>;
