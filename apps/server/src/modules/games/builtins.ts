/**
 * `!slots`, `!roulette` and `!odds` as chatbot built-ins. The games' own cooldowns (set on their
 * settings pages) are taken in the command stage (`onMatch`), so a burst of spins is refused at
 * once; a play that is then refused (not enough points, the loss cap) gives the turn back.
 */
import { AccessLevel } from '@greenroom/contracts/access';
import type { BuiltinCommand } from '../chatbot';
import { callerOf } from '../points';
import type { Game, GamesService } from './games-service';

function gameCommand(games: GamesService, game: Game, name: string, aliases: string[], description: string): BuiltinCommand {
  return {
    key: game,
    description,
    defaults: { name, aliases, level: AccessLevel.PUBLIC },
    onMatch: (ctx) => games.takeTurn(ctx.channelId, game, `${ctx.provider}:${ctx.user.providerUserId}`, ctx.now),
    run: async (inv, matched) => (matched === false ? null : games.play(callerOf(inv), game)),
  };
}

export function gamesBuiltins(games: GamesService): BuiltinCommand[] {
  return [
    gameCommand(
      games,
      'slots',
      '!slots',
      ['!slot'],
      'Spins the slots: !slots 100 (or 50%, 5k, 1m, all). Set the reels, payouts and cooldowns on the Slots page.',
    ),
    gameCommand(
      games,
      'roulette',
      '!roulette',
      ['!gamble'],
      'Bets on roulette: !roulette 100 (or 50%, 5k, 1m, all). Set the chance, payout and cooldowns on the Roulette page.',
    ),
    {
      key: 'odds',
      description: 'Tells viewers the chance to win and the average return of slots and roulette, and the loss limit.',
      defaults: { name: '!odds', level: AccessLevel.PUBLIC, globalCooldownSeconds: 10 },
      run: async (inv) => games.odds(inv.channelId),
    },
  ];
}
