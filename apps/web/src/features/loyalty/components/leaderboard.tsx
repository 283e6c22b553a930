import { Anchor, Badge, Button, Group, Paper, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch, IconTrophy } from '@tabler/icons-react';
import { useState } from 'react';
import type { Wallet } from '@greenroom/contracts/api/points';
import { ErrorAlert } from '../../../components/error-alert';
import { PageState } from '../../../components/page-state';
import { ProviderIcon } from '../../../components/provider-icon';
import { useWallets } from '../api/points';
import { LoadingPanel } from '../../../components/page-frame';
import { formatPoints } from './format';
import { WalletDrawer } from './wallet-drawer';

/** Every viewer's balance, highest first; a row opens the viewer's ledger, adjustments and linked accounts. */
export function Leaderboard({ channelId, pointsName }: { channelId: string; pointsName: string }) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const wallets = useWallets(channelId, debounced);
  const [openId, setOpenId] = useState<string | null>(null);
  const records = wallets.data?.pages.flatMap((p) => p.records) ?? [];
  // The first page counts up to 1,000 wallets; a larger board has no total.
  const total = wallets.data?.pages[0]?.total;
  const open: Wallet | undefined = records.find((w) => w.id === openId);
  return (
    <>
      <TextInput
        maw={360}
        placeholder="Search..."
        aria-label="Search viewers"
        leftSection={<IconSearch size={16} />}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
      />
      {wallets.error != null ? (
        <ErrorAlert error={wallets.error} />
      ) : wallets.isPending ? (
        <LoadingPanel />
      ) : records.length === 0 ? (
        debounced ? (
          <Text size="sm" c="dimmed" ta="center" py="md">
            No viewer matches “{debounced}”.
          </Text>
        ) : (
          <PageState
            icon={<IconTrophy size={28} />}
            title="No viewers have points yet"
            description={`Viewers earn ${pointsName} by watching, chatting and supporting the stream.`}
          />
        )
      ) : (
        <Paper withBorder radius="md" style={{ overflowX: 'auto' }}>
          <Table highlightOnHover verticalSpacing="xs" miw={520} aria-label="Leaderboard">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={70}>Rank</Table.Th>
                <Table.Th>Viewer</Table.Th>
                <Table.Th>Accounts</Table.Th>
                <Table.Th ta="right">{pointsName}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {records.map((w) => (
                <Table.Tr key={w.id}>
                  <Table.Td>
                    <Text size="sm" fw={600}>
                      #{w.rank}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Anchor component="button" type="button" size="sm" fw={600} onClick={() => setOpenId(w.id)}>
                      {w.display_name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={6}>
                      {w.identities.map((i) => (
                        <Group key={`${i.provider}:${i.provider_user_id}`} gap={4} wrap="nowrap">
                          <ProviderIcon provider={i.provider} size={14} />
                          <Text size="xs">{i.login}</Text>
                        </Group>
                      ))}
                      {w.identities.length > 1 && (
                        <Badge size="xs" variant="light">
                          Linked
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td ta="right">
                    <Text size="sm" ff="monospace">
                      {formatPoints(w.balance)}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
      )}
      <Group justify="space-between">
        <Text size="xs" c="dimmed">
          {total === undefined
            ? wallets.data && 'More than 1,000 viewers'
            : total > 0 && `${formatPoints(total)} ${total === 1 ? 'viewer' : 'viewers'}`}
        </Text>
        {wallets.hasNextPage && (
          <Button variant="subtle" size="xs" loading={wallets.isFetchingNextPage} onClick={() => void wallets.fetchNextPage()}>
            Show more
          </Button>
        )}
      </Group>
      {open && <WalletDrawer channelId={channelId} wallet={open} pointsName={pointsName} onClose={() => setOpenId(null)} />}
    </>
  );
}
