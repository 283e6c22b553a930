import { Card, Group, Stack, Text } from '@mantine/core';
import { IconChevronRight } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Channel } from '@greenroom/contracts/api/channels';
import { ProviderBadge } from '../../../components/provider-badge';
import { RoleBadge } from '../../../components/role-badge';
import { formatDate } from '../../../lib/format';

export function ChannelCard({ channel }: { channel: Channel }) {
  return (
    <Card
      component={Link}
      to={`/channels/${channel.id}`}
      withBorder
      radius="md"
      padding="md"
      className="gr-card-link"
      aria-label={channel.display_name}
    >
      <Stack gap="sm" h="100%" justify="space-between">
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Text fw={600} truncate>
            {channel.display_name}
          </Text>
          <Group gap={6} wrap="nowrap">
            <RoleBadge level={channel.access_level} />
            <IconChevronRight size={16} aria-hidden color="var(--mantine-color-dimmed)" />
          </Group>
        </Group>
        <Group gap={6} mih={22}>
          {channel.providers.length === 0 ? (
            <Text size="xs" c="dimmed">
              No platform connected
            </Text>
          ) : (
            channel.providers.map((p) => (
              <ProviderBadge
                key={`${p.provider}:${p.provider_channel_name}`}
                provider={p.provider}
                label={p.provider_channel_name}
                size="sm"
              />
            ))
          )}
        </Group>
        <Text size="xs" c="dimmed">
          Created {formatDate(channel.created_at)}
        </Text>
      </Stack>
    </Card>
  );
}
