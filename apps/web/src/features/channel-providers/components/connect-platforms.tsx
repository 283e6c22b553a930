import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { channelProviderIds, providers, type ChannelProviderId } from '@greenroom/contracts/providers';
import type { ChannelProvider } from '@greenroom/contracts/api/channel-providers';
import { ProviderIcon } from '../../../components/provider-icon';
import type { ChannelConnectTarget } from '../hooks/use-connect-channel-provider';

const purpose: Record<ChannelProviderId, string> = {
  twitch: 'Chat, moderation, events, title and category',
  youtube: 'Live chat, moderation, Super Chats, title and category',
  kick: 'Chat, moderation, events, title and category',
  tiktok: 'LIVE chat, gifts and follows (read only)',
  spotify: 'Now playing and song requests',
};

/** One "Connect" button per platform the channel has not connected yet (Admin+). */
export function ConnectPlatforms({
  connected,
  connect,
  pending,
}: {
  connected: ChannelProvider[];
  connect: (target: ChannelConnectTarget) => Promise<void>;
  pending: ChannelConnectTarget | null;
}) {
  const available = channelProviderIds.filter((id) => !connected.some((p) => p.provider === id));
  if (available.length === 0) return null;
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="connect-title">
      <Stack gap="sm">
        <div>
          <Title order={2} size="h4" id="connect-title">
            Connect a platform
          </Title>
          <Text size="sm" c="dimmed">
            Sign in with the platform account of the channel. A window opens for the platform&apos;s consent page.
          </Text>
        </div>
        <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
          {available.map((id) => (
            <Group key={id} component="li" justify="space-between" wrap="nowrap" gap="sm" aria-label={providers[id].name}>
              <Group gap="sm" wrap="nowrap" miw={0} style={{ flex: 1 }}>
                <ProviderIcon provider={id} size={24} color={`var(--mantine-color-${providers[id].color}-5)`} />
                <div style={{ minWidth: 0 }}>
                  <Text fw={600} size="sm">
                    {providers[id].name}
                  </Text>
                  <Text size="xs" c="dimmed" truncate>
                    {purpose[id]}
                  </Text>
                </div>
              </Group>
              <Button
                size="xs"
                style={{ flexShrink: 0 }}
                color={providers[id].color}
                leftSection={<ProviderIcon provider={id} size={14} />}
                loading={pending?.provider === id && !pending.bot}
                onClick={() => void connect({ provider: id, bot: false })}
                aria-label={`Connect ${providers[id].name}`}
              >
                Connect
              </Button>
            </Group>
          ))}
        </Stack>
      </Stack>
    </Paper>
  );
}
