/** `!join`, `!leave`, `!position` and `!queue` as chatbot built-ins, answered where they were typed. */
import { AccessLevel } from '@greenroom/contracts/access';
import type { BuiltinCommand } from '../chatbot';
import { callerOf } from '../points';
import type { QueueService } from './queue-service';

export function queueBuiltins(queues: QueueService): BuiltinCommand[] {
  return [
    {
      key: 'join',
      description: 'Joins the open viewer queue (subscribers first when the queue gives them priority).',
      defaults: { name: '!join', level: AccessLevel.PUBLIC, userCooldownSeconds: 3 },
      run: (inv) => queues.join(callerOf(inv)),
    },
    {
      key: 'leave',
      description: 'Leaves the viewer queue.',
      defaults: { name: '!leave', level: AccessLevel.PUBLIC, userCooldownSeconds: 3 },
      run: (inv) => queues.leave(callerOf(inv)),
    },
    {
      key: 'position',
      description: 'Says the caller’s place in the viewer queue.',
      defaults: { name: '!position', aliases: ['!place'], level: AccessLevel.PUBLIC, userCooldownSeconds: 5 },
      run: (inv) => queues.position(callerOf(inv)),
    },
    {
      key: 'queue',
      description: 'Says whether the viewer queue is open, how many wait and who is next.',
      defaults: { name: '!queue', level: AccessLevel.PUBLIC, globalCooldownSeconds: 10 },
      run: (inv) => queues.summary(callerOf(inv)),
    },
  ];
}
