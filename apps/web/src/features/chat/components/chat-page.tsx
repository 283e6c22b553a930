import { ActionIcon, Alert, Button, Center, Chip, Group, Loader, TextInput, Title, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconAlertTriangle, IconBroadcast, IconExternalLink, IconMessages, IconPlugConnectedX, IconSearch } from '@tabler/icons-react';
import { lazy, memo, Suspense, useCallback, useMemo, useRef, useState, type MouseEvent } from 'react';
import { AccessLevel, hasLevel } from '@greenroom/contracts/access';
import type { Channel } from '@greenroom/contracts/api/channels';
import type { ChannelProvider } from '@greenroom/contracts/api/channel-providers';
import type { ChatIngestStatus, ChatMessage } from '@greenroom/contracts/api/events';
import { providers, type ChannelProviderId } from '@greenroom/contracts/providers';
import { ErrorAlert } from '../../../components/error-alert';
import { LiveStatus } from '../../../components/live-status';
import { PageState } from '../../../components/page-state';
import { ProviderIcon } from '../../../components/provider-icon';
import { openPopout, popoutPaths } from '../../../lib/popout';
import { useToastsAbove, useToastStackHeight } from '../../../lib/toast-space';
import { liveEndedMessage } from '../../../lib/live-socket';
import { duration } from '../../../lib/format';
import { useLiveChannelProviders } from '../../../api/live-channel-providers';
import { useChatFeed } from '../hooks/use-chat-feed';
import { useModeration } from '../hooks/use-moderation';
import { useModerationMenu } from '../hooks/use-moderation-menu';
import type { ChatEntry } from '../hooks/message-buffer';
import { ChatList } from './chat-list';
import type { MenuTarget } from './chat-message-row';
import { PlatformStates } from './platform-states';
import classes from './chat-page.module.css';

/**
 * The composer (and the form library it brings) loads beside the page, not before it: the list is what the page shows
 * first; the composer's place shows a loader for the moment it takes.
 */
const ChatComposer = lazy(() => import('./chat-composer').then((m) => ({ default: m.ChatComposer })));

function matches(entry: ChatEntry, platforms: ReadonlySet<string> | null, query: string): boolean {
  if (entry.kind === 'gap') return !query && (!platforms || platforms.has(entry.gap.provider));
  const m = entry.message;
  if (platforms && !platforms.has(m.provider)) return false;
  if (!query) return true;
  return (
    m.text.toLowerCase().includes(query) ||
    m.author.display_name.toLowerCase().includes(query) ||
    m.author.login.toLowerCase().includes(query)
  );
}

interface ChatToolbarProps {
  channelId: string;
  /** In its own window already: no "Pop out chat". */
  popout: boolean;
  socketState: ReturnType<typeof useChatFeed>['state'];
  channelProviders: ChannelProvider[] | undefined;
  chatPlatforms: ChannelProviderId[];
  platformFilter: string[];
  onPlatformFilter: (value: string[]) => void;
  search: string;
  onSearch: (value: string) => void;
}

/** Title, connection state, platform filter and search. Memoized: the live list re-renders many times a second, this does not. */
const ChatToolbar = memo(function ChatToolbar({
  channelId,
  popout,
  socketState,
  channelProviders,
  chatPlatforms,
  platformFilter,
  onPlatformFilter,
  search,
  onSearch,
}: ChatToolbarProps) {
  return (
    <div className={classes.toolbar}>
      <Group gap="sm" wrap="wrap">
        <Title order={1} size="h4">
          Chat
        </Title>
        <LiveStatus state={socketState} />
        {!popout && (
          <Tooltip label="Pop out chat">
            <ActionIcon
              variant="subtle"
              color="gray"
              aria-label="Pop out chat"
              onClick={() => openPopout(popoutPaths.chat(channelId), `chat-${channelId}`, { width: 480, height: 820 })}
            >
              <IconExternalLink size={16} />
            </ActionIcon>
          </Tooltip>
        )}
        <Tooltip label="Public chat for OBS (no sign-in; copy its address into a browser source)">
          <ActionIcon
            variant="subtle"
            color="gray"
            aria-label="Open the public chat popout"
            onClick={() => openPopout(popoutPaths.publicChat(channelId), `public-chat-${channelId}`, { width: 420, height: 720 })}
          >
            <IconBroadcast size={16} />
          </ActionIcon>
        </Tooltip>
        {channelProviders && <PlatformStates channelProviders={channelProviders} />}
      </Group>
      <Group gap="xs" wrap="wrap" className={classes.filters}>
        {chatPlatforms.length > 1 && (
          <Chip.Group multiple value={platformFilter} onChange={onPlatformFilter}>
            <Group gap={6} role="group" aria-label="Filter by platform">
              {chatPlatforms.map((id) => (
                <Chip
                  key={id}
                  value={id}
                  size="xs"
                  color={providers[id].color}
                  variant="light"
                  icon={<ProviderIcon provider={id} size={12} />}
                >
                  {providers[id].name}
                </Chip>
              ))}
            </Group>
          </Chip.Group>
        )}
        <TextInput
          size="xs"
          leftSection={<IconSearch size={14} aria-hidden />}
          placeholder="Search loaded chat"
          aria-label="Search loaded chat"
          value={search}
          onChange={(e) => onSearch(e.currentTarget.value)}
          className={classes.search}
        />
      </Group>
    </div>
  );
});

