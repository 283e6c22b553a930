import { Anchor, Badge, Button, Paper, Table, Text } from '@mantine/core';
import { IconListNumbers, IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { queueStatusLabels, type QueueStatus } from '@greenroom/contracts/api/queues';
import { PageState } from '../../../components/page-state';
import { formatDateTime } from '../../../lib/format';
import { useLiveQueues, useQueues } from '../api/queues';
import { PageFrame } from '../../../components/page-frame';

export const queueStatusColors: Record<QueueStatus, string> = { open: 'green', paused: 'yellow', closed: 'gray' };

/** `/channels/{id}/queues` (Editor): the channel's viewer queues. */
export function QueuesPage({ channelId }: { channelId: string }) {
  const queues = useQueues(channelId);
  useLiveQueues(channelId);
  const records = queues.data ?? [];
  const newButton = (
    <Button component={Link} to="new" leftSection={<IconPlus size={16} />}>
      New queue
    </Button>
  );
  return (
    <PageFrame
      title="Viewer Queue"
      description="Viewers on every platform type !join, !leave, !position and !queue. Chat uses the queue that is open or paused."
      actions={newButton}
      loading={queues.isPending}
      error={queues.error}
    >
      {records.length === 0 ? (
        <PageState
          icon={<IconListNumbers size={28} />}
          title="No queues yet"
          description="Create a queue for viewer games, song requests or reviews, then open it."
          action={newButton}
        />
      ) : (
        <Paper withBorder radius="md" style={{ overflowX: 'auto' }}>
          <Table highlightOnHover verticalSpacing="sm" miw={560} aria-label="Queues">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th ta="right">Waiting</Table.Th>
                <Table.Th>Created</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {records.map((q) => (
                <Table.Tr key={q.id}>
                  <Table.Td>
                    <Anchor component={Link} to={q.id} fw={600} size="sm">
                      {q.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <Badge color={queueStatusColors[q.status]} variant="light">
                      {queueStatusLabels[q.status]}
                    </Badge>
                  </Table.Td>
                  <Table.Td ta="right">
                    <Text size="sm">
                      {q.size.toLocaleString('en-US')}
                      {q.max_size > 0 && ` / ${q.max_size.toLocaleString('en-US')}`}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{formatDateTime(q.created_at)}</Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
      )}
    </PageFrame>
  );
}
