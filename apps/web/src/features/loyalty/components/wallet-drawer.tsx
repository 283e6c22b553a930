import { Button, Drawer, Group, NumberInput, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { adjustBodySchema, ledgerKindLabels, type Wallet } from '@greenroom/contracts/api/points';
import { ErrorAlert } from '../../../components/error-alert';
import { useFormSubmit, useSchemaForm } from '../../../lib/form';
import { formatDateTime } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { useAdjustBalance, useLedger } from '../api/points';
import { LinkedAccounts } from './linked-accounts';
import { LoadingPanel } from '../../../components/page-frame';
import { formatPoints } from './format';

/** One viewer's wallet: its platform accounts (unlink), a logged staff adjustment and the ledger. */
export function WalletDrawer({
  channelId,
  wallet,
  pointsName,
  onClose,
}: {
  channelId: string;
  wallet: Wallet;
  pointsName: string;
  onClose: () => void;
}) {
  return (
    <Drawer
      opened
      onClose={onClose}
      position="right"
      size="lg"
      title={
        <Title order={2} size="h3">
          {wallet.display_name}
        </Title>
      }
    >
      <Stack gap="lg">
        <Text>
          <Text span fw={700} size="xl" ff="monospace">
            {formatPoints(wallet.balance)}
          </Text>{' '}
          {pointsName} · rank #{wallet.rank}
        </Text>
        <Stack gap={6}>
          <Title order={3} size="h5">
            Accounts
          </Title>
          <LinkedAccounts channelId={channelId} walletId={wallet.id} identities={wallet.identities} pointsName={pointsName} canUnlink />
        </Stack>
        <AdjustForm channelId={channelId} walletId={wallet.id} pointsName={pointsName} />
        <LedgerTable channelId={channelId} walletId={wallet.id} />
      </Stack>
    </Drawer>
  );
}

function AdjustForm({ channelId, walletId, pointsName }: { channelId: string; walletId: string; pointsName: string }) {
  const adjust = useAdjustBalance(channelId, walletId);
  const form = useSchemaForm(adjustBodySchema, { initialValues: { delta: '' as unknown as number, reason: '' } });
  const submit = useFormSubmit(form, (body) => adjust.mutateAsync(body), {
    onSuccess: (saved) => {
      form.reset();
      notifySuccess(`Balance is now ${formatPoints(saved.balance)} ${pointsName}`);
    },
  });
  return (
    <Paper withBorder radius="md" p="sm">
      <form onSubmit={submit.onSubmit} aria-label="Adjust balance" noValidate>
        <Stack gap="xs">
          <Title order={3} size="h5">
            Adjust balance
          </Title>
          <Group align="flex-start" gap="xs" grow preventGrowOverflow={false}>
            <NumberInput
              label="Amount"
              description="Negative to remove"
              thousandSeparator=","
              allowDecimal={false}
              maw={160}
              {...form.getInputProps('delta')}
              onChange={(v) => form.setFieldValue('delta', v === '' ? ('' as unknown as number) : Number(v))}
            />
            <TextInput label="Reason" description="Logged with your name" {...form.getInputProps('reason')} />
          </Group>
          {submit.error != null && <ErrorAlert error={submit.error} />}
          <Group justify="flex-end">
            <Button type="submit" size="sm" loading={form.submitting}>
              Apply
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

function LedgerTable({ channelId, walletId }: { channelId: string; walletId: string }) {
  const ledger = useLedger(channelId, walletId);
  const rows = ledger.data?.pages.flatMap((p) => p.records) ?? [];
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        Ledger
      </Title>
      {ledger.error != null ? (
        <ErrorAlert error={ledger.error} />
      ) : ledger.isPending ? (
        <LoadingPanel rows={3} />
      ) : rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          No changes yet.
        </Text>
      ) : (
        <Paper withBorder radius="md" style={{ overflowX: 'auto' }}>
          <Table verticalSpacing={4} fz="sm" miw={460} aria-label="Ledger">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Th>What</Table.Th>
                <Table.Th ta="right">Change</Table.Th>
                <Table.Th ta="right">Balance</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((e) => (
                <Table.Tr key={e.id}>
                  <Table.Td>
                    <Text size="xs">{formatDateTime(e.at)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{ledgerKindLabels[e.kind]}</Text>
                    {e.note && (
                      <Text size="xs" c="dimmed">
                        {e.note}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td ta="right">
                    <Text size="sm" ff="monospace" c={e.delta < 0 ? 'red.4' : 'green.4'}>
                      {e.delta > 0 ? '+' : ''}
                      {formatPoints(e.delta)}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right">
                    <Text size="sm" ff="monospace">
                      {formatPoints(e.balance)}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
      )}
      {ledger.hasNextPage && (
        <Button variant="subtle" size="xs" loading={ledger.isFetchingNextPage} onClick={() => void ledger.fetchNextPage()}>
          Show more
        </Button>
      )}
    </Stack>
  );
}