interface ChatFooterProps {
  isError: boolean;
  error: unknown;
  channel: Channel;
  channelProviders: ChannelProvider[] | undefined;
  replyTo: ChatMessage | null;
  onCancelReply: () => void;
}

/** The composer (or why it is not there). Memoized for the same reason as the toolbar. Toasts stay above it. */
const ChatFooter = memo(function ChatFooter({ isError, error, channel, channelProviders, replyTo, onCancelReply }: ChatFooterProps) {
  const footer = useRef<HTMLDivElement>(null);
  useToastsAbove(footer);
  const loading = (label: string) => (
    <Center p="sm">
      <Loader size="xs" type="dots" aria-label={label} />
    </Center>
  );
  let content;
  if (isError) content = <ErrorAlert error={error} m="xs" />;
  else if (channelProviders)
    content = (
      <Suspense fallback={loading('Loading the composer')}>
        <ChatComposer channel={channel} channelProviders={channelProviders} replyTo={replyTo} onCancelReply={onCancelReply} />
      </Suspense>
    );
  else content = loading('Loading platforms');
  return <div ref={footer}>{content}</div>;
});

/**
 * The chat log cannot keep up (the database is not answering): chat is held and shows once saved; and
 * what could not be held is counted. Never silent.
 */
const IngestAlert = memo(function IngestAlert({ status }: { status: ChatIngestStatus | null }) {
  const [dismissedLost, setDismissedLost] = useState(0);
  if (!status) return null;
  if (status.state === 'delayed') {
    const since = (Date.now() - Date.parse(status.since)) / 1000;
    return (
      <Alert color="yellow" variant="light" radius={0} py={6} icon={<IconAlertTriangle size={16} />} role="status" title="Chat is delayed">
        Greenroom cannot save chat right now (for {duration(since)}). {status.held.toLocaleString('en-US')} messages are held and appear
        here once saved.
        {status.lost > 0 && ` ${status.lost.toLocaleString('en-US')} could not be held and are lost.`}
      </Alert>
    );
  }
  if (status.lost > dismissedLost) {
    return (
      <Alert
        color="red"
        variant="light"
        radius={0}
        py={6}
        icon={<IconAlertTriangle size={16} />}
        role="alert"
        title="Messages lost"
        withCloseButton
        closeButtonLabel="Dismiss"
        onClose={() => setDismissedLost(status.lost)}
      >
        {status.lost.toLocaleString('en-US')} messages arrived while Greenroom could not save them and are missing from the chat. A line in
        the chat marks when.
      </Alert>
    );
  }
  return null;
});

