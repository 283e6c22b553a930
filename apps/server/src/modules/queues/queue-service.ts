/**
 * The viewer queue: `!join`, `!leave`, `!position` and `!queue` on every platform (one line for
 * all of them: a viewer is one wallet, whichever platform they type on), and the staff's live page
 * (open, pause, close, pick next / random / by name, remove, reorder, clear). Every change is
 * published on the bus as `queue.updated` with the queue and its line.
 */
import {
  QUEUE_EVENT_ENTRIES,
  queueBodySchema,
  type PickBody,
  type PickResult,
  type PickedEntry,
  type Queue,
  type QueueBody,
  type QueueDetail,
  type QueueEntry,
  type QueueStatus,
} from '@greenroom/contracts/api/queues';
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import { conflict, notFound } from '../../lib/errors';
import type { RandomSource } from '../../lib/random';
import type { AuditRecorder } from '../audit';
import { identityOf, type BotChat, type ChatCaller, type IdentityInput } from '../points';
import type { QueueEntryRow, QueueRepository, QueueRow } from './queue-repository';

export type QueueEvent = { type: 'queue.updated'; data: QueueDetail } | { type: 'queue.deleted'; data: { id: string } };

export interface QueueServiceDeps {
  repo: QueueRepository;
  walletOf(channelId: string, identity: IdentityInput): Promise<{ id: string }>;
  chat: BotChat;
  audit: AuditRecorder;
  publish(channelId: string, event: QueueEvent): void;
  random: RandomSource;
  clock?: () => number;
  log: { warn(obj: object, msg?: string): void };
}

/** Waiting viewers the page shows (and reorders). */
const PAGE_ENTRIES = 1000;
const PICKED_SHOWN = 20;

export class QueueService {
  private readonly clock: () => number;

  constructor(private readonly deps: QueueServiceDeps) {
    this.clock = deps.clock ?? Date.now;
  }

  // Staff ------------------------------------------------------------------------------------

  async list(channelId: string): Promise<Queue[]> {
    return (await this.deps.repo.list(channelId)).map(toQueueDto);
  }

  async detail(channelId: string, id: string, entries = PAGE_ENTRIES): Promise<QueueDetail> {
    const q = await this.deps.repo.get(channelId, id);
    if (!q) throw notFound('Queue not found');
    return this.detailOf(q, entries);
  }

  private async detailOf(q: QueueRow, entries: number): Promise<QueueDetail> {
    const [waiting, picked] = await Promise.all([this.deps.repo.waiting(q.id, entries), this.deps.repo.picked(q.id, PICKED_SHOWN)]);
    return { ...toQueueDto(q), entries: waiting.map(toEntryDto), picked: picked.map(toPickedDto) };
  }

  async create(channelId: string, body: QueueBody, actorUserId: string): Promise<QueueDetail> {
    const q = await this.deps.repo.create(channelId, queueBodySchema.parse(body));
    await this.deps.audit.record({ channelId, actorUserId, action: 'queue.created', data: { queue_id: q.id, name: q.name } });
    return this.changed(channelId, q.id);
  }

  async update(channelId: string, id: string, body: QueueBody): Promise<QueueDetail> {
    const q = await this.deps.repo.update(channelId, id, queueBodySchema.parse(body));
    if (!q) throw notFound('Queue not found');
    return this.changed(channelId, id);
  }

  async delete(channelId: string, id: string, actorUserId: string): Promise<void> {
    const q = await this.deps.repo.get(channelId, id);
    if (!q || !(await this.deps.repo.delete(channelId, id))) throw notFound('Queue not found');
    await this.deps.audit.record({ channelId, actorUserId, action: 'queue.deleted', data: { queue_id: id, name: q.name } });
    this.deps.publish(channelId, { type: 'queue.deleted', data: { id } });
  }

