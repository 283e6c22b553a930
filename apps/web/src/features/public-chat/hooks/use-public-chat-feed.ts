import { useCallback, useEffect, useState } from 'react';
import { publicChatSocketMessageSchema, type PublicChatMessage } from '@greenroom/contracts/api/chat';
import { isApiError } from '../../../lib/api-client';
import { FrameQueue } from '../../../lib/frame-queue';
import { parseFrame, useLiveSocket } from '../../../lib/live-socket';
import { usePublicChat } from '../api/get-public-chat';

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
 * Public popout chat: recent history plus the public websocket, newest `max` messages. The socket reconnects
 * forever, except for a channel that does not exist (its history answered 404): then it stops.
 */
export function usePublicChatFeed(channelId: string, max: number) {
  const history = usePublicChat(channelId);
  const [messages, setMessages] = useState<PublicChatMessage[]>([]);
  const [queue] = useState(
    () => new FrameQueue<PublicEvent>((batch) => setMessages((prev) => applyPublicEvents(prev, batch, max)), { maxSize: 2000 }),
  );
  useEffect(() => () => queue.dispose(), [queue]);

  useEffect(() => {
    if (!history.data) return;
    const older = history.data.toSorted((a, b) => a.sent_at.localeCompare(b.sent_at));
    setMessages((prev) =>
      applyPublicEvents(
        [],
        [...older, ...prev].map((message) => ({ type: 'message' as const, message })),
        max,
      ),
    );
  }, [history.data, max]);

  const onData = useCallback(
    (raw: string) => {
      const frame = parseFrame(raw, publicChatSocketMessageSchema);
      if (frame?.type === 'chat.message') queue.push({ type: 'message', message: frame.data });
      else if (frame?.type === 'chat.removed') queue.push({ type: 'removed', ids: frame.data.ids });
    },
    [queue],
  );
  const notFound = isApiError(history.error, 404);
  const path = notFound ? null : `/api/2/public/channels/${encodeURIComponent(channelId)}/chat-ws`;
  const state = useLiveSocket(path, onData, { authenticated: false });

  return { messages, state, isPending: history.isPending, error: history.error, notFound };
}
