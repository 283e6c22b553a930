import { Badge, Button, Group, Paper, Skeleton, Stack, Table, Text } from '@mantine/core';
import { IconListDetails } from '@tabler/icons-react';
import { useState } from 'react';
import type { FilterLogEntry } from '@greenroom/contracts/api/chatbot';
import { ErrorAlert } from '../../../components/error-alert';
import { PageState } from '../../../components/page-state';
import { ProviderBadge } from '../../../components/provider-badge';
import { formatDate, formatTime } from '../../../lib/format';
import { useFilterLog } from '../api/chat-filters';

function done(e: FilterLogEntry): string {
  if (e.action === null) return 'Nothing';
  if (e.action === 'timeout') return `Timed out ${e.duration_seconds ?? 0} s`;
  return e.action === 'delete' ? 'Deleted' : 'Banned';
}

/** Pages of the log, newest first; "Load more" follows the cursor. */
export function FilterLog({ channelId, filterId }: { channelId: string; filterId?: string }) {
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  return (
    <Stack gap="sm">
      {cursors.map((cursor, i) => (
        <LogPage
          key={cursor ?? 'first'}
          channelId={channelId}
          filterId={filterId}
          cursor={cursor}
          last={i === cursors.length - 1}
          onMore={(next) => setCursors((list) => [...list, next])}
        />
      ))}
    </Stack>
  );
}

function LogPage({
  channelId,
  filterId,
  cursor,
  last,
  onMore,
}: {
  channelId: string;
  filterId: string | undefined;
  cursor: string | null;
  last: boolean;
  onMore: (cursor: string) => void;
}) {
  const page = useFilterLog(channelId, cursor, filterId);
  if (page.isPending) return <Skeleton h={120} aria-label="Loading the log" />;
  if (page.isError) return <ErrorAlert error={page.error} />;
  if (cursor === null && page.data.records.length === 0) {
    return (
      <PageState
        icon={<IconListDetails size={28} />}
        title="Nothing filtered yet"
        description="What the filters do shows here, with why."
      />
    );
  }
  return (
    <>
      <Paper withBorder radius="md" style={{ overflowX: 'auto' }}>
        <Table verticalSpacing="xs" miw={760} aria-label="Filter log">
          {cursor === null && (
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Th>Viewer</Table.Th>
                <Table.Th>Message</Table.Th>
                <Table.Th>Why</Table.Th>
                <Table.Th>Done</Table.Th>
              </Table.Tr>
            </Table.Thead>
          )}
          <Table.Tbody>
            {page.data.records.map((e) => (
              <Table.Tr key={e.id}>
                <Table.Td>
                  <Text size="sm">{formatTime(e.created_at)}</Text>
                  <Text size="xs" c="dimmed">
                    {formatDate(e.created_at)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <ProviderBadge provider={e.provider} size="xs" label="" aria-label={e.provider} />
                    <Text size="sm">{e.viewer_name}</Text>
                  </Group>
                </Table.Td>
                <Table.Td maw={280}>
                  <Text size="sm" truncate title={e.message_text}>
                    {e.message_text}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{e.filter_name}</Text>
                  <Text size="xs" c="dimmed">
                    {e.reason}
                  </Text>
                </Table.Td>
                <Table.Td maw={260}>
                  <Group gap={6}>
                    {e.requested === 'warn' && (
                      <Badge size="xs" color="yellow" variant="light">
                        Warning
                      </Badge>
                    )}
                    <Text size="sm" c={e.ok ? undefined : 'red.4'}>
                      {done(e)}
                    </Text>
                  </Group>
                  {e.note && (
                    <Text size="xs" c="dimmed">
                      {e.note}
                    </Text>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Paper>
      {last && page.data.cursor && (
        <Group justify="center">
          <Button variant="default" onClick={() => onMore(page.data.cursor!)}>
            Load more
          </Button>
        </Group>
      )}
    </>
  );
}
