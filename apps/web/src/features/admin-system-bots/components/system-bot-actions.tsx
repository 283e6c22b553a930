import { Button, Group } from '@mantine/core';
import { IconPlugConnected, IconRefresh } from '@tabler/icons-react';
import type { SystemBotProvider } from '@greenroom/contracts/api/system-bots';
import { providers, type ProviderId } from '@greenroom/contracts/providers';
import { confirmDisconnect } from '../../../components/confirm-disconnect';
import { notifySuccess } from '../../../lib/notify';
import { useDisconnectSystemBot } from '../api/disconnect-system-bot';
import { useConnectSystemBot } from '../hooks/use-connect-system-bot';

/** Connect, or Reconnect and Disconnect (with the confirmation), for one platform's system bot. */
export function SystemBotActions({
  provider,
  bot,
  size = 'xs',
}: {
  provider: ProviderId;
  bot: SystemBotProvider | undefined;
  size?: 'xs' | 'sm';
}) {
  const { connect, pending } = useConnectSystemBot();
  const disconnect = useDisconnectSystemBot();
  const name = providers[provider].name;

  const askDisconnect = () =>
    confirmDisconnect(name, () => disconnect.mutate(provider, { onSuccess: () => notifySuccess(`${name} system bot disconnected`) }));

  if (!bot) {
    return (
      <Button
        size={size}
        leftSection={<IconPlugConnected size={14} />}
        loading={pending === provider}
        onClick={() => void connect(provider)}
        aria-label={`Connect ${name} system bot`}
      >
        Connect
      </Button>
    );
  }
  return (
    <Group gap="xs" wrap="nowrap">
      <Button
        size={size}
        variant={bot.scope_needed ? 'filled' : 'default'}
        color={bot.scope_needed ? 'orange' : undefined}
        leftSection={<IconRefresh size={14} />}
        loading={pending === provider}
        onClick={() => void connect(provider)}
        aria-label={`Reconnect ${name} system bot`}
      >
        Reconnect
      </Button>
      <Button
        size={size}
        variant="light"
        color="red"
        onClick={askDisconnect}
        loading={disconnect.isPending}
        aria-label={`Disconnect ${name} system bot`}
      >
        Disconnect
      </Button>
    </Group>
  );
}
