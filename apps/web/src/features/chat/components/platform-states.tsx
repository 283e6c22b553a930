import { Badge, Group, Tooltip } from '@mantine/core';
import { memo } from 'react';
import type { ChannelProvider } from '@greenroom/contracts/api/channel-providers';
import { providers } from '@greenroom/contracts/providers';
import { ProviderIcon } from '../../../components/provider-icon';

export type PlatformChatState = 'connected' | 'reconnecting' | 'reconnect_needed' | 'offline';

const labels: Record<PlatformChatState, { label: string; color: string }> = {
  connected: { label: 'Connected', color: 'green' },
  reconnecting: { label: 'Reconnecting', color: 'yellow' },
  reconnect_needed: { label: 'Reconnect needed', color: 'red' },
  offline: { label: 'Offline', color: 'gray' },
};

/** Whether a platform's chat reaches Greenroom now, from its connection's health. */
export function platformChatState(p: ChannelProvider): PlatformChatState {
  if (p.scope_needed || p.health?.state === 'needs_reauth') return 'reconnect_needed';
  switch (p.health?.state) {
    case 'connected':
      return 'connected';
    case 'connecting':
    case 'reconnecting':
    case 'error':
      return 'reconnecting';
    default:
      return 'offline';
  }
}

/** One badge per platform with chat: is its chat reaching Greenroom (the detail on hover)? */
export const PlatformStates = memo(function PlatformStates({ channelProviders }: { channelProviders: ChannelProvider[] }) {
  const withChat = channelProviders.filter((p) => providers[p.provider].chatRead);
  if (withChat.length === 0) return null;
  return (
    <Group gap={6} wrap="wrap" role="list" aria-label="Platform connections">
      {withChat.map((p) => {
        const state = platformChatState(p);
        const { label, color } = labels[state];
        const name = providers[p.provider].name;
        return (
          <Tooltip key={p.id} label={p.health?.detail ?? `${name}: ${label}`} withArrow>
            <Badge
              role="listitem"
              color={color}
              variant="light"
              size="md"
              tt="none"
              leftSection={<ProviderIcon provider={p.provider} size={12} />}
              data-platform-state={state}
              aria-label={`${name}: ${label}`}
            >
              {label}
            </Badge>
          </Tooltip>
        );
      })}
    </Group>
  );
});
