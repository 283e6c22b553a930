import { Anchor, Button, Group, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconSettings } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { ChannelProvider } from '@greenroom/contracts/api/channel-providers';
import { providers } from '@greenroom/contracts/providers';
import { ProviderIcon } from '../../../components/provider-icon';
import type { ChannelConnectTarget } from '../hooks/use-connect-channel-provider';
import { BotAccountLine } from './bot-account-line';
import { ConnectionStatus } from './connection-status';
import { DashboardLinkButton } from './dashboard-link-button';
import { RECONNECT_NEEDS_ADMIN, ReconnectButton } from './reconnect-button';
import { DisconnectProviderButton } from './disconnect-provider-button';
import { KickNote } from './kick-note';

interface ProviderCardProps {
  provider: ChannelProvider;
  /** Admin+: reconnect and disconnect. */
  canManage: boolean;
  connect: (target: ChannelConnectTarget) => Promise<void>;
  pending: ChannelConnectTarget | null;
}

/** One connected platform on the Platforms page: colour, name, live status, bot account, scope state and links. */
export function ProviderCard({ provider: p, canManage, connect, pending }: ProviderCardProps) {
  const info = providers[p.provider];
  const detailPath = `/channels/${p.channel_id}/providers/${p.id}`;
  return (
    <Paper
      component="li"
      withBorder
      radius="md"
      p="md"
      aria-label={`${info.name}: ${p.provider_channel_name}`}
      style={{ borderLeft: `4px solid var(--mantine-color-${info.color}-6)` }}
      data-provider={p.provider}
    >
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
          <Group gap="sm" wrap="nowrap" miw={0}>
            <ThemeIcon size={40} radius="md" color={info.color} variant="light" aria-hidden>
              <ProviderIcon provider={p.provider} size={24} />
            </ThemeIcon>
            <div style={{ minWidth: 0 }}>
              <Anchor component={Link} to={detailPath} fw={700} c="inherit" truncate="end" display="block">
                {p.provider_channel_name}
              </Anchor>
              <Text size="xs" c={`${info.color}.4`} fw={600}>
                {info.name}
              </Text>
            </div>
          </Group>
          <ConnectionStatus provider={p} />
        </Group>
        <BotAccountLine provider={p} />
        {!canManage && (p.scope_needed || p.bot_provider?.scope_needed) && (
          <Text size="xs" c="red.3">
            {RECONNECT_NEEDS_ADMIN}
          </Text>
        )}
        {p.provider === 'kick' && <KickNote />}
        <Group gap="xs" wrap="wrap">
          <Button
            component={Link}
            to={detailPath}
            size="xs"
            variant="default"
            leftSection={<IconSettings size={14} />}
            aria-label={`Manage ${info.name}`}
          >
            Manage
          </Button>
          <DashboardLinkButton provider={p} variant="subtle" />
          {canManage && (
            <>
              <ReconnectButton provider={p} connect={connect} pending={pending} />
              <DisconnectProviderButton provider={p} />
            </>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
