import { Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconPlugConnectedX } from '@tabler/icons-react';
import { AccessLevel, hasLevel } from '@greenroom/contracts/access';
import type { Channel } from '@greenroom/contracts/api/channels';
import { ErrorAlert } from '../../../components/error-alert';
import { LiveStatus } from '../../../components/live-status';
import { PageState } from '../../../components/page-state';
import { useConnectChannelProvider } from '../hooks/use-connect-channel-provider';
import { useLiveChannelProviders } from '../../../api/live-channel-providers';
import { ConnectPlatforms } from './connect-platforms';
import { ProviderCard } from './provider-card';

/** `/channels/{channelId}/providers`: the channel's platforms, live, with connect and disconnect for Admins. */
export function ProvidersPage({ channel }: { channel: Channel }) {
  const list = useLiveChannelProviders(channel.id);
  const { connect, pending } = useConnectChannelProvider(channel.id);
  const canManage = hasLevel(channel.access_level, AccessLevel.ADMIN);
  const connected = list.data ?? [];

  return (
    <Stack gap="lg" p={{ base: 'md', sm: 'lg' }} maw={1200}>
      <Group justify="space-between" align="flex-start" gap="sm">
        <div>
          <Title order={1} size="h2">
            Platforms
          </Title>
          <Text c="dimmed" size="sm">
            The accounts {channel.display_name} streams and chats on. Greenroom keeps a live connection to each.
          </Text>
        </div>
        <LiveStatus state={list.live.state} />
      </Group>

      {list.isError && <ErrorAlert error={list.error} />}

      {list.isPending ? (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" aria-busy="true" aria-label="Loading platforms">
          <Skeleton h={150} radius="md" />
          <Skeleton h={150} radius="md" />
        </SimpleGrid>
      ) : (
        list.isSuccess &&
        (connected.length === 0 ? (
          <PageState
            icon={<IconPlugConnectedX size={28} />}
            color="orange"
            title="No platform connected"
            description={
              canManage
                ? 'Connect Twitch, YouTube, Kick, TikTok or Spotify below to bring their chat and events into Greenroom.'
                : 'An admin of this channel can connect its platforms.'
            }
          />
        ) : (
          <SimpleGrid
            component="ul"
            cols={{ base: 1, md: 2 }}
            spacing="md"
            p={0}
            m={0}
            style={{ listStyle: 'none' }}
            aria-label="Connected platforms"
          >
            {connected.map((p) => (
              <ProviderCard key={p.id} provider={p} canManage={canManage} connect={connect} pending={pending} />
            ))}
          </SimpleGrid>
        ))
      )}

      {canManage && list.isSuccess && <ConnectPlatforms connected={connected} connect={connect} pending={pending} />}
    </Stack>
  );
}
