import { ActionIcon, Anchor, Badge, Box, Button, Center, Group, Paper, Stack, Switch, Text, Title, Tooltip } from '@mantine/core';
import { IconExternalLink, IconEye, IconPlayerPlay, IconZoomQuestion } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { WatchChannel, WatchPlatform } from '@greenroom/contracts/api/watch';
import { providers, streamProviderIds, type StreamProviderId } from '@greenroom/contracts/providers';
import { useAuthProviders } from '../../../api/get-auth-providers';
import { ErrorAlert } from '../../../components/error-alert';
import { FullHeightLoader } from '../../../components/full-height-loader';
import { PlayerFrame, TwitchPlayer } from '../../../components/live-player';
import { Logo } from '../../../components/logo';
import { PageState } from '../../../components/page-state';
import { ProviderIcon } from '../../../components/provider-icon';
import { isApiError } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/document-title';
import { duration, formatDate } from '../../../lib/format';
import { platformChannelUrl, platformLinks, watchPath, type PlatformLinks } from '../../../lib/platform-links';
import { useNow } from '../../../lib/use-now';
import { useWatchChannel } from '../api/get-watch-channel';
import classes from './watch-page.module.css';

const isStreamProvider = (value: string): value is StreamProviderId => (streamProviderIds as readonly string[]).includes(value);

function NotFound({ provider, name }: { provider: string; name: string }) {
  const platform = isStreamProvider(provider) ? providers[provider].name : null;
  return (
    <Box mih="100dvh">
      <Group h={50} px="md">
        <Logo />
      </Group>
      <PageState
        order={1}
        icon={<IconZoomQuestion size={30} />}
        title="Channel not found"
        description={
          platform
            ? `No Greenroom channel streams as "${name}" on ${platform}. Check the spelling of the link.`
            : `"${provider}" is not a streaming platform: watch pages exist for Twitch, YouTube, Kick and TikTok.`
        }
        action={
          <Button component={Link} to="/" variant="default">
            Go to Greenroom
          </Button>
        }
      />
    </Box>
  );
}

function Uptime({ since }: { since: string }) {
  const now = useNow(1000);
  return <>{duration((now - Date.parse(since)) / 1000)}</>;
}

/** The player of a live platform: Twitch's embed script, YouTube's embed, Kick's player, TikTok as a link. */
function LivePlayer({ platform: p, links }: { platform: WatchPlatform; links: PlatformLinks }) {
  const [muted, setMuted] = useState(true);
  const name = providers[p.provider].name;
  let player: ReactNode;
  switch (p.provider) {
    case 'twitch':
      player = <TwitchPlayer channel={p.provider_channel_name} script={links.twitchEmbedScript} />;
      break;
    case 'youtube':
      player = (
        <PlayerFrame
          src={p.live_stream_id ? links.youtubeEmbed(p.live_stream_id, muted) : links.youtubeChannelEmbed(p.provider_channel_id, muted)}
          title={`YouTube player: ${p.provider_channel_name}`}
        />
      );
      break;
    case 'kick':
      player = <PlayerFrame src={links.kickPlayer(p.provider_channel_name, muted)} title={`Kick player: ${p.provider_channel_name}`} />;
      break;
    case 'tiktok':
      player = (
        <PlayerBox>
          <ProviderIcon provider="tiktok" size={40} />
          <Text>TikTok LIVE cannot be played outside TikTok.</Text>
          <Button
            component="a"
            href={platformChannelUrl('tiktok', p)}
            target="_blank"
            rel="noopener noreferrer"
            leftSection={<IconPlayerPlay size={16} />}
            rightSection={<IconExternalLink size={14} />}
          >
            Watch on TikTok
          </Button>
        </PlayerBox>
      );
      break;
  }
  return (
    <Stack gap={6}>
      {player}
      {(p.provider === 'youtube' || p.provider === 'kick') && (
        <Switch size="xs" label={`${name} player muted`} checked={muted} onChange={(e) => setMuted(e.currentTarget.checked)} />
      )}
    </Stack>
  );
}

function PlayerBox({ children }: { children: ReactNode }) {
  return (
    <Box style={{ aspectRatio: '16 / 9' }} bg="dark.8">
      <Center h="100%" p="md">
        <Stack align="center" gap="sm" ta="center">
          {children}
        </Stack>
      </Center>
    </Box>
  );
}

/** Offline: the latest stream, and where the channel is live instead when it is. */
function Offline({ channel, liveElsewhere }: { channel: WatchChannel; liveElsewhere: WatchPlatform | undefined }) {
  const last = channel.last_stream;
  return (
    <PlayerBox>
      <Badge color="gray" variant="filled" size="lg">
        Offline
      </Badge>
      <Title order={2} size="h3">
        {channel.display_name} is offline
      </Title>
      {last ? (
        <Text c="dimmed" size="sm" data-testid="last-stream">
          Last stream on {providers[last.provider].name}: {formatDate(last.started_at)}
          {last.ended_at && ` · ${duration((Date.parse(last.ended_at) - Date.parse(last.started_at)) / 1000)}`}
          {last.peak_viewers !== null && ` · peak ${last.peak_viewers.toLocaleString('en-US')} viewers`}
        </Text>
      ) : (
        <Text c="dimmed" size="sm">
          No stream yet. Come back when the channel goes live.
        </Text>
      )}
      {liveElsewhere && (
        <Button
          component={Link}
          to={watchPath(liveElsewhere.provider, liveElsewhere.provider_channel_name)}
          color={providers[liveElsewhere.provider].color}
          leftSection={<ProviderIcon provider={liveElsewhere.provider} size={16} />}
        >
          Live now on {providers[liveElsewhere.provider].name}
        </Button>
      )}
    </PlayerBox>
  );
}

