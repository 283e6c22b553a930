import { Badge, Group, Tooltip } from '@mantine/core';
import type { ChannelProvider, ConnectionHealthDto } from '@greenroom/contracts/api/channel-providers';
import { providers } from '@greenroom/contracts/providers';
import { needsReconnect } from '../provider-updates';

const healthLabels: Record<ConnectionHealthDto['state'], { label: string; color: string }> = {
  connecting: { label: 'Connecting', color: 'yellow' },
  connected: { label: 'Connected', color: 'green' },
  reconnecting: { label: 'Reconnecting', color: 'yellow' },
  offline: { label: 'Idle', color: 'gray' },
  needs_reauth: { label: 'Reconnect needed', color: 'red' },
  error: { label: 'Connection error', color: 'red' },
};

/** Live status, connection health and "Reconnect needed" of one connection, as badges. */
export function ConnectionStatus({ provider: p }: { provider: ChannelProvider }) {
  const info = providers[p.provider];
  const health = p.health ? healthLabels[p.health.state] : null;
  return (
    <Group gap={6} wrap="wrap">
      {info.stream &&
        (p.is_live ? (
          <Badge color="red" variant="filled" size="sm" tt="none">
            Live{p.viewer_count != null ? ` · ${p.viewer_count.toLocaleString('en-US')} viewers` : ''}
          </Badge>
        ) : (
          <Badge color="gray" variant="light" size="sm" tt="none">
            Offline
          </Badge>
        ))}
      {needsReconnect(p) ? (
        <Badge color="red" variant="light" size="sm" tt="none">
          Reconnect needed
        </Badge>
      ) : (
        health &&
        p.health && (
          <Tooltip label={p.health.detail ?? health.label} withArrow disabled={!p.health.detail}>
            <Badge color={health.color} variant="dot" size="sm" tt="none" data-health={p.health.state}>
              {health.label}
            </Badge>
          </Tooltip>
        )
      )}
    </Group>
  );
}
