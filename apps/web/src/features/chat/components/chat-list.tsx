import { Button, Center, Loader } from '@mantine/core';
import { IconArrowDown } from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useLayoutEffect, useRef, type MouseEvent, type ReactNode, type UIEvent } from 'react';
import type { ChatMessage } from '@greenroom/contracts/api/events';
import { entryKey, type ChatEntry } from '../hooks/message-buffer';
import { ChatGapRow } from './chat-gap-row';
import { ChatMessageRow, type MenuTarget } from './chat-message-row';
import classes from './chat-list.module.css';

/** How close to the bottom still counts as "at the bottom" (px). */
const BOTTOM_SLACK = 48;
/** How close to the top starts loading older history (px). */
const TOP_LOAD_THRESHOLD = 300;

interface ChatListProps {
  entries: ChatEntry[];
  paused: boolean;
  pendingCount: number;
  onPause: () => void;
  onResume: () => void;
  hasOlder: boolean;
  loadingOlder: boolean;
  onLoadOlder: () => void;
  highlightLogins: ReadonlySet<string>;
  revealed: ReadonlySet<string>;
  onReveal: (id: string) => void;
  onMenu: (message: ChatMessage, target: MenuTarget, event: MouseEvent<HTMLElement>) => void;
  canReveal: boolean;
  emptyState: ReactNode;
  /** Space kept free under the newest line (the toast stack above the composer), so toasts never cover it. */
  bottomInset?: number;
}

/**
 * The virtualized chat list. While live it sticks to the bottom; scrolling up pauses it (new messages wait
 * behind a "New messages" button); scrolling back to the bottom or the button resumes. Near the top it
 * asks for older history and keeps the visible lines in place when they arrive.
 */
export function ChatList(props: ChatListProps) {
  const { entries, paused, pendingCount, onPause, onResume, hasOlder, loadingOlder, onLoadOlder } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: entries.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 28,
    overscan: 12,
    getItemKey: (index) => entryKey(entries[index]!),
    paddingEnd: props.bottomInset ?? 0,
    // Row measurements are applied with the next render instead of a synchronous re-render each (flushSync),
    // which at 200 msgs/s doubled the renders of the list.
    useFlushSync: false,
  });

  // Keep the view pinned to the newest line while live.
  const totalSize = virtualizer.getTotalSize();
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el || paused) return;
    el.scrollTop = el.scrollHeight;
  }, [entries, totalSize, paused]);

  // When older lines are prepended, keep what the user is looking at in place.
  const firstId = entries[0] ? entryKey(entries[0]) : undefined;
  const previous = useRef<{ firstId?: string; height: number }>({ height: 0 });
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const before = previous.current;
    if (paused && before.firstId && firstId !== before.firstId && before.height > 0) {
      el.scrollTop += el.scrollHeight - before.height;
    }
    previous.current = { firstId, height: el.scrollHeight };
  }, [firstId, totalSize, paused]);

  const onScroll = useCallback(
    (event: UIEvent<HTMLDivElement>) => {
      const el = event.currentTarget;
      const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight <= BOTTOM_SLACK;
      if (atBottom && paused) onResume();
      else if (!atBottom && !paused) onPause();
      if (el.scrollTop < TOP_LOAD_THRESHOLD && hasOlder && !loadingOlder) onLoadOlder();
    },
    [paused, onPause, onResume, hasOlder, loadingOlder, onLoadOlder],
  );

  const jumpToLatest = () => {
    onResume();
    requestAnimationFrame(() => {
      const el = scrollRef.current;
      if (el) el.scrollTop = el.scrollHeight;
    });
  };

  const items = virtualizer.getVirtualItems();
  return (
    <div className={classes.wrap}>
      <div
        ref={scrollRef}
        className={classes.scroll}
        onScroll={onScroll}
        role="log"
        aria-live={paused ? 'off' : 'polite'}
        aria-relevant="additions"
        aria-label="Chat messages"
        tabIndex={0}
        data-paused={paused || undefined}
      >
        {entries.length === 0 ? (
          <div className={classes.empty}>{props.emptyState}</div>
        ) : (
          <div className={classes.inner} style={{ height: totalSize }}>
            {items.map((item) => {
              const entry = entries[item.index]!;
              return (
                <div
                  key={item.key}
                  data-index={item.index}
                  ref={virtualizer.measureElement}
                  className={classes.item}
                  style={{ transform: `translateY(${item.start}px)` }}
                >
                  {entry.kind === 'gap' ? (
                    <ChatGapRow gap={entry.gap} />
                  ) : (
                    <ChatMessageRow
                      entry={entry}
                      highlightLogins={props.highlightLogins}
                      revealed={props.revealed.has(entry.message.id)}
                      onReveal={props.onReveal}
                      onMenu={props.onMenu}
                      canReveal={props.canReveal}
                    />
                  )}
                </div>
              );
            })}
          </div>
        )}
      </div>
      {loadingOlder && (
        <Center className={classes.older}>
          <Loader size="xs" type="dots" aria-label="Loading older messages" />
        </Center>
      )}
      {paused && (
        <div className={classes.jump}>
          <Button size="xs" radius="xl" leftSection={<IconArrowDown size={14} />} onClick={jumpToLatest}>
            {pendingCount > 0 ? `New messages (${pendingCount.toLocaleString('en-US')})` : 'Paused — back to live'}
          </Button>
        </div>
      )}
    </div>
  );
}
