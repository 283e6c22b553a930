import { ActionIcon, Group, Stack, Text, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconUnlink } from '@tabler/icons-react';
import type { ViewerIdentity } from '@greenroom/contracts/api/points';
import { providers } from '@greenroom/contracts/providers';
import { ErrorAlert } from '../../../components/error-alert';
import { ProviderIcon } from '../../../components/provider-icon';
import { formatDateTime } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { useUnlinkIdentity } from '../api/points';

/**
 * The platform accounts sharing one wallet, each with when it was linked; with `canUnlink`, a confirmed Unlink per
 * account (the account gets a wallet of its own, empty; the points stay with the others).
 */
export function LinkedAccounts({
  channelId,
  walletId,
  identities,
  pointsName,
  canUnlink,
}: {
  channelId: string;
  walletId: string;
  identities: ViewerIdentity[];
  pointsName: string;
  canUnlink: boolean;
}) {
  const unlink = useUnlinkIdentity(channelId, walletId);
  return (
    <Stack gap={6} aria-label="Linked accounts">
      {identities.map((i) => (
        <Group key={`${i.provider}:${i.provider_user_id}`} justify="space-between" wrap="nowrap">
          <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
            <ProviderIcon provider={i.provider} size={16} />
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {i.display_name}{' '}
              <Text span size="xs" c="dimmed">
                {providers[i.provider].name} · linked {formatDateTime(i.linked_at)}
              </Text>
            </Text>
          </Group>
          {canUnlink && identities.length > 1 && (
            <Tooltip label="Unlink">
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Unlink ${i.display_name} on ${providers[i.provider].name}`}
                loading={unlink.isPending && unlink.variables.provider_user_id === i.provider_user_id}
                onClick={() =>
                  modals.openConfirmModal({
                    title: `Unlink ${i.display_name}?`,
                    children: (
                      <Text size="sm">
                        The {providers[i.provider].name} account gets a wallet of its own with 0 {pointsName}; the balance stays with the
                        other accounts.
                      </Text>
                    ),
                    labels: { confirm: 'Unlink', cancel: 'Cancel' },
                    confirmProps: { color: 'red' },
                    onConfirm: () => unlink.mutate(i, { onSuccess: () => notifySuccess(`${i.display_name} unlinked`) }),
                  })
                }
              >
                <IconUnlink size={16} />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
      ))}
      {unlink.error != null && <ErrorAlert error={unlink.error} />}
    </Stack>
  );
}
