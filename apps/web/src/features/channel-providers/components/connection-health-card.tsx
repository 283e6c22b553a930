import { Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { ChannelProvider } from '@greenroom/contracts/api/channel-providers';
import { formatDateTime, relativeTime } from '../../../lib/format';
import { ConnectionStatus } from './connection-status';

/** Health of the server's live connection to the platform (issue: "Health is visible per connection"). */
export function ConnectionHealthCard({ provider: p }: { provider: ChannelProvider }) {
  const h = p.health;
  const rows: [string, React.ReactNode][] = [
    ['Status', <ConnectionStatus key="status" provider={p} />],
    ['Account', `${p.provider_channel_name} (id ${p.provider_channel_id})`],
    ['Connected to Greenroom', formatDateTime(p.created_at)],
  ];
  if (h) {
    rows.push(['State since', formatDateTime(h.since)]);
    rows.push(['Last event', h.last_event_at ? relativeTime(h.last_event_at) : 'None yet']);
    rows.push(['Reconnects', String(h.reconnects)]);
    if (h.detail) rows.push(['Detail', h.detail]);
  }
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby={`health-${p.id}`}>
      <Stack gap="xs">
        <Title order={2} size="h4" id={`health-${p.id}`}>
          Connection
        </Title>
        {!h && (
          <Text size="sm" c="dimmed">
            Greenroom keeps no live connection to this platform; it is called when needed.
          </Text>
        )}
        <Table withRowBorders={false} verticalSpacing={4} fz="sm">
          <Table.Tbody>
            {rows.map(([label, value]) => (
              <Table.Tr key={label}>
                <Table.Th w={200} fw={500} c="dimmed">
                  {label}
                </Table.Th>
                <Table.Td>{value}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </Paper>
  );
}
