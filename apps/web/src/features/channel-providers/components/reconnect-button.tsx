import { Button } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import type { ChannelProvider } from '@greenroom/contracts/api/channel-providers';
import { providers } from '@greenroom/contracts/providers';
import type { ChannelConnectTarget } from '../hooks/use-connect-channel-provider';

/** What staff below Admin see next to "Reconnect needed": who can fix it. */
export const RECONNECT_NEEDS_ADMIN = 'Only an Admin or the Owner of this channel can reconnect it: ask one of them.';

/** Runs the connect flow again for the broadcaster account; filled red when the connection needs it (scope_needed). */
export function ReconnectButton({
  provider: p,
  connect,
  pending,
}: {
  provider: ChannelProvider;
  connect: (target: ChannelConnectTarget) => Promise<void>;
  pending: ChannelConnectTarget | null;
}) {
  const name = providers[p.provider].name;
  return (
    <Button
      size="xs"
      variant={p.scope_needed ? 'filled' : 'subtle'}
      color={p.scope_needed ? 'red' : 'gray'}
      leftSection={<IconRefresh size={14} />}
      loading={pending?.provider === p.provider && !pending.bot}
      onClick={() => void connect({ provider: p.provider, bot: false })}
      aria-label={`Reconnect ${name}`}
    >
      Reconnect
    </Button>
  );
}
