import { Anchor, Button, Paper, Table, Text, TextInput } from '@mantine/core';
import { IconPlus, IconQuote, IconSearch } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { providers } from '@greenroom/contracts/providers';
import { PageState } from '../../../components/page-state';
import { formatDate } from '../../../lib/format';
import { useQuotes } from '../api/quotes';
import { ListPage } from './list-page';

/** `/channels/{id}/quotes` (Editor): the channel's quotes, added from chat (!addquote) or here. */
export function QuotesPage({ channelId }: { channelId: string }) {
  const quotes = useQuotes(channelId);
  const [search, setSearch] = useState('');
  const shown = useMemo(() => {
    const q = search.trim().toLowerCase();
    const list = quotes.data ?? [];
    return q ? list.filter((x) => `${x.number} ${x.text} ${x.game ?? ''} ${x.added_by}`.toLowerCase().includes(q)) : list;
  }, [quotes.data, search]);
  const newButton = (
    <Button component={Link} to="new" leftSection={<IconPlus size={16} />}>
      New quote
    </Button>
  );
  return (
    <ListPage
      title="Quotes"
      description="Viewers say !quote, !quote 12 or !quote word; Mods add with !addquote text and remove with !delquote 12."
      loading={quotes.isPending}
      error={quotes.error}
      actions={newButton}
      empty={
        quotes.data?.length === 0 ? (
          <PageState
            icon={<IconQuote size={28} />}
            title="No quotes yet"
            description="Mods add quotes from chat with !addquote."
            action={newButton}
          />
        ) : null
      }
    >
      <TextInput
        maw={360}
        placeholder="Search..."
        aria-label="Search quotes"
        leftSection={<IconSearch size={16} />}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
      />
      <Paper withBorder radius="md" style={{ overflowX: 'auto' }}>
        <Table highlightOnHover verticalSpacing="sm" miw={640} aria-label="Quotes">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={60}>#</Table.Th>
              <Table.Th>Quote</Table.Th>
              <Table.Th>Game</Table.Th>
              <Table.Th>Added by</Table.Th>
              <Table.Th>Date</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((q) => (
              <Table.Tr key={q.id}>
                <Table.Td>
                  <Anchor component={Link} to={q.id} fw={600} size="sm" aria-label={`Quote ${q.number}`}>
                    {q.number}
                  </Anchor>
                </Table.Td>
                <Table.Td maw={420}>
                  <Text size="sm" lineClamp={2}>
                    {q.text}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{q.game ?? '—'}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">
                    {q.added_by}
                    {q.added_on_provider && (
                      <Text span size="xs" c="dimmed">
                        {' '}
                        on {providers[q.added_on_provider].name}
                      </Text>
                    )}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{formatDate(`${q.quoted_on}T12:00:00`)}</Text>
                </Table.Td>
              </Table.Tr>
            ))}
            {shown.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={5}>
                  <Text size="sm" c="dimmed" ta="center" py="md">
                    No quote matches “{search}”.
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
          </Table.Tbody>
        </Table>
      </Paper>
    </ListPage>
  );
}
