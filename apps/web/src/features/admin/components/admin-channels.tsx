import { Anchor, Badge, Button, Group, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { DataTable, type DataTableColumn } from 'mantine-datatable';
import { useState } from 'react';
import { Link } from 'react-router';
import type { AdminChannel } from '@greenroom/contracts/api/channels';
import { ErrorAlert } from '../../../components/error-alert';
import { ProviderBadge } from '../../../components/provider-badge';
import { isApiError } from '../../../lib/api-client';
import { formatDate } from '../../../lib/format';
import { flattenPages, totalOfPages } from '../../../lib/paginated-cache';
import { useAdminChannels } from '../api/get-admin-channels';
import { NoAccess } from './no-access';
import 'mantine-datatable/styles.css';

const columns: DataTableColumn<AdminChannel>[] = [
  {
    accessor: 'display_name',
    title: 'Channel',
    render: (channel) => (
      <Anchor component={Link} to={`/channels/${channel.id}`} fw={500} size="sm">
        {channel.display_name}
      </Anchor>
    ),
  },
  {
    accessor: 'owner',
    title: 'Owner',
    render: (channel) =>
      channel.owner ? (
        <Text size="sm">{channel.owner.display_name}</Text>
      ) : (
        <Text size="sm" c="dimmed">
          No owner
        </Text>
      ),
  },
  {
    accessor: 'providers',
    title: 'Platforms',
    render: (channel) =>
      channel.providers.length === 0 ? (
        <Text size="sm" c="dimmed">
          None
        </Text>
      ) : (
        <Group gap={4}>
          {channel.providers.map((p) => (
            <Group key={`${p.provider}:${p.provider_channel_name}`} gap={2} wrap="nowrap">
              <ProviderBadge provider={p.provider} label={p.provider_channel_name} size="sm" />
              {p.is_live && (
                <Badge color="red" size="xs" variant="filled">
                  Live
                </Badge>
              )}
              {p.scope_needed && (
                <Tooltip label="Reconnect needed" withArrow>
                  <Badge color="orange" size="xs" variant="light" aria-label="Reconnect needed">
                    !
                  </Badge>
                </Tooltip>
              )}
            </Group>
          ))}
        </Group>
      ),
  },
  { accessor: 'created_at', title: 'Created', noWrap: true, render: (channel) => <Text size="sm">{formatDate(channel.created_at)}</Text> },
];

/** `/admin` and `/admin/channels`: every channel, searchable by name, 50 per page, loading more on scroll. */
export function AdminChannels() {
  const [search, setSearch] = useState('');
  const [name] = useDebouncedValue(search.trim(), 250);
  const list = useAdminChannels({ name });
  const records = flattenPages(list.data);
  const total = totalOfPages(list.data);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;

  if (isApiError(list.error, 403)) return <NoAccess />;

  const loadMore = () => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  };

  return (
    <Stack gap="md" p={{ base: 'md', sm: 'lg' }}>
      <Group justify="space-between" align="flex-end" gap="sm">
        <div>
          <Title order={1} size="h2">
            Channels
          </Title>
          <Text c="dimmed" size="sm">
            {total === undefined ? 'All channels on this server.' : `${total} channel${total === 1 ? '' : 's'} on this server.`}
          </Text>
        </div>
        <TextInput
          label="Search by name"
          placeholder="Search..."
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          w={{ base: '100%', sm: 280 }}
          type="search"
        />
      </Group>
      {list.isError && <ErrorAlert error={list.error} />}
      <DataTable<AdminChannel>
        aria-label="Channels"
        withTableBorder
        borderRadius="md"
        highlightOnHover
        verticalAlign="center"
        minHeight={records.length === 0 ? 240 : undefined}
        // A scroll area (for loading more at the bottom) only when there is more than a screenful.
        height={hasNextPage || records.length > 15 ? 'calc(100dvh - 240px)' : undefined}
        idAccessor="id"
        records={records}
        columns={columns}
        fetching={list.isPending || isFetchingNextPage}
        noRecordsText={name ? `No channel matches “${name}”` : 'No channels yet'}
        onScrollToBottom={loadMore}
      />
      {hasNextPage && (
        <Group justify="center">
          <Button variant="default" onClick={loadMore} loading={isFetchingNextPage}>
            Load more
          </Button>
        </Group>
      )}
    </Stack>
  );
}
