/** What widget pages may see of a giveaway or a queue: names and places, never platform or wallet ids. */
import type { Giveaway } from '@greenroom/contracts/api/giveaways';
import type { Queue, QueueDetail } from '@greenroom/contracts/api/queues';
import { QUEUE_WIDGET_ENTRIES_MAX, type PublicGiveaway, type PublicQueue } from '@greenroom/contracts/api/widgets';

export function publicGiveaway(g: Giveaway): PublicGiveaway {
  return {
    id: g.id,
    title: g.title,
    status: g.status,
    entry_mode: g.entry_mode,
    keyword: g.keyword,
    ticket_cost: g.ticket_cost,
    entry_count: g.entry_count,
    closes_at: g.closes_at,
    winners: g.winner_list
      .filter((w) => w.status !== 'rerolled')
      .map((w) => ({ place: w.place, display_name: w.display_name, provider: w.provider, status: w.status })),
  };
}

export function publicQueue(q: QueueDetail): PublicQueue {
  return {
    id: q.id,
    name: q.name,
    status: q.status,
    size: q.size,
    entries: q.entries
      .slice(0, QUEUE_WIDGET_ENTRIES_MAX)
      .map((e) => ({ position: e.position, display_name: e.display_name, provider: e.provider, priority: e.priority })),
  };
}

/** The giveaway a widget shows: the open one, else the latest closed or drawn (drafts and cancelled ones are not shown). */
export function shownGiveaway(newestFirst: Giveaway[]): Giveaway | null {
  return newestFirst.find((g) => g.status === 'open') ?? newestFirst.find((g) => g.status === 'closed' || g.status === 'drawn') ?? null;
}

/** The queue a widget shows: the open one, else a paused one, else none. */
export function shownQueue(queues: Queue[]): Queue | null {
  return queues.find((q) => q.status === 'open') ?? queues.find((q) => q.status === 'paused') ?? null;
}