/** `/channels/:channelId/chat` (and its popout): every platform's chat in one live list, with moderation and a composer. */
export function ChatPage({ channel, popout = false }: { channel: Channel; popout?: boolean }) {
  const feed = useChatFeed(channel.id);
  const channelProviders = useLiveChannelProviders(channel.id);
  const canModerate = hasLevel(channel.access_level, AccessLevel.MOD);
  const moderation = useModeration(feed.applyModeration);
  const [replyTo, setReplyTo] = useState<ChatMessage | null>(null);
  const onCancelReply = useCallback(() => setReplyTo(null), []);
  // The live list holds still while a message menu is open, so its line stays where it was clicked.
  const pausedForMenu = useRef(false);
  const { pause, resume } = feed;
  const livePaused = feed.buffer.paused;
  const onMenuOpenChange = useCallback(
    (open: boolean) => {
      if (open && !livePaused) {
        pausedForMenu.current = true;
        pause();
      } else if (!open && pausedForMenu.current) {
        pausedForMenu.current = false;
        resume();
      }
    },
    [livePaused, pause, resume],
  );
  const { onContextMenu, openFromButton, menu } = useModerationMenu({
    moderation,
    canModerate,
    onReply: setReplyTo,
    onOpenChange: onMenuOpenChange,
  });
  const toastHeight = useToastStackHeight();

  const chatPlatforms = useMemo(() => {
    const ids = new Set<ChannelProviderId>();
    for (const p of channelProviders.data ?? channel.providers) if (providers[p.provider].chatRead) ids.add(p.provider);
    return [...ids];
  }, [channelProviders.data, channel.providers]);
  const [platformFilter, setPlatformFilter] = useState<string[]>([]);
  const [search, setSearch] = useState('');
  const [query] = useDebouncedValue(search.trim().toLowerCase(), 150);
  const highlightLogins = useMemo(() => new Set(channel.providers.map((p) => p.provider_channel_name.toLowerCase())), [channel.providers]);
  const [revealed, setRevealed] = useState<ReadonlySet<string>>(new Set());
  const onReveal = useCallback((id: string) => setRevealed((prev) => new Set(prev).add(id)), []);

  const { items, pending, paused } = feed.buffer;
  const filtering = platformFilter.length > 0 || query.length > 0;
  const entries = useMemo(() => {
    if (!filtering) return items;
    const set = platformFilter.length > 0 ? new Set(platformFilter) : null;
    return items.filter((entry) => matches(entry, set, query));
  }, [items, filtering, platformFilter, query]);

  const onMenu = useCallback(
    (message: ChatMessage, target: MenuTarget, event: MouseEvent<HTMLElement>) => {
      const subject = {
        channelId: channel.id,
        provider: message.provider,
        channelProviderId: message.channel_provider_id,
        author: message.author,
        message: target === 'author' ? undefined : message,
      };
      if (event.type === 'contextmenu') onContextMenu(subject, event);
      else openFromButton(subject, event);
    },
    [channel.id, onContextMenu, openFromButton],
  );

  let emptyState;
  if (feed.history.isPending) {
    emptyState = (
      <Center h="100%" mih={200}>
        <Loader type="dots" aria-label="Loading chat" />
      </Center>
    );
  } else if (feed.history.isError) {
    emptyState = (
      <ErrorAlert error={feed.history.error} m="md">
        <Button size="xs" variant="light" color="red" mt="sm" onClick={() => void feed.history.refetch()}>
          Try again
        </Button>
      </ErrorAlert>
    );
  } else if (filtering) {
    emptyState = (
      <PageState
        icon={<IconSearch size={28} />}
        title="No matching messages"
        description="Nothing in the loaded chat matches these filters."
      />
    );
  } else {
    emptyState = (
      <PageState
        icon={<IconMessages size={28} />}
        title="No messages yet"
        description={
          chatPlatforms.length === 0
            ? 'Connect a platform to see its chat here.'
            : 'Messages from every connected platform appear here as they arrive.'
        }
      />
    );
  }

  return (
    <div className={classes.page} data-popout={popout || undefined}>
      <ChatToolbar
        channelId={channel.id}
        popout={popout}
        socketState={feed.state}
        channelProviders={channelProviders.data}
        chatPlatforms={chatPlatforms}
        platformFilter={platformFilter}
        onPlatformFilter={setPlatformFilter}
        search={search}
        onSearch={setSearch}
      />
      {feed.ended !== null && (
        <Alert color="gray" variant="light" radius={0} py={6} icon={<IconPlugConnectedX size={16} />} role="alert">
          {liveEndedMessage(feed.ended)}
        </Alert>
      )}
      <IngestAlert status={feed.ingest} />
      <ChatList
        entries={entries}
        paused={paused}
        pendingCount={pending.length}
        onPause={feed.pause}
        onResume={feed.resume}
        hasOlder={feed.history.hasOlder}
        loadingOlder={feed.history.isLoadingOlder}
        onLoadOlder={feed.history.loadOlder}
        highlightLogins={highlightLogins}
        revealed={revealed}
        onReveal={onReveal}
        onMenu={onMenu}
        canReveal={canModerate}
        emptyState={emptyState}
        bottomInset={toastHeight}
      />
      {menu}
      <ChatFooter
        isError={channelProviders.isError}
        error={channelProviders.error}
        channel={channel}
        channelProviders={channelProviders.data}
        replyTo={replyTo}
        onCancelReply={onCancelReply}
      />
    </div>
  );
}
