/**
 * The points commands as chatbot built-ins: rows every channel gets on the Chat Commands page
 * (name, aliases, level, cooldowns and platforms stay editable there), answered where they were typed.
 */
import { AccessLevel } from '@greenroom/contracts/access';
import { LINK_CODE_MINUTES } from '@greenroom/contracts/api/points';
import type { BuiltinCommand, BuiltinRun } from '../chatbot';
import type { ChatCaller, PointsService } from './points-service';

/** A built-in's run as the points commands take it. */
export function callerOf(inv: BuiltinRun): ChatCaller {
  return {
    channelId: inv.channelId,
    channelProviderId: inv.channelProviderId,
    provider: inv.provider,
    user: inv.user,
    level: inv.level,
    subscriber: inv.subscriber,
    args: inv.args,
    query: inv.query,
    effectId: inv.effectId,
    now: inv.now,
  };
}

export function pointsBuiltins(points: PointsService): BuiltinCommand[] {
  return [
    {
      key: 'points',
      description: 'Says the caller’s points and rank, or another viewer’s: !points, !points @user.',
      defaults: { name: '!points', level: AccessLevel.PUBLIC, userCooldownSeconds: 5 },
      run: (inv) => points.pointsCommand(callerOf(inv)),
    },
    {
      key: 'give',
      description: 'Gives some of the caller’s points to another viewer, on any platform: !give @user 100.',
      defaults: { name: '!give', level: AccessLevel.PUBLIC, userCooldownSeconds: 5 },
      run: (inv) => points.give(callerOf(inv)),
    },
    {
      key: 'top',
      description: 'Lists the five viewers with the most points.',
      defaults: { name: '!top', aliases: ['!leaderboard'], level: AccessLevel.PUBLIC, globalCooldownSeconds: 10 },
      run: (inv) => points.top(callerOf(inv)),
    },
    {
      key: 'addpoints',
      description: 'Adds points to a viewer: !addpoints @user 100 (logged in their points history).',
      defaults: { name: '!addpoints', level: AccessLevel.MOD },
      run: (inv) => points.modChange(callerOf(inv), 1),
    },
    {
      key: 'removepoints',
      description: 'Removes points from a viewer (at most what they have): !removepoints @user 100.',
      defaults: { name: '!removepoints', level: AccessLevel.MOD },
      run: (inv) => points.modChange(callerOf(inv), -1),
    },
    {
      key: 'link',
      description: `Joins a viewer’s accounts on two platforms into one wallet: !link gives a code (${LINK_CODE_MINUTES} minutes), !link CODE on the other platform, then !link confirm on the first.`,
      defaults: { name: '!link', level: AccessLevel.PUBLIC, userCooldownSeconds: 3 },
      run: (inv) => points.link(callerOf(inv)),
    },
  ];
}
