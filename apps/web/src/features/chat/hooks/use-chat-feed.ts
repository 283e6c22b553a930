import { startTransition, useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { chatSocketMessageSchema, type ChatSocketMessage } from '@greenroom/contracts/api/chat';
import type { ChatMessage, ModerationEvent } from '@greenroom/contracts/api/events';
import { parseFrame, useLiveSocket } from '../../../lib/live-socket';
import { useChatHistory } from '../api/get-chat-history';
import { FrameQueue } from '../../../lib/frame-queue';
import { bufferSize, CHAT_BUFFER_CAP, createBuffer, messageBufferReducer } from './message-buffer';

/**
 * At most this many list updates per second under load (a quiet chat still updates on the next frame).
 * At 200 msgs/s a render per animation frame (60/s) kept the main thread saturated — list render, row
 * mounts and the layout they force each time — and tasks ran over 50 ms; ~10 larger batches a second do not.
 */
const LIVE_UPDATE_INTERVAL_MS = 100;

type LiveEvent = Extract<ChatSocketMessage, { type: 'chat.message' | 'chat.moderation' }>;

/** Parses one socket frame; anything that is not a chat message or moderation event is ignored here. */
export function parseChatFrame(raw: string): LiveEvent | null {
  const frame = parseFrame(raw, chatSocketMessageSchema);
  return frame?.type === 'chat.message' || frame?.type === 'chat.moderation' ? frame : null;
}

/**
 * The live chat of a channel: history from the chat log plus the staff websocket, merged into one capped
 * buffer. Socket frames are coalesced into one state update per animation frame, at most every LIVE_UPDATE_INTERVAL_MS.
 */
export function useChatFeed(channelId: string, cap: number = CHAT_BUFFER_CAP) {
  const [buffer, dispatch] = useReducer(messageBufferReducer, cap, createBuffer);
  const [queue] = useState(
    () =>
      new FrameQueue<LiveEvent>(
        (batch) => {
          const messages: ChatMessage[] = [];
          const moderation: ModerationEvent[] = [];
          for (const event of batch) {
            if (event.type === 'chat.message') messages.push(event.data);
            else moderation.push(event.data);
          }
          // A transition: React renders the list in interruptible slices instead of one long task.
          startTransition(() => dispatch({ type: 'live', messages, moderation }));
        },
        { maxSize: cap * 2, minIntervalMs: LIVE_UPDATE_INTERVAL_MS },
      ),
  );
  useEffect(() => () => queue.dispose(), [queue]);

  const onData = useCallback(
    (raw: string) => {
      const event = parseChatFrame(raw);
      if (event) queue.push(event);
    },
    [queue],
  );
  const state = useLiveSocket(`/api/2/channels/${encodeURIComponent(channelId)}/chat-ws`, onData, { authenticated: true });

  const history = useChatHistory(channelId);
  const appliedPages = useRef(0);
  useEffect(() => {
    const pages = history.data?.pages ?? [];
    for (let i = appliedPages.current; i < pages.length; i += 1) dispatch({ type: 'history', messages: pages[i]!.records });
    appliedPages.current = pages.length;
  }, [history.data]);

  const full = bufferSize(buffer) >= cap;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = history;
  const loadOlder = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage && !full) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, full]);

  return {
    buffer,
    pause: useCallback(() => dispatch({ type: 'pause' }), []),
    resume: useCallback(() => dispatch({ type: 'resume' }), []),
    /** Applies a moderation result locally right away (the socket confirms it later). */
    applyModeration: useCallback((event: ModerationEvent) => dispatch({ type: 'moderation', events: [event] }), []),
    state,
    history: {
      isPending: history.isPending,
      isError: history.isError,
      error: history.error,
      refetch: history.refetch,
      hasOlder: Boolean(hasNextPage) && !full,
      isLoadingOlder: isFetchingNextPage,
      loadOlder,
    },
  };
}