  /** Opens, pauses or closes a queue. Only one queue can be open or paused at a time (chat commands use it). */
  async setStatus(channelId: string, id: string, status: QueueStatus, actorUserId: string): Promise<QueueDetail> {
    const before = await this.deps.repo.get(channelId, id);
    if (!before) throw notFound('Queue not found');
    let q: QueueRow | null;
    try {
      q = await this.deps.repo.setStatus(channelId, id, status);
    } catch (error) {
      const other = await this.deps.repo.active(channelId);
      if (other && other.id !== id) throw conflict(`“${other.name}” is ${other.status}. Close it first: chat joins one queue at a time.`);
      throw error;
    }
    if (!q) throw notFound('Queue not found');
    if (before.status !== status) {
      await this.deps.audit.record({ channelId, actorUserId, action: `queue.${status}`, data: { queue_id: id, name: q.name } });
      const words: Record<QueueStatus, string> = {
        open: `The queue “${q.name}” is open! Type !join to get in line.`,
        paused: `The queue “${q.name}” is paused.`,
        closed: `The queue “${q.name}” is closed.`,
      };
      await this.say(channelId, words[status]);
    }
    return this.changed(channelId, id);
  }

  async pick(channelId: string, id: string, body: PickBody, actorUserId: string): Promise<PickResult> {
    const result = await this.deps.repo.pick(channelId, id, body, this.deps.random, new Date(this.clock()));
    if (!result) throw notFound('Queue not found');
    if (result.status === 'none') {
      if (body.mode === 'name') throw notFound(`Nobody named “${body.name}” is waiting.`);
      throw conflict('Nobody is waiting.');
    }
    const e = result.entry;
    await this.deps.audit.record({
      channelId,
      actorUserId,
      action: 'queue.picked',
      data: { queue_id: id, viewer: e.displayName, mode: body.mode },
    });
    await this.say(channelId, `@${e.displayName}, you're up!`, e.provider as ChannelProviderId);
    return { picked: toPickedDto(e), queue: await this.changed(channelId, id) };
  }

  async remove(channelId: string, id: string, entryId: string, actorUserId: string): Promise<QueueDetail> {
    const gone = await this.deps.repo.remove(channelId, id, entryId, new Date(this.clock()));
    if (!gone) throw notFound('This viewer is not waiting in the queue.');
    await this.deps.audit.record({ channelId, actorUserId, action: 'queue.removed', data: { queue_id: id, viewer: gone.displayName } });
    return this.changed(channelId, id);
  }

  async move(channelId: string, id: string, entryId: string, position: number): Promise<QueueDetail> {
    if (!(await this.deps.repo.move(channelId, id, entryId, position))) throw notFound('This viewer is not waiting in the queue.');
    return this.changed(channelId, id);
  }

  async clear(channelId: string, id: string, actorUserId: string): Promise<QueueDetail> {
    if (!(await this.deps.repo.clear(channelId, id, new Date(this.clock())))) throw notFound('Queue not found');
    await this.deps.audit.record({ channelId, actorUserId, action: 'queue.cleared', data: { queue_id: id } });
    return this.changed(channelId, id);
  }

  // Chat -------------------------------------------------------------------------------------

  /** `!join` */
  async join(c: ChatCaller): Promise<string> {
    const q = await this.deps.repo.active(c.channelId);
    const who = c.user.displayName;
    if (!q) return 'There is no queue open right now.';
    const wallet = await this.deps.walletOf(c.channelId, identityOf(c));
    const result = await this.deps.repo.join(c.channelId, q.id, {
      walletId: wallet.id,
      provider: c.provider,
      providerUserId: c.user.providerUserId,
      displayName: who,
      subscriber: c.subscriber,
      now: new Date(this.clock()),
    });
    if (!result) return 'There is no queue open right now.';
    switch (result.status) {
      case 'joined': {
        void this.changed(c.channelId, q.id).catch((error: unknown) => this.deps.log.warn({ err: error }, 'publishing the queue failed'));
        const full = result.closedWhenFull ? ` The queue is full and now closed.` : '';
        return `${who} joined “${q.name}” at position ${result.position}.${full}`;
      }
      case 'already':
        return `${who}, you are already in the queue at position ${result.position} of ${result.size}.`;
      case 'paused':
        return `The queue “${q.name}” is paused; try again soon.`;
      case 'closed':
        return `The queue “${q.name}” is closed.`;
      case 'full':
        return `The queue “${q.name}” is full (${result.max} viewers).`;
      case 'cooldown':
        return `${who}, you can join again in ${result.seconds} second${result.seconds === 1 ? '' : 's'}.`;
    }
  }

