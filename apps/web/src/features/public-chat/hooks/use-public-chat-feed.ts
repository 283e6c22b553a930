import { useCallback, useEffect, useRef, useState } from 'react';
import { publicChatSocketMessageSchema, type PublicChatMessage } from '@greenroom/contracts/api/chat';
import { isApiError } from '../../../lib/api-client';
import { FrameQueue } from '../../../lib/frame-queue';
import { parseFrame, useLiveSocket } from '../../../lib/live-socket';
import { getPublicChat, usePublicChat } from '../api/get-public-chat';

type PublicEvent = { type: 'message'; message: PublicChatMessage } | { type: 'removed'; ids: string[] };

/** Applies a batch to the shown list: appends new messages (deduped), hides removed ones, keeps the newest `max`. */
export function applyPublicEvents(list: PublicChatMessage[], events: PublicEvent[], max: number): PublicChatMessage[] {
  let next = list;
  const ids = new Set(list.map((m) => m.id));
  for (const event of events) {
    if (event.type === 'message') {
      if (ids.has(event.message.id)) continue;
      ids.add(event.message.id);
      next = next === list ? [...list, event.message] : (next.push(event.message), next);
    } else {
      const removed = new Set(event.ids);
      if (next.some((m) => removed.has(m.id))) next = next.filter((m) => !removed.has(m.id));
    }
  }
  return next.length > max ? next.slice(next.length - max) : next;
}

/**
 * Public popout chat: recent history plus the public websocket (reconnects forever, except for a channel that does
 * not exist: its history answered 404, then no socket), newest `max` messages. After a reconnect, what was stored
 * meanwhile is fetched by position (`after` the newest seen) before the frames that arrived since: no gap, no duplicate.
 */
export function usePublicChatFeed(channelId: string, max: number) {
  const history = usePublicChat(channelId);
  const [messages, setMessages] = useState<PublicChatMessage[]>([]);
  const [queue] = useState(
    () => new FrameQueue<PublicEvent>((batch) => setMessages((prev) => applyPublicEvents(prev, batch, max)), { maxSize: 2000 }),
  );
  useEffect(() => () => queue.dispose(), [queue]);
  /** The newest stored position seen (history and frames); 0 = none yet (or no message when the history was read). */
  const head = useRef(0);
  /** The history is shown: `head` is where the view's log ends, even when it is 0 (an empty log). */
  const read = useRef(false);
  const opened = useRef(false);
  /** Frames held while a catch-up is fetched, so older messages are shown first. */
  const held = useRef<PublicEvent[] | null>(null);

  /** Fetches what was stored after the newest position seen, holding new frames until it is shown. */
  const catchUp = useCallback(() => {
    if (!read.current || held.current) return;
    held.current = [];
    const release = (missed: PublicChatMessage[]) => {
      const frames = held.current ?? [];
      held.current = null;
      for (const message of missed) queue.push({ type: 'message', message });
      for (const frame of frames) queue.push(frame);
    };
    getPublicChat(channelId, undefined, String(head.current))
      .then((page) => {
        head.current = Math.max(head.current, Number(page.head ?? 0));
        release(page.records);
      })
      .catch(() => release([]));
  }, [channelId, queue]);

  useEffect(() => {
    if (!history.data) return;
    const first = !read.current;
    read.current = true;
    head.current = Math.max(head.current, Number(history.data.head ?? 0));
    const older = history.data.records.toSorted((a, b) => a.sent_at.localeCompare(b.sent_at));
    setMessages((prev) =>
      applyPublicEvents(
        [],
        [...older, ...prev].map((message) => ({ type: 'message' as const, message })),
        max,
      ),
    );
    // The socket opened before the history was read: whatever was stored in between is fetched now.
    if (first && opened.current) catchUp();
  }, [history.data, max, catchUp]);

  const onData = useCallback(
    (raw: string) => {
      const frame = parseFrame(raw, publicChatSocketMessageSchema);
      let event: PublicEvent | null = null;
      if (frame?.type === 'chat.message') {
        head.current = Math.max(head.current, frame.seq);
        event = { type: 'message', message: frame.data };
      } else if (frame?.type === 'chat.removed') event = { type: 'removed', ids: frame.data.ids };
      if (!event) return;
      if (held.current) held.current.push(event);
      else queue.push(event);
    },
    [queue],
  );

  // Every (re)connect, the first one too: the history may have been read before the socket opened, and what was
  // stored in between (the first message of an empty log too) reached no socket.
  const onOpen = useCallback(() => {
    opened.current = true;
    catchUp();
  }, [catchUp]);

  const notFound = isApiError(history.error, 404);
  const path = notFound ? null : `/api/2/public/channels/${encodeURIComponent(channelId)}/chat-ws`;
  const live = useLiveSocket(path, onData, {
    authenticated: false,
    onOpen,
  });

  return { messages, state: live.state, ended: live.ended, isPending: history.isPending, error: history.error, notFound };
}
