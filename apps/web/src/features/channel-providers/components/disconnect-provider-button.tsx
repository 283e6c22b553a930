import { Button, type ButtonProps } from '@mantine/core';
import { IconPlugConnectedX } from '@tabler/icons-react';
import type { ChannelProvider } from '@greenroom/contracts/api/channel-providers';
import { providers } from '@greenroom/contracts/providers';
import { confirmDisconnect } from '../../../components/confirm-disconnect';
import { notifySuccess } from '../../../lib/notify';
import { useDisconnectChannelProvider } from '../api/disconnect-channel-provider';

/** Disconnect with the confirmation; a failure gets the red error toast (query client). */
export function DisconnectProviderButton({
  provider: p,
  onDisconnected,
  ...props
}: { provider: ChannelProvider; onDisconnected?: () => void } & ButtonProps) {
  const disconnect = useDisconnectChannelProvider(p.channel_id);
  const name = providers[p.provider].name;
  const confirm = () =>
    confirmDisconnect(name, () =>
      disconnect.mutate(p.id, {
        onSuccess: () => {
          notifySuccess(`${name} disconnected`);
          onDisconnected?.();
        },
      }),
    );
  return (
    <Button
      variant="light"
      color="red"
      size="xs"
      leftSection={<IconPlugConnectedX size={14} />}
      loading={disconnect.isPending}
      onClick={confirm}
      aria-label={`Disconnect ${name}`}
      {...props}
    >
      Disconnect
    </Button>
  );
}
