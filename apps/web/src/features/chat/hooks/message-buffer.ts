import type { ChatMessage, ModerationEvent } from '@greenroom/contracts/api/events';

/** Why a message is hidden: deleted, its author timed out or banned, or the whole chat cleared. */
export type RemovalReason = 'deleted' | 'timeout' | 'ban' | 'clear';

export interface ChatEntry {
  message: ChatMessage;
  removed: RemovalReason | null;
}

/**
 * The in-browser chat buffer: `items` oldest → newest (what the list shows), `pending` messages that
 * arrived while the live view was paused, and every id held (for dedupe). Both lists together stay
 * within `cap`; the oldest are dropped first.
 */
export interface MessageBufferState {
  items: ChatEntry[];
  pending: ChatEntry[];
  ids: ReadonlySet<string>;
  paused: boolean;
  cap: number;
}

export const CHAT_BUFFER_CAP = 10_000;

export type BufferAction =
  | { type: 'live'; messages: ChatMessage[]; moderation?: ModerationEvent[] }
  | { type: 'history'; messages: ChatMessage[] }
  | { type: 'moderation'; events: ModerationEvent[] }
  | { type: 'pause' }
  | { type: 'resume' }
  | { type: 'reset' };

export function createBuffer(cap: number = CHAT_BUFFER_CAP): MessageBufferState {
  return { items: [], pending: [], ids: new Set(), paused: false, cap };
}

function entryOf(message: ChatMessage): ChatEntry {
  return { message, removed: message.deleted ? 'deleted' : null };
}

/** Drops the oldest entries (items first, then pending) beyond the cap; returns the dropped ids' new set. */
function enforceCap(items: ChatEntry[], pending: ChatEntry[], ids: Set<string>, cap: number): { items: ChatEntry[]; pending: ChatEntry[] } {
  const over = items.length + pending.length - cap;
  if (over <= 0) return { items, pending };
  const fromItems = Math.min(over, items.length);
  for (let i = 0; i < fromItems; i += 1) ids.delete(items[i]!.message.id);
  const fromPending = over - fromItems;
  for (let i = 0; i < fromPending; i += 1) ids.delete(pending[i]!.message.id);
  return { items: fromItems > 0 ? items.slice(fromItems) : items, pending: fromPending > 0 ? pending.slice(fromPending) : pending };
}

function addLive(state: MessageBufferState, messages: ChatMessage[]): MessageBufferState {
  if (messages.length === 0) return state;
  let ids: Set<string> | null = null;
  const fresh: ChatEntry[] = [];
  for (const message of messages) {
    if ((ids ?? state.ids).has(message.id)) continue;
    ids ??= new Set(state.ids);
    ids.add(message.id);
    fresh.push(entryOf(message));
  }
  if (!ids) return state;
  const items = state.paused ? state.items : state.items.concat(fresh);
  const pending = state.paused ? state.pending.concat(fresh) : state.pending;
  return { ...state, ...enforceCap(items, pending, ids, state.cap), ids };
}

/** Older messages (any order) go before the oldest held; beyond the cap the oldest of them are not kept. */
function addHistory(state: MessageBufferState, messages: ChatMessage[]): MessageBufferState {
  const room = state.cap - state.items.length - state.pending.length;
  if (room <= 0 || messages.length === 0) return state;
  const ids = new Set(state.ids);
  const fresh: ChatEntry[] = [];
  const sorted = messages.toSorted((a, b) => b.sent_at.localeCompare(a.sent_at)); // newest first
  for (const message of sorted) {
    if (fresh.length >= room) break;
    if (ids.has(message.id)) continue;
    ids.add(message.id);
    fresh.push(entryOf(message));
  }
  if (fresh.length === 0) return state;
  fresh.reverse();
  return { ...state, items: fresh.concat(state.items), ids };
}

function matcher(event: ModerationEvent): ((entry: ChatEntry) => RemovalReason | null) | null {
  const sameProvider = (entry: ChatEntry) => entry.message.channel_provider_id === event.channel_provider_id || (entry.message.provider === event.provider && !event.channel_provider_id);
  switch (event.kind) {
    case 'delete':
      if (!event.provider_message_id) return null;
      return (entry) => (sameProvider(entry) && entry.message.provider_message_id === event.provider_message_id ? 'deleted' : null);
    case 'timeout':
    case 'ban': {
      const target = event.target?.provider_user_id;
      if (!target) return null;
      const reason: RemovalReason = event.kind === 'ban' ? 'ban' : 'timeout';
      return (entry) => (sameProvider(entry) && entry.message.author.provider_user_id === target ? reason : null);
    }
    case 'clear': {
      // With a target: that viewer's messages were cleared (e.g. alongside a timeout); without: the whole chat.
      const target = event.target?.provider_user_id;
      if (target) return (entry) => (sameProvider(entry) && entry.message.author.provider_user_id === target ? 'clear' : null);
      const at = event.occurred_at;
      return (entry) => (sameProvider(entry) && entry.message.sent_at <= at ? 'clear' : null);
    }
    case 'unban':
      // Unbanning lets the viewer talk again; messages removed earlier stay removed.
      return null;
    default:
      return null;
  }
}

/** A stronger reason replaces a weaker one, never the other way round (a ban stays a ban after a clear). */
const strength: Record<RemovalReason, number> = { clear: 1, timeout: 2, ban: 3, deleted: 4 };

function markList(list: ChatEntry[], mark: (entry: ChatEntry) => RemovalReason | null): ChatEntry[] {
  let changed = false;
  const next = list.map((entry) => {
    const reason = mark(entry);
    if (!reason || (entry.removed && strength[entry.removed] >= strength[reason])) return entry;
    changed = true;
    return { ...entry, removed: reason };
  });
  return changed ? next : list;
}

function applyModeration(state: MessageBufferState, events: ModerationEvent[]): MessageBufferState {
  let { items, pending } = state;
  for (const event of events) {
    const mark = matcher(event);
    if (!mark) continue;
    items = markList(items, mark);
    pending = markList(pending, mark);
  }
  return items === state.items && pending === state.pending ? state : { ...state, items, pending };
}

/** Pure reducer of the chat buffer (cap, arrival order, dedupe by id, deletion and ban/timeout marking, pause). */
export function messageBufferReducer(state: MessageBufferState, action: BufferAction): MessageBufferState {
  switch (action.type) {
    case 'live': {
      const added = addLive(state, action.messages);
      return action.moderation?.length ? applyModeration(added, action.moderation) : added;
    }
    case 'history':
      return addHistory(state, action.messages);
    case 'moderation':
      return applyModeration(state, action.events);
    case 'pause':
      return state.paused ? state : { ...state, paused: true };
    case 'resume': {
      if (!state.paused) return state;
      return { ...state, paused: false, items: state.pending.length ? state.items.concat(state.pending) : state.items, pending: [] };
    }
    case 'reset':
      return createBuffer(state.cap);
    default:
      return state;
  }
}