function StreamDetails({ platform: p }: { platform: WatchPlatform }) {
  return (
    <Stack gap={4}>
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <Title order={2} size="h4" style={{ overflowWrap: 'anywhere' }}>
          {p.title ?? (p.is_live ? 'Live now' : 'No title')}
        </Title>
      </Group>
      <Group gap="md" c="dimmed" fz="sm">
        {p.category && <Text size="sm">{p.category}</Text>}
        {p.is_live && p.viewer_count !== null && (
          <Group gap={4} wrap="nowrap">
            <IconEye size={14} aria-hidden />
            <Text size="sm">{p.viewer_count.toLocaleString('en-US')} viewers</Text>
          </Group>
        )}
        {p.is_live && p.live_since && (
          <Text size="sm" aria-label="Uptime">
            <Uptime since={p.live_since} />
          </Text>
        )}
      </Group>
    </Stack>
  );
}

/** Links to the channel on every platform: this page on another platform, or the platform itself. */
function Platforms({ channel }: { channel: WatchChannel }) {
  const all = [channel.platform, ...channel.others];
  return (
    <Paper withBorder p="sm" radius="md" component="section" aria-labelledby="watch-platforms">
      <Title order={2} size="h6" id="watch-platforms" mb="xs">
        {channel.others.length ? 'Also streaming on' : 'Streaming on'}
      </Title>
      <Stack gap={6}>
        {all.map((p) => {
          const current = p === channel.platform;
          const name = providers[p.provider].name;
          return (
            <Group key={`${p.provider}:${p.provider_channel_name}`} justify="space-between" wrap="nowrap" gap="xs">
              <Group gap="xs" wrap="nowrap" miw={0}>
                <ProviderIcon provider={p.provider} size={18} />
                {current ? (
                  <Text size="sm" fw={600} truncate>
                    {name} · {p.provider_channel_name}
                  </Text>
                ) : (
                  <Anchor component={Link} to={watchPath(p.provider, p.provider_channel_name)} size="sm" truncate>
                    {name} · {p.provider_channel_name}
                  </Anchor>
                )}
                {p.is_live ? (
                  <Badge color="red" size="xs" variant="filled">
                    Live
                  </Badge>
                ) : (
                  <Badge color="gray" size="xs" variant="light">
                    Offline
                  </Badge>
                )}
              </Group>
              <Tooltip label={`Open on ${name}`} withArrow>
                <ActionIcon
                  component="a"
                  href={platformChannelUrl(p.provider, p)}
                  target="_blank"
                  rel="noopener noreferrer"
                  variant="subtle"
                  color="gray"
                  aria-label={`Open on ${name}`}
                >
                  <IconExternalLink size={16} />
                </ActionIcon>
              </Tooltip>
            </Group>
          );
        })}
      </Stack>
    </Paper>
  );
}

/**
 * The public watch page (no sign-in): the channel's live player on the platform of the address beside the channel's
 * public chat of every platform; offline, the latest stream and where the channel is live instead.
 * `chat` renders the public chat of the channel (the route composes it: features do not import each other).
 */
export function WatchPage({ provider, name, chat }: { provider: string; name: string; chat: (channelId: string) => ReactNode }) {
  const known = isStreamProvider(provider);
  const query = useWatchChannel(provider, name, known);
  const mode = useAuthProviders();
  useDocumentTitle(query.data ? `${query.data.display_name} · Watch` : 'Watch');

  if (!known || isApiError(query.error, 404)) return <NotFound provider={provider} name={name} />;
  if (query.error && !query.data)
    return (
      <Box p="md">
        <ErrorAlert error={query.error} />
      </Box>
    );
  if (!query.data || !mode.data) return <FullHeightLoader label="Loading the channel" />;

  const channel = query.data;
  const p = channel.platform;
  const links = platformLinks(mode.data.platforms.emulator_url);
  const liveElsewhere = channel.others.find((o) => o.is_live);
  return (
    <div className={classes.page}>
      <header className={classes.header}>
        <Logo textVisibleFrom="sm" />
        <Title order={1} size="h4" style={{ minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
          {channel.display_name}
        </Title>
        <Badge
          color={p.is_live ? 'red' : 'gray'}
          variant={p.is_live ? 'filled' : 'light'}
          leftSection={<ProviderIcon provider={p.provider} size={12} />}
        >
          {p.is_live ? `Live on ${providers[p.provider].name}` : 'Offline'}
        </Badge>
      </header>
      <main className={classes.stage}>
        <Stack gap="md">
          {p.is_live ? <LivePlayer platform={p} links={links} /> : <Offline channel={channel} liveElsewhere={liveElsewhere} />}
          <Stack gap="md" px={{ base: 'sm', md: 0 }}>
            <StreamDetails platform={p} />
            <Platforms channel={channel} />
          </Stack>
        </Stack>
      </main>
      <aside className={classes.chat} aria-label="Chat">
        <Text fw={600} size="sm" px="sm" py={8} style={{ borderBottom: '1px solid var(--mantine-color-dark-4)' }}>
          Stream chat
        </Text>
        <div className={classes.chatBody}>{chat(channel.channel_id)}</div>
      </aside>
    </div>
  );
}
