import type { ChatMessage, ModerationEvent } from '@greenroom/contracts/api/events';

/** Why a message is hidden: deleted, its author timed out or banned, or the whole chat cleared. */
export type RemovalReason = 'deleted' | 'timeout' | 'ban' | 'clear';

export interface ChatEntry {
  message: ChatMessage;
  removed: RemovalReason | null;
  /** Position in the buffer's arrival sequence (see MessageBufferState). */
  seq: number;
}

/**
 * The in-browser chat buffer: `items` oldest → newest (what the list shows) and `pending` messages that
 * arrived while the live view was paused. Both lists together stay within `cap`; the oldest are dropped first.
 *
 * Together `items ++ pending` hold the entries numbered `lo … hi - 1`, in order: live messages take `hi++`,
 * older history takes `--lo`, dropping the oldest moves `lo` up. Dedupe uses `index` (message id → seq),
 * which successive states share and which is only ever extended or trimmed, never copied: an id is held
 * when its seq lies in this state's `[lo, hi)`. So a 10,000-message buffer costs no per-update copy of a
 * set, and a reducer run twice on the same state (StrictMode, a discarded render) gives the same result.
 */
export interface MessageBufferState {
  items: ChatEntry[];
  pending: ChatEntry[];
  index: Map<string, number>;
  lo: number;
  hi: number;
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
  return { items: [], pending: [], index: new Map(), lo: 0, hi: 0, paused: false, cap };
}

/** Whether the buffer holds a message with this id (shown or pending). */
export function bufferHas(state: MessageBufferState, id: string): boolean {
  const seq = state.index.get(id);
  return seq !== undefined && seq >= state.lo && seq < state.hi;
}

/** How many messages the buffer holds (shown and pending). */
export function bufferSize(state: MessageBufferState): number {
  return state.hi - state.lo;
}

function entryOf(message: ChatMessage, seq: number): ChatEntry {
  return { message, removed: message.deleted ? 'deleted' : null, seq };
}

/** Forgets the ids of dropped entries (unless the id was taken again by a newer entry). */
function forget(index: Map<string, number>, list: ChatEntry[], count: number): void {
  for (let i = 0; i < count; i += 1) {
    const entry = list[i]!;
    if (index.get(entry.message.id) === entry.seq) index.delete(entry.message.id);
  }
}

/** `list` without its first `drop` entries, plus `fresh`: one copy. */
function dropAndAppend(list: ChatEntry[], drop: number, fresh: ChatEntry[]): ChatEntry[] {
  if (drop === 0 && fresh.length === 0) return list;
  const kept = Math.max(0, list.length - drop);
  const next = new Array<ChatEntry>(kept + fresh.length);
  for (let i = 0; i < kept; i += 1) next[i] = list[drop + i]!;
  for (let i = 0; i < fresh.length; i += 1) next[kept + i] = fresh[i]!;
  return next;
}

function addLive(state: MessageBufferState, messages: ChatMessage[]): MessageBufferState {
  const { index, lo } = state;
  let hi = state.hi;
  const fresh: ChatEntry[] = [];
  for (const message of messages) {
    const seq = index.get(message.id);
    if (seq !== undefined && seq >= lo && seq < hi) continue;
    index.set(message.id, hi);
    fresh.push(entryOf(message, hi));
    hi += 1;
  }
  if (fresh.length === 0) return state;
  // Beyond the cap the oldest go: shown items first, then pending, then (a burst larger than the cap) fresh ones.
  let over = Math.max(0, hi - lo - state.cap);
  const fromItems = Math.min(over, state.items.length);
  forget(index, state.items, fromItems);
  over -= fromItems;
  const fromPending = Math.min(over, state.pending.length);
  forget(index, state.pending, fromPending);
  over -= fromPending;
  const fromFresh = Math.min(over, fresh.length);
  forget(index, fresh, fromFresh);
  const added = fromFresh > 0 ? fresh.slice(fromFresh) : fresh;
  const newLo = lo + fromItems + fromPending + fromFresh;
  const items = dropAndAppend(state.items, fromItems, state.paused ? [] : added);
  const pending = dropAndAppend(state.pending, fromPending, state.paused ? added : []);
  return { ...state, items, pending, lo: newLo, hi };
}

/** Older messages (any order) go before the oldest held; beyond the cap the oldest of them are not kept. */
function addHistory(state: MessageBufferState, messages: ChatMessage[]): MessageBufferState {
  const room = state.cap - bufferSize(state);
  if (room <= 0 || messages.length === 0) return state;
  const { index, hi } = state;
  let lo = state.lo;
  const fresh: ChatEntry[] = [];
  const sorted = messages.toSorted((a, b) => b.sent_at.localeCompare(a.sent_at)); // newest first
  for (const message of sorted) {
    if (fresh.length >= room) break;
    const seq = index.get(message.id);
    if (seq !== undefined && seq >= lo && seq < hi) continue;
    lo -= 1;
    index.set(message.id, lo);
    fresh.push(entryOf(message, lo));
  }
  if (fresh.length === 0) return state;
  fresh.reverse();
  return { ...state, items: fresh.concat(state.items), lo };
}

function matcher(event: ModerationEvent): ((entry: ChatEntry) => RemovalReason | null) | null {
  const sameProvider = (entry: ChatEntry) =>
    entry.message.channel_provider_id === event.channel_provider_id ||
    (entry.message.provider === event.provider && !event.channel_provider_id);
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

/** The list with matching entries marked; the same array when nothing changes (copied once otherwise). */
function markList(list: ChatEntry[], mark: (entry: ChatEntry) => RemovalReason | null): ChatEntry[] {
  let next: ChatEntry[] | null = null;
  for (let i = 0; i < list.length; i += 1) {
    const entry = list[i]!;
    const reason = mark(entry);
    if (!reason || (entry.removed && strength[entry.removed] >= strength[reason])) continue;
    next ??= list.slice();
    next[i] = { ...entry, removed: reason };
  }
  return next ?? list;
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
