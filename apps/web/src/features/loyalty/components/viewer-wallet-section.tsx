import { Button, Divider, Skeleton, Stack, Text } from '@mantine/core';
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import { ErrorAlert } from '../../../components/error-alert';
import { isApiError } from '../../../lib/api-client';
import { useViewerWallet } from '../api/points';
import { LinkedAccounts } from './linked-accounts';
import { formatPoints } from './format';

/**
 * The viewer card's points: balance and rank, and the platform accounts sharing the viewer's wallet (joined with
 * `!link`); staff who manage loyalty can unlink one.
 */
export function ViewerWalletSection({
  channelId,
  provider,
  providerUserId,
  canUnlink,
}: {
  channelId: string;
  provider: ChannelProviderId;
  providerUserId: string;
  canUnlink: boolean;
}) {
  const wallet = useViewerWallet(channelId, provider, providerUserId);
  let body;
  if (wallet.isPending)
    body = (
      <Stack gap={6} aria-busy="true" aria-label="Loading points">
        <Skeleton h={16} w="40%" />
        <Skeleton h={16} w="70%" />
      </Stack>
    );
  else if (wallet.isError && isApiError(wallet.error, 404))
    body = (
      <Text size="sm" c="dimmed">
        No points in this channel yet.
      </Text>
    );
  else if (wallet.isError)
    body = (
      <ErrorAlert error={wallet.error}>
        <Button size="xs" variant="light" color="red" mt="sm" onClick={() => void wallet.refetch()}>
          Try again
        </Button>
      </ErrorAlert>
    );
  else {
    const w = wallet.data;
    body = (
      <Stack gap="xs">
        <Text size="sm">
          <Text span fw={700} ff="monospace">
            {formatPoints(w.balance)}
          </Text>{' '}
          {w.points_name} · rank #{w.rank}
        </Text>
        {w.identities.length > 1 ? (
          <LinkedAccounts
            channelId={channelId}
            walletId={w.wallet_id}
            identities={w.identities}
            pointsName={w.points_name}
            canUnlink={canUnlink}
          />
        ) : (
          <Text size="sm" c="dimmed">
            No linked accounts: this viewer can join another platform’s account with !link.
          </Text>
        )}
      </Stack>
    );
  }
  return (
    <>
      <Divider label="Points and linked accounts" labelPosition="left" />
      {body}
    </>
  );
}
