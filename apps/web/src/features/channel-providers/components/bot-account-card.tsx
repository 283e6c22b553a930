import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconRefresh, IconRobot } from '@tabler/icons-react';
import type { ChannelProvider } from '@greenroom/contracts/api/channel-providers';
import { providers } from '@greenroom/contracts/providers';
import { confirmDisconnect } from '../../../components/confirm-disconnect';
import { notifySuccess } from '../../../lib/notify';
import { useDisconnectChannelBot } from '../api/disconnect-channel-provider';
import type { ChannelConnectTarget } from '../hooks/use-connect-channel-provider';
import { botAccountText } from './bot-account-line';
import { KickNote } from './kick-note';
import { RECONNECT_NEEDS_ADMIN } from './reconnect-button';

interface BotAccountCardProps {
  provider: ChannelProvider;
  canManage: boolean;
  connect: (target: ChannelConnectTarget) => Promise<void>;
  pending: ChannelConnectTarget | null;
}

/** The account the chatbot sends as (the connection's bot_provider): the channel's own bot (ownBot) or the system bot (systemBot). */
export function BotAccountCard({ provider: p, canManage, connect, pending }: BotAccountCardProps) {
  const info = providers[p.provider];
  const removeBot = useDisconnectChannelBot(p.channel_id);
  if (!info.chatWrite) return null;
  const bot = p.bot_provider;
  const ownBot = bot && !bot.system ? bot : null;
  const confirmRemove = () =>
    confirmDisconnect(`${info.name} bot`, () =>
      removeBot.mutate(p.id, { onSuccess: () => notifySuccess(`${info.name} bot disconnected`) }),
    );
  const connecting = pending?.provider === p.provider && pending.bot;

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby={`bot-${p.id}`}>
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Title order={2} size="h4" id={`bot-${p.id}`}>
            Bot account
          </Title>
          {bot?.scope_needed && (
            <Badge color="red" variant="light" tt="none">
              Reconnect needed
            </Badge>
          )}
        </Group>
        <Group gap="xs" wrap="nowrap">
          <IconRobot size={18} aria-hidden />
          <Text size="sm">{botAccountText(p)}</Text>
        </Group>
        {info.ownBot && (
          <Text size="xs" c="dimmed">
            {ownBot
              ? 'Commands, timers and replies are posted by this account.'
              : `Connect a separate ${info.name} account to post commands, timers and replies under your bot's name.`}
          </Text>
        )}
        {p.provider === 'kick' && <KickNote />}
        {bot?.scope_needed && (bot.system || !canManage) && (
          <Text size="xs" c="red.3">
            {bot.system
              ? "Greenroom's system bot needs reconnecting: only the operators of this Greenroom can do it."
              : RECONNECT_NEEDS_ADMIN}
          </Text>
        )}
        {canManage && info.ownBot && (
          <Group gap="xs">
            <Button
              size="xs"
              variant={ownBot?.scope_needed ? 'filled' : 'light'}
              color={ownBot?.scope_needed ? 'red' : undefined}
              leftSection={ownBot ? <IconRefresh size={14} /> : <IconRobot size={14} />}
              loading={connecting}
              onClick={() => void connect({ provider: p.provider, bot: true })}
            >
              {ownBot ? 'Reconnect bot' : 'Connect bot account'}
            </Button>
            {ownBot && (
              <Button size="xs" variant="subtle" color="red" loading={removeBot.isPending} onClick={confirmRemove}>
                Disconnect bot
              </Button>
            )}
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
