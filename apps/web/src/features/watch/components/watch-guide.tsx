import { ActionIcon, Button, Code, CopyButton, Group, List, Paper, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy, IconExternalLink, IconEye, IconPlugConnected } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Channel } from '@greenroom/contracts/api/channels';
import { providers, streamProviderIds, type StreamProviderId } from '@greenroom/contracts/providers';
import { PageState } from '../../../components/page-state';
import { ProviderIcon } from '../../../components/provider-icon';
import { watchPath } from '../../../lib/platform-links';

const isStreamProvider = (value: string): value is StreamProviderId => (streamProviderIds as readonly string[]).includes(value);

const players: Record<StreamProviderId, string> = {
  twitch: 'the Twitch player',
  youtube: 'the YouTube live stream',
  kick: 'the Kick player',
  tiktok: 'a link to the TikTok LIVE (TikTok cannot be played outside TikTok)',
};

/**
 * "Viewer Watch": what the public watch page is, and its address on each streaming platform the channel has
 * connected, to copy or open.
 */
export function WatchGuide({ channel, canConnect }: { channel: Channel; canConnect: boolean }) {
  const streams = channel.providers.filter((p): p is typeof p & { provider: StreamProviderId } => isStreamProvider(p.provider));
  const origin = window.location.origin;
  return (
    <Stack gap="lg" p={{ base: 'md', sm: 'lg' }} maw={900}>
      <Stack gap={4}>
        <Title order={1} size="h2">
          Viewer Watch
        </Title>
        <Text c="dimmed">
          A public page where your viewers watch the stream and read the chat of every platform in one place. No sign-in: share the link on
          social media, in your Discord or in your profile.
        </Text>
      </Stack>

      <Paper withBorder radius="md" p="md" component="section" aria-labelledby="watch-what">
        <Title order={2} size="h4" id="watch-what" mb="xs">
          What viewers see
        </Title>
        <List spacing={4} size="sm">
          <List.Item>The live player of the platform in the link, muted until the viewer turns the sound on.</List.Item>
          <List.Item>The unified chat of all your platforms beside it (read-only, without removed messages).</List.Item>
          <List.Item>When you are offline: your last stream, and a button to the platform where you are live instead.</List.Item>
          <List.Item>Links to your channel on your other platforms.</List.Item>
        </List>
      </Paper>

      <Paper withBorder radius="md" p="md" component="section" aria-labelledby="watch-links">
        <Title order={2} size="h4" id="watch-links" mb="sm">
          Your watch links
        </Title>
        {streams.length === 0 ? (
          <PageState
            icon={<IconPlugConnected size={28} />}
            title="No streaming platform connected"
            description="Connect Twitch, YouTube, Kick or TikTok to get a watch link."
            action={
              canConnect ? (
                <Button component={Link} to={`/channels/${channel.id}/providers`} variant="light">
                  Connect a platform
                </Button>
              ) : (
                <Text size="sm">Ask an Admin of this channel to connect one.</Text>
              )
            }
          />
        ) : (
          <Stack gap="md">
            {streams.map((p) => {
              const url = `${origin}${watchPath(p.provider, p.provider_channel_name)}`;
              const name = providers[p.provider].name;
              return (
                <Stack key={p.provider} gap={4} data-provider={p.provider}>
                  <Group gap="xs">
                    <ProviderIcon provider={p.provider} size={18} />
                    <Text fw={600}>
                      {name} · {p.provider_channel_name}
                    </Text>
                  </Group>
                  <Text size="xs" c="dimmed">
                    Shows {players[p.provider]}.
                  </Text>
                  <Group gap="xs" wrap="nowrap">
                    <Code style={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }} aria-label={`${name} watch link`}>
                      {url}
                    </Code>
                    <CopyButton value={url} timeout={2000}>
                      {({ copied, copy }) => (
                        <Tooltip label={copied ? 'Copied' : 'Copy link'} withArrow>
                          <ActionIcon variant="default" size="lg" onClick={copy} aria-label={`Copy the ${name} watch link`}>
                            {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                          </ActionIcon>
                        </Tooltip>
                      )}
                    </CopyButton>
                    <Tooltip label="Open" withArrow>
                      <ActionIcon
                        component="a"
                        href={url}
                        target="_blank"
                        rel="noopener noreferrer"
                        variant="default"
                        size="lg"
                        aria-label={`Open the ${name} watch page`}
                      >
                        <IconExternalLink size={16} />
                      </ActionIcon>
                    </Tooltip>
                  </Group>
                </Stack>
              );
            })}
            <Text size="xs" c="dimmed">
              <IconEye size={12} style={{ verticalAlign: -2 }} aria-hidden /> Every link shows the same chat of all your platforms; the
              player is the one of the link&apos;s platform.
            </Text>
          </Stack>
        )}
      </Paper>
    </Stack>
  );
}
