import { Anchor, Badge, Button, Group, Paper, Table, Text } from '@mantine/core';
import { IconGift, IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { giveawayStatusLabels, type GiveawayStatus } from '@greenroom/contracts/api/giveaways';
import { PageState } from '../../../components/page-state';
import { formatDateTime } from '../../../lib/format';
import { useGiveaways, useLiveGiveaways } from '../api/giveaways';
import { PageFrame } from '../../../components/page-frame';

export const giveawayStatusColors: Record<GiveawayStatus, string> = {
  draft: 'gray',
  open: 'green',
  closed: 'yellow',
  drawn: 'blue',
  cancelled: 'red',
};

/** `/channels/{id}/giveaways` (Editor): the open giveaway and the history of past ones. */
export function GiveawaysPage({ channelId }: { channelId: string }) {
  const giveaways = useGiveaways(channelId);
  useLiveGiveaways(channelId);
  const records = giveaways.data?.pages.flatMap((p) => p.records) ?? [];
  const newButton = (
    <Button component={Link} to="new" leftSection={<IconPlus size={16} />}>
      New giveaway
    </Button>
  );
  return (
    <PageFrame
      title="Giveaways"
      description="Viewers enter from chat on every platform, with a keyword or tickets bought with points. Draw winners here or in the popout for OBS."
      actions={newButton}
      loading={giveaways.isPending}
      error={giveaways.error}
    >
      {records.length === 0 ? (
        <PageState
          icon={<IconGift size={28} />}
          title="No giveaways yet"
          description="Create one, open it, and viewers enter by typing the keyword in chat."
          action={newButton}
        />
      ) : (
        <Paper withBorder radius="md" style={{ overflowX: 'auto' }}>
          <Table highlightOnHover verticalSpacing="sm" miw={640} aria-label="Giveaways">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Title</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th ta="right">Entries</Table.Th>
                <Table.Th>Winners</Table.Th>
                <Table.Th>Created</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {records.map((g) => {
                const winners = g.winner_list.filter((w) => w.status !== 'rerolled');
                return (
                  <Table.Tr key={g.id}>
                    <Table.Td>
                      <Anchor component={Link} to={g.id} fw={600} size="sm">
                        {g.title}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>
                      <Badge color={giveawayStatusColors[g.status]} variant="light">
                        {giveawayStatusLabels[g.status]}
                      </Badge>
                    </Table.Td>
                    <Table.Td ta="right">
                      <Text size="sm">{g.entry_count.toLocaleString('en-US')}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{winners.length > 0 ? winners.map((w) => w.display_name).join(', ') : '—'}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{formatDateTime(g.created_at)}</Text>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Paper>
      )}
      {giveaways.hasNextPage && (
        <Group justify="center">
          <Button variant="subtle" size="xs" loading={giveaways.isFetchingNextPage} onClick={() => void giveaways.fetchNextPage()}>
            Show more
          </Button>
        </Group>
      )}
    </PageFrame>
  );
}
