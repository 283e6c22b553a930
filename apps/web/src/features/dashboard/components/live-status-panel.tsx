import { Anchor, Button, Group, Paper, Skeleton, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconAlertTriangle, IconPlugOff } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { can } from '@greenroom/contracts/abilities';
import type { ChannelProvider } from '@greenroom/contracts/api/channel-providers';
import type { Channel } from '@greenroom/contracts/api/channels';
import type { StatsStream } from '@greenroom/contracts/api/stats';
import { providers } from '@greenroom/contracts/providers';
import { needsReconnect } from '../../../api/get-channel-providers';
import { ErrorAlert } from '../../../components/error-alert';
import { ProviderIcon } from '../../../components/provider-icon';
import { duration } from '../../../lib/format';
import { useNow } from '../../../lib/use-now';

interface LiveStatusPanelProps {
  channel: Channel;
  providers: { data?: ChannelProvider[]; isPending: boolean; error: unknown };
  /** Streams in progress, by connection (uptime). */
  streams: StatsStream[];
  /** The connection's live state and health badges (from the Platforms feature). */
  renderStatus: (p: ChannelProvider) => ReactNode;
}

function Uptime({ startedAt }: { startedAt: string }) {
  const now = useNow(1000);
  const seconds = Math.max(0, Math.floor((now - Date.parse(startedAt)) / 1000));
  return (
    <Text size="xs" c="dimmed" ff="monospace" aria-label={`Live for ${duration(seconds)}`}>
      Uptime {duration(seconds)}
    </Text>
  );
}

/** Each platform: live or offline, viewers, uptime, connection health, and who can fix a connection that needs it. */
export function LiveStatusPanel({ channel, providers: list, streams, renderStatus }: LiveStatusPanelProps) {
  const canFix = can(channel.access_level, 'platforms.manage');
  const base = `/channels/${channel.id}`;
  if (list.isPending) {
    return (
      <Stack gap="xs" aria-busy="true" aria-label="Loading platforms">
        <Skeleton h={56} radius="md" />
        <Skeleton h={56} radius="md" />
      </Stack>
    );
  }
  if (list.error) return <ErrorAlert error={list.error} />;
  const connections = list.data ?? [];
  if (connections.length === 0) {
    return (
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <ThemeIcon variant="light" color="orange" size={36} radius="md" aria-hidden>
          <IconPlugOff size={20} />
        </ThemeIcon>
        <div>
          <Text fw={500}>No platform connected yet</Text>
          <Text size="sm" c="dimmed">
            {canFix
              ? 'Connect Twitch, YouTube, Kick or TikTok to bring their chat and streams into this channel.'
              : 'A channel Admin or the Owner can connect Twitch, YouTube, Kick or TikTok.'}
          </Text>
          {canFix && (
            <Button component={Link} to={`${base}/providers`} size="xs" mt="xs" variant="light">
              Connect a platform
            </Button>
          )}
        </div>
      </Group>
    );
  }
  return (
    <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Platform status">
      {connections.map((p) => {
        const info = providers[p.provider];
        const stream = p.is_live ? streams.find((s) => s.channel_provider_id === p.id) : undefined;
        const reconnect = needsReconnect(p);
        return (
          <Paper
            key={p.id}
            component="li"
            withBorder
            radius="md"
            p="sm"
            aria-label={`${info.name}: ${p.provider_channel_name}`}
            style={reconnect ? { borderColor: 'var(--mantine-color-red-8)' } : undefined}
          >
            <Group justify="space-between" wrap="wrap" gap="xs">
              <Group gap="sm" wrap="nowrap" miw={0}>
                <ThemeIcon color={info.color} variant="light" size={36} radius="md" aria-hidden>
                  <ProviderIcon provider={p.provider} size={20} />
                </ThemeIcon>
                <div style={{ minWidth: 0 }}>
                  <Text size="sm" fw={600} truncate>
                    {p.provider_channel_name}
                  </Text>
                  <Group gap={8} wrap="nowrap">
                    <Text size="xs" c="dimmed">
                      {info.name}
                    </Text>
                    {stream && <Uptime startedAt={stream.started_at} />}
                  </Group>
                </div>
              </Group>
              {renderStatus(p)}
            </Group>
            {reconnect && (
              <Group gap={6} mt="xs" wrap="nowrap" align="flex-start" role="alert">
                <IconAlertTriangle size={16} color="var(--mantine-color-red-5)" aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
                <Text size="xs">
                  {p.scope_needed
                    ? `${info.name} no longer accepts Greenroom's authorization: chat, moderation and title changes stop until it is reconnected.`
                    : `The ${info.name} bot account must be reconnected before the bot can chat.`}{' '}
                  {canFix ? (
                    <Anchor component={Link} to={`${base}/providers/${p.id}`} size="xs" fw={600}>
                      Reconnect {info.name}
                    </Anchor>
                  ) : (
                    'Ask a channel Admin or the Owner to reconnect it on the Platforms page.'
                  )}
                </Text>
              </Group>
            )}
          </Paper>
        );
      })}
    </Stack>
  );
}
