import { startTransition, useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { chatSocketMessageSchema, type ChatSocketMessage } from '@greenroom/contracts/api/chat';
import type { ChatGap, ChatIngestStatus, ChatMessage, ModerationEvent } from '@greenroom/contracts/api/events';
import { parseFrame, useLiveSocket } from '../../../lib/live-socket';
import { getChatHistory, getChatHistoryQueryOptions, useChatHistory } from '../api/get-chat-history';
import { FrameQueue } from '../../../lib/frame-queue';
import { bufferSize, CHAT_BUFFER_CAP, createBuffer, messageBufferReducer } from './message-buffer';

/**
 * At most this many list updates per second under load (a quiet chat still updates on the next frame).
 * At 200 msgs/s a render per animation frame (60/s) kept the main thread saturated — list render, row
 * mounts and the layout they force each time — and tasks ran over 50 ms; ~10 larger batches a second do not.
 */
const LIVE_UPDATE_INTERVAL_MS = 100;
/** A reconnect's catch-up reads at most this many pages of 500 (the buffer's size); beyond, the view starts afresh. */
const CATCH_UP_PAGES = CHAT_BUFFER_CAP / 500;

type LiveEvent = Extract<ChatSocketMessage, { type: 'chat.message' | 'chat.moderation' | 'chat.gap' | 'chat.ingest_status' }>;

/** Parses one socket frame; anything that is not a chat message, moderation event, gap or chat log status is ignored here. */
export function parseChatFrame(raw: string): LiveEvent | null {
  const frame = parseFrame(raw, chatSocketMessageSchema);
  switch (frame?.type) {
    case 'chat.message':
    case 'chat.moderation':
    case 'chat.gap':
    case 'chat.ingest_status':
      return frame;
    default:
      return null;
  }
}

/**
 * The live chat of a channel: history from the chat log plus the staff websocket, merged into one capped
 * buffer. Socket frames are coalesced into one state update per animation frame, at most every
 * LIVE_UPDATE_INTERVAL_MS. After a reconnect, what was stored meanwhile is fetched by position (`after` the
 * newest seen) and shown before the frames that arrived since: no silent gap, no duplicate.
 */
export function useChatFeed(channelId: string, cap: number = CHAT_BUFFER_CAP) {
  const queryClient = useQueryClient();
  const [buffer, dispatch] = useReducer(messageBufferReducer, cap, createBuffer);
  const [ingest, setIngest] = useState<ChatIngestStatus | null>(null);
  const [queue] = useState(
    () =>
      new FrameQueue<LiveEvent>(
        (batch) => {
          const messages: ChatMessage[] = [];
          const moderation: ModerationEvent[] = [];
          const gaps: ChatGap[] = [];
          let status: ChatIngestStatus | null = null;
          for (const event of batch) {
            if (event.type === 'chat.message') messages.push(event.data);
            else if (event.type === 'chat.moderation') moderation.push(event.data);
            else if (event.type === 'chat.gap') gaps.push(event.data);
            else status = event.data;
          }
          if (status) setIngest(status);
          // A transition: React renders the list in interruptible slices instead of one long task.
          if (messages.length || moderation.length || gaps.length)
            startTransition(() => dispatch({ type: 'live', messages, moderation, gaps }));
        },
        { maxSize: cap * 2, minIntervalMs: LIVE_UPDATE_INTERVAL_MS },
      ),
  );
  useEffect(() => () => queue.dispose(), [queue]);

  /** The newest stored position seen (history and frames); 0 = none yet (or the log was empty when read). */
  const head = useRef(0);
  /** The first history page is shown: `head` is where the view's log ends, even when it is 0 (an empty log). */
  const read = useRef(false);
  const opened = useRef(false);
  /** Frames held while a catch-up is fetched. */
  const held = useRef<LiveEvent[] | null>(null);

  const onData = useCallback(
    (raw: string) => {
      const event = parseChatFrame(raw);
      if (!event) return;
      if (event.type === 'chat.message') head.current = Math.max(head.current, event.seq);
      if (held.current) held.current.push(event);
      else queue.push(event);
    },
    [queue],
  );

  const catchUp = useCallback(async () => {
    let after = String(head.current);
    for (let page = 0; page < CATCH_UP_PAGES; page++) {
      const got = await getChatHistory(channelId, { after, limit: 500 });
      if (got.records.length || got.gaps.length) dispatch({ type: 'live', messages: got.records, gaps: got.gaps });
      head.current = Math.max(head.current, Number(got.head ?? 0));
      if (!got.cursor) return true;
      after = got.cursor;
    }
    return false;
  }, [channelId]);

  const appliedPages = useRef(0);
  /** Fetches what was stored after the newest position seen, holding new frames until it is shown. */
  const startCatchUp = useCallback(() => {
    if (!read.current || held.current) return;
    held.current = [];
    const release = () => {
      const frames = held.current ?? [];
      held.current = null;
      for (const frame of frames) queue.push(frame);
    };
    catchUp()
      .then((complete) => {
        if (complete) return;
        // Away for longer than the view holds: start from the newest log again.
        dispatch({ type: 'reset' });
        head.current = 0;
        read.current = false;
        appliedPages.current = 0;
        void queryClient.resetQueries({ queryKey: getChatHistoryQueryOptions(channelId).queryKey, exact: true });
      })
      .catch(() => undefined)
      .finally(release);
  }, [catchUp, channelId, queryClient, queue]);

  // Every (re)connect, the first one too: the history may have been read before the socket opened, and what was
  // stored in between (the first message of an empty log too) reached no socket.
  const onOpen = useCallback(() => {
    opened.current = true;
    startCatchUp();
  }, [startCatchUp]);

  const live = useLiveSocket(`/api/2/channels/${encodeURIComponent(channelId)}/chat-ws`, onData, { authenticated: true, onOpen });

  const history = useChatHistory(channelId);
  useEffect(() => {
    const pages = history.data?.pages ?? [];
    if (pages.length < appliedPages.current) appliedPages.current = 0;
    const first = appliedPages.current === 0 && pages.length > 0;
    for (let i = appliedPages.current; i < pages.length; i += 1) {
      const page = pages[i]!;
      if (i === 0) head.current = Math.max(head.current, Number(page.head ?? 0));
      dispatch({ type: 'history', messages: page.records, gaps: page.gaps });
    }
    appliedPages.current = pages.length;
    if (first) read.current = true;
    // The socket opened before this page was read: whatever was stored in between is fetched now.
    if (first && opened.current) startCatchUp();
  }, [history.data, startCatchUp]);

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
    state: live.state,
    ended: live.ended,
    /** The chat log's state when it is not keeping up (null: fine). */
    ingest,
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
