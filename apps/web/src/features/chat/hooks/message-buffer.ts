import type { ChatGap, ChatMessage, ModerationEvent } from '@greenroom/contracts/api/events';

/** Why a message is hidden: deleted, its author timed out or banned, the whole chat cleared, or a filter removed it. */
export type RemovalReason = 'deleted' | 'timeout' | 'ban' | 'clear' | 'filtered';

export interface MessageEntry {
  kind: 'message';
  message: ChatMessage;
  removed: RemovalReason | null;
  /** Position in the buffer's arrival sequence (see MessageBufferState). */
  seq: number;
}

/** A line marking a break in one platform's chat (the connection dropped and resumed, or messages were lost). */
export interface GapEntry {
  kind: 'gap';
  gap: ChatGap;
  seq: number;
}

export type ChatEntry = MessageEntry | GapEntry;

/** The id an entry is deduplicated by. */
export function entryKey(entry: ChatEntry): string {
  return entry.kind === 'message' ? entry.message.id : `gap:${entry.gap.id}`;
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
  /** Live frames in arrival order (gaps after the messages of the batch). */
  | { type: 'live'; messages: ChatMessage[]; moderation?: ModerationEvent[]; gaps?: ChatGap[] }
  /** Older history; its gaps are placed among its messages by time. */
  | { type: 'history'; messages: ChatMessage[]; gaps?: ChatGap[] }
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

function entryOf(message: ChatMessage, seq: number): MessageEntry {
  return { kind: 'message', message, removed: message.filtered ? 'filtered' : message.deleted ? 'deleted' : null, seq };
}

type Line = { kind: 'message'; message: ChatMessage } | { kind: 'gap'; gap: ChatGap };

function lineKey(line: Line): string {
  return line.kind === 'message' ? line.message.id : `gap:${line.gap.id}`;
}

function lineAt(line: Line, seq: number): ChatEntry {
  return line.kind === 'message' ? entryOf(line.message, seq) : { kind: 'gap', gap: line.gap, seq };
}

/** Forgets the ids of dropped entries (unless the id was taken again by a newer entry). */
function forget(index: Map<string, number>, list: ChatEntry[], count: number): void {
  for (let i = 0; i < count; i += 1) {
    const entry = list[i]!;
    const key = entryKey(entry);
    if (index.get(key) === entry.seq) index.delete(key);
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

function addLive(state: MessageBufferState, lines: Line[]): MessageBufferState {
  const { index, lo } = state;
  let hi = state.hi;
  const fresh: ChatEntry[] = [];
  for (const line of lines) {
    const key = lineKey(line);
    const seq = index.get(key);
    if (seq !== undefined && seq >= lo && seq < hi) continue;
    index.set(key, hi);
    fresh.push(lineAt(line, hi));
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

const lineTime = (line: Line) => (line.kind === 'message' ? line.message.sent_at : line.gap.ended_at);

/** Older messages and gaps (any order) go before the oldest held, by time; beyond the cap the oldest are not kept. */
function addHistory(state: MessageBufferState, lines: Line[]): MessageBufferState {
  const room = state.cap - bufferSize(state);
  if (room <= 0 || lines.length === 0) return state;
  const { index, hi } = state;
  let lo = state.lo;
  const fresh: ChatEntry[] = [];
  const sorted = lines.toSorted((a, b) => lineTime(b).localeCompare(lineTime(a))); // newest first
  for (const line of sorted) {
    if (fresh.length >= room) break;
    const key = lineKey(line);
    const seq = index.get(key);
    if (seq !== undefined && seq >= lo && seq < hi) continue;
    lo -= 1;
    index.set(key, lo);
    fresh.push(lineAt(line, lo));
  }
  if (fresh.length === 0) return state;
  fresh.reverse();
  return { ...state, items: fresh.concat(state.items), lo };
}

function matcher(event: ModerationEvent): ((entry: MessageEntry) => RemovalReason | null) | null {
  const sameProvider = (entry: MessageEntry) =>
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

/**
 * A stronger reason replaces a weaker one, never the other way round (a ban stays a ban after a
 * clear; what a filter removed stays "removed by the filter" when the platform deletes it too).
 */
const strength: Record<RemovalReason, number> = { clear: 1, timeout: 2, ban: 3, deleted: 4, filtered: 5 };

/** The list with matching entries marked; the same array when nothing changes (copied once otherwise). */
function markList(list: ChatEntry[], mark: (entry: MessageEntry) => RemovalReason | null): ChatEntry[] {
  let next: ChatEntry[] | null = null;
  for (let i = 0; i < list.length; i += 1) {
    const entry = list[i]!;
    if (entry.kind !== 'message') continue;
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
      const lines: Line[] = action.messages.map((message) => ({ kind: 'message', message }));
      for (const gap of action.gaps ?? []) lines.push({ kind: 'gap', gap });
      const added = addLive(state, lines);
      return action.moderation?.length ? applyModeration(added, action.moderation) : added;
    }
    case 'history': {
      const lines: Line[] = action.messages.map((message) => ({ kind: 'message', message }));
      for (const gap of action.gaps ?? []) lines.push({ kind: 'gap', gap });
      return addHistory(state, lines);
    }
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
