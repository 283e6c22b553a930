import { Center, Loader, Text } from '@mantine/core';
import { useLayoutEffect, useMemo, useRef } from 'react';
import type { PublicChatMessage } from '@greenroom/contracts/api/chat';
import { providers } from '@greenroom/contracts/providers';
import { ChatMessageBody } from '../../../components/chat-message-body';
import { ProviderIcon } from '../../../components/provider-icon';
import { errorMessage } from '../../../lib/error-message';
import { liveEndedMessage } from '../../../lib/live-socket';
import { authorColor } from '../../../lib/chat-colors';
import { segmentMessage } from '../../../lib/chat-segments';
import { useTransparentCanvas } from '../../../lib/use-transparent-canvas';
import type { PublicChatOptions } from '../hooks/public-chat-options';
import { usePublicChatFeed } from '../hooks/use-public-chat-feed';
import classes from './public-chat.module.css';

function PublicLine({ message, fontSize }: { message: PublicChatMessage; fontSize: number }) {
  const segments = useMemo(() => segmentMessage(message.text, message.emotes), [message.text, message.emotes]);
  const info = providers[message.provider];
  return (
    <div className={classes.line} data-provider={message.provider}>
      <span className={classes.platform} style={{ color: `var(--mantine-color-${info.color}-5)` }} title={info.name}>
        <ProviderIcon provider={message.provider} size={Math.round(fontSize * 1.05)} />
      </span>
      <span className={classes.author} style={{ color: authorColor(message.author.display_name, message.author.color) }}>
        {message.author.display_name}
      </span>
      <span className={classes.colon}>: </span>
      {message.highlight && <span className={classes.highlight}>{message.highlight} </span>}
      <span className={classes.text}>
        <ChatMessageBody segments={segments} emoteHeight={Math.round(fontSize * 1.75)} />
      </span>
    </div>
  );
}

/**
 * The public, read-only chat for OBS docks and overlays (no moderation, no staff data). `panel`: inside a page (the
 * watch page) — it fills its box and scrolls itself, following new lines while the reader is at the bottom.
 */
export function PublicChat({ channelId, options, panel = false }: { channelId: string; options: PublicChatOptions; panel?: boolean }) {
  const feed = usePublicChatFeed(channelId, options.max);
  const shown = useMemo(
    () => (options.providers.length === 0 ? feed.messages : feed.messages.filter((m) => options.providers.includes(m.provider))),
    [feed.messages, options.providers],
  );
  const Root = panel ? 'section' : 'main';
  const bottom = useRef<HTMLDivElement>(null);
  const root = useRef<HTMLElement>(null);
  const following = useRef(true);

  useTransparentCanvas(options.transparent);

  useLayoutEffect(() => {
    const box = root.current;
    if (!panel) bottom.current?.scrollIntoView({ block: 'end' });
    else if (box && following.current) box.scrollTop = box.scrollHeight;
  }, [shown, panel]);

  return (
    <Root
      ref={root}
      className={classes.root}
      data-panel={panel || undefined}
      onScroll={
        panel
          ? (e: React.UIEvent<HTMLElement>) => {
              const box = e.currentTarget;
              following.current = box.scrollHeight - box.scrollTop - box.clientHeight < 48;
            }
          : undefined
      }
      data-transparent={options.transparent || undefined}
      style={{ fontSize: options.fontSize }}
      aria-label="Chat"
      data-state={feed.state}
    >
      {feed.isPending && shown.length === 0 && (
        <Center p="md">
          <Loader type="dots" aria-label="Loading chat" />
        </Center>
      )}
      {feed.ended !== null && (
        <Text c="dimmed" p="md" className={classes.text} role="status">
          {liveEndedMessage(feed.ended)}
        </Text>
      )}
      {feed.error && shown.length === 0 && (
        <Text c="red.4" p="md" className={classes.text} role="alert">
          {errorMessage(feed.error)}
        </Text>
      )}
      <div role="log" aria-live="polite" className={classes.list}>
        {shown.map((message) => (
          <PublicLine key={message.id} message={message} fontSize={options.fontSize} />
        ))}
      </div>
      <div ref={bottom} />
    </Root>
  );
}
