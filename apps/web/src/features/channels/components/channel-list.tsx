import { Button, Container, Group, SimpleGrid, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus, IconSearch, IconSearchOff } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, Navigate } from 'react-router';
import { ErrorAlert } from '../../../components/error-alert';
import { PageState } from '../../../components/page-state';
import { flattenPages, totalOfPages } from '../../../lib/paginated-cache';
import { useChannels } from '../../../api/get-channels';
import { ChannelCard } from './channel-card';

/** `/` and `/channels`: the signed-in user's channels. With none yet, /welcome takes over. */
export function ChannelList() {
  const [search, setSearch] = useState('');
  const [name] = useDebouncedValue(search.trim(), 250);
  const list = useChannels({ name });
  const channels = flattenPages(list.data);
  const total = totalOfPages(list.data);

  if (list.isSuccess && channels.length === 0 && name === '') return <Navigate to="/welcome" replace />;

  return (
    <Container size="lg" py="xl" px="md">
      <Stack gap="lg">
        <Group justify="space-between" align="flex-end" gap="sm">
          <div>
            <Title order={1} size="h2">
              Your channels
            </Title>
            <Text c="dimmed" size="sm">
              {total === undefined ? 'Channels you own or help run.' : `${total} channel${total === 1 ? '' : 's'} you own or help run.`}
            </Text>
          </div>
          <Button component={Link} to="/create-channel" leftSection={<IconPlus size={16} aria-hidden />}>
            Create channel
          </Button>
        </Group>
        <TextInput
          label="Search channels"
          placeholder="Search..."
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          maw={360}
          type="search"
        />
        {list.isError && <ErrorAlert error={list.error} />}
        {list.isPending && (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} aria-busy="true" aria-label="Loading channels">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} h={128} radius="md" />
            ))}
          </SimpleGrid>
        )}
        {list.isSuccess && channels.length === 0 && (
          <PageState
            icon={<IconSearchOff size={28} />}
            title="No channels match"
            description={`None of your channels has “${name}” in its name.`}
            action={
              <Button component={Link} to="/create-channel" variant="light" leftSection={<IconPlus size={16} aria-hidden />}>
                Create channel
              </Button>
            }
          />
        )}
        {channels.length > 0 && (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Channels">
            {channels.map((channel) => (
              <li key={channel.id}>
                <ChannelCard channel={channel} />
              </li>
            ))}
          </SimpleGrid>
        )}
        {list.hasNextPage && (
          <Group justify="center">
            <Button variant="default" loading={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
              Load more
            </Button>
          </Group>
        )}
      </Stack>
    </Container>
  );
}