  /** `!leave` */
  async leave(c: ChatCaller): Promise<string> {
    const q = await this.deps.repo.active(c.channelId);
    if (!q) return 'There is no queue open right now.';
    const wallet = await this.deps.walletOf(c.channelId, identityOf(c));
    const gone = await this.deps.repo.leave(c.channelId, q.id, wallet.id, new Date(this.clock()));
    if (!gone) return `${c.user.displayName}, you are not in the queue.`;
    void this.changed(c.channelId, q.id).catch((error: unknown) => this.deps.log.warn({ err: error }, 'publishing the queue failed'));
    return `${c.user.displayName} left the queue.`;
  }

  /** `!position` */
  async position(c: ChatCaller): Promise<string> {
    const q = await this.deps.repo.active(c.channelId);
    if (!q) return 'There is no queue open right now.';
    const wallet = await this.deps.walletOf(c.channelId, identityOf(c));
    const mine = await this.deps.repo.waitingEntryOf(q.id, wallet.id);
    if (!mine) return `${c.user.displayName}, you are not in the queue. Type !join to get in line.`;
    return `${c.user.displayName}, you are #${mine.position} of ${q.size} in “${q.name}”.`;
  }

  /** `!queue`: the queue's state and who is next. */
  async summary(c: ChatCaller): Promise<string> {
    const q = await this.deps.repo.active(c.channelId);
    if (!q) return 'There is no queue open right now.';
    const next = await this.deps.repo.waiting(q.id, 5);
    const state = q.status === 'paused' ? 'paused' : 'open';
    const names = next.length ? ` Next: ${next.map((e) => e.displayName).join(', ')}${q.size > next.length ? ', …' : ''}.` : '';
    return `“${q.name}” is ${state}: ${q.size} waiting.${names}${q.status === 'open' ? ' Type !join to get in line.' : ''}`;
  }

  // Helpers ----------------------------------------------------------------------------------

  /** Publishes the queue as it now is and answers it. */
  private async changed(channelId: string, id: string): Promise<QueueDetail> {
    const q = await this.deps.repo.get(channelId, id);
    if (!q) throw notFound('Queue not found');
    const detail = await this.detailOf(q, PAGE_ENTRIES);
    this.deps.publish(channelId, { type: 'queue.updated', data: { ...detail, entries: detail.entries.slice(0, QUEUE_EVENT_ENTRIES) } });
    return detail;
  }

  private async say(channelId: string, text: string, only?: ChannelProviderId): Promise<void> {
    await this.deps.chat
      .say(channelId, text, only)
      .catch((error: unknown) => this.deps.log.warn({ err: error }, 'a queue announcement failed'));
  }
}

export function toQueueDto(q: QueueRow): Queue {
  return {
    id: q.id,
    name: q.name,
    status: q.status,
    max_size: q.maxSize,
    auto_close: q.autoClose,
    join_cooldown_seconds: q.joinCooldownSeconds,
    sub_priority: q.subPriority,
    size: q.size,
    created_at: q.createdAt.toISOString(),
    updated_at: q.updatedAt.toISOString(),
  };
}

function toEntryDto(e: QueueEntryRow): QueueEntry {
  return {
    id: e.id,
    position: e.position ?? 0,
    wallet_id: e.walletId,
    provider: e.provider as ChannelProviderId,
    provider_user_id: e.providerUserId,
    display_name: e.displayName,
    priority: e.priority,
    joined_at: e.joinedAt.toISOString(),
  };
}

function toPickedDto(e: QueueEntryRow): PickedEntry {
  return {
    id: e.id,
    wallet_id: e.walletId,
    provider: e.provider as ChannelProviderId,
    provider_user_id: e.providerUserId,
    display_name: e.displayName,
    priority: e.priority,
    joined_at: e.joinedAt.toISOString(),
    picked_at: (e.endedAt ?? new Date()).toISOString(),
  };
}
