import { Anchor, Badge, Button, Paper, Switch, Table, Tabs, Text, Tooltip } from '@mantine/core';
import { IconFilter, IconListDetails, IconPlus } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { accessLevelLabels } from '@greenroom/contracts/access';
import { filterActionLabels, filterTypeLabels, type ChatFilter } from '@greenroom/contracts/api/chatbot';
import { PageState } from '../../../components/page-state';
import { useChatFilters, useToggleChatFilter } from '../api/chat-filters';
import { FilterLog } from './filter-log';
import { ListPage } from './list-page';

function actionText(f: ChatFilter): string {
  const action = f.action === 'timeout' ? `Time out ${f.duration_seconds} s` : filterActionLabels[f.action];
  return f.warn_first ? `Warn, then ${action.toLowerCase()}` : action;
}

/** `/channels/{id}/chat-filters` (Editor): spam filters, checked before staff see a message, and the log of what they did. */
export function FiltersPage({ channelId }: { channelId: string }) {
  const filters = useChatFilters(channelId);
  const toggle = useToggleChatFilter(channelId);
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'log' ? 'log' : 'filters';
  const newButton = (
    <Button component={Link} to="new" leftSection={<IconPlus size={16} />}>
      New filter
    </Button>
  );
  return (
    <ListPage
      title="Chat Filters"
      description="Filters run on every platform's chat before your staff see it. A filtered message is hidden at once; the bot deletes it, times out or bans, and says why."
      loading={filters.isPending}
      error={filters.error}
      actions={newButton}
      empty={null}
    >
      <Tabs value={tab} onChange={(v) => setParams(v === 'log' ? { tab: 'log' } : {}, { replace: true })} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="filters" leftSection={<IconFilter size={16} />}>
            Filters
          </Tabs.Tab>
          <Tabs.Tab value="log" leftSection={<IconListDetails size={16} />}>
            Log
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="filters" pt="md">
          {filters.data?.length === 0 ? (
            <PageState
              icon={<IconFilter size={28} />}
              title="No filters yet"
              description="Add a links, caps, banned words or any other filter."
              action={newButton}
            />
          ) : (
            <Paper withBorder radius="md" style={{ overflowX: 'auto' }}>
              <Table highlightOnHover verticalSpacing="sm" miw={640} aria-label="Filters">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Filter</Table.Th>
                    <Table.Th>Kind</Table.Th>
                    <Table.Th>Action</Table.Th>
                    <Table.Th>Not filtered</Table.Th>
                    <Table.Th>Enabled</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {filters.data?.map((f) => (
                    <Table.Tr key={f.id}>
                      <Table.Td>
                        <Anchor component={Link} to={f.id} fw={600} size="sm">
                          {f.name}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>
                        <Badge variant="light" color="gray" size="sm" tt="none">
                          {filterTypeLabels[f.type]}
                        </Badge>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{actionText(f)}</Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{accessLevelLabels[f.exempt_level]} and above</Text>
                      </Table.Td>
                      <Table.Td>
                        <Tooltip label={f.enabled ? 'Turn off' : 'Turn on'}>
                          <Switch
                            checked={f.enabled}
                            aria-label={`${f.name} enabled`}
                            disabled={toggle.isPending && toggle.variables?.id === f.id}
                            onChange={() => toggle.mutate(f)}
                          />
                        </Tooltip>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Paper>
          )}
        </Tabs.Panel>
        <Tabs.Panel value="log" pt="md">
          <FilterLog channelId={channelId} />
        </Tabs.Panel>
      </Tabs>
    </ListPage>
  );
}
