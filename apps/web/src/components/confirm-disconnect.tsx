import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';

/** The disconnect confirmation: "Disconnect {provider}?", "Are you sure you want to disconnect {provider}?", Disconnect / Cancel. */
export function confirmDisconnect(name: string, onConfirm: () => void): void {
  modals.openConfirmModal({
    title: `Disconnect ${name}?`,
    children: <Text size="sm">Are you sure you want to disconnect {name}?</Text>,
    labels: { confirm: 'Disconnect', cancel: 'Cancel' },
    confirmProps: { color: 'red' },
    centered: true,
    onConfirm,
  });
}
