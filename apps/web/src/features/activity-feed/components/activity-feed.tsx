import { Button, Center, Chip, Group, Loader, MultiSelect, Skeleton, Stack, Title } from '@mantine/core';
import { useIntersection } from '@mantine/hooks';
import { IconActivity, IconExternalLink, IconFilterOff } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { activityTypes, type ActivityType } from '@greenroom/contracts/api/events';
import { channelProviderIds, providers, type ChannelProviderId } from '@greenroom/contracts/providers';
import { ErrorAlert } from '../../../components/error-alert';
import { LiveStatus } from '../../../components/live-status';
import { PageState } from '../../../components/page-state';
import { ProviderIcon } from '../../../components/provider-icon';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { flattenPages } from '../../../lib/paginated-cache';
import { openPopout, popoutPaths } from '../../../lib/popout';
import { useActivity } from '../api/get-activity';
import { useReplayActivity } from '../api/replay-activity';
import { useLiveActivity } from '../hooks/use-live-activity';
import { useNow } from '../../../lib/use-now';
import { activityTypeLabels } from './activity-labels';
import { ActivityRow } from './activity-row';

/** Relative times refresh every 30 s. */
const RELATIVE_TIME_REFRESH_MS = 30_000;
const streamingProviders = channelProviderIds.filter((id) => providers[id].chatRead);

/** The channel's activity feed: live, newest first, filterable by type and platform, with Replay per row. */
export function ActivityFeed({ channelId, compact = false }: { channelId: string; compact?: boolean }) {
  const [types, setTypes] = useState<ActivityType[]>([]);
  const [platforms, setPlatforms] = useState<ChannelProviderId[]>([]);
  const activity = useActivity(channelId, { types, providers: platforms });
  const live = useLiveActivity(channelId, activity.isSuccess);
  const now = useNow(RELATIVE_TIME_REFRESH_MS);
  const replay = useReplayActivity(channelId);
  const [replaying, setReplaying] = useState<string | null>(null);
  const { ref: sentinel, entry } = useIntersection({ rootMargin: '300px' });
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = activity;

  useEffect(() => {
    if (entry?.isIntersecting && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [entry?.isIntersecting, hasNextPage, isFetchingNextPage, fetchNextPage]);

  const onReplay = (id: string) => {
    setReplaying(id);
    replay.mutate(id, {
      onSuccess: () => notifySuccess('Activity replayed to your widgets'),
      onError: (error) => notifyError(error),
      onSettled: () => setReplaying(null),
    });
  };

  const records = flattenPages(activity.data);
  const filtered = types.length > 0 || platforms.length > 0;

  let body;
  if (activity.isPending) {
    body = (
      <Stack gap="xs" aria-busy="true" aria-label="Loading activity">
        {Array.from({ length: 6 }, (_, i) => (
          <Skeleton key={i} h={58} radius="md" />
        ))}
      </Stack>
    );
  } else if (activity.isError) {
    body = (
      <ErrorAlert error={activity.error}>
        <Button size="xs" variant="light" color="red" mt="sm" onClick={() => void activity.refetch()}>
          Try again
        </Button>
      </ErrorAlert>
    );
  } else if (records.length === 0) {
    body = filtered ? (
      <PageState
        icon={<IconFilterOff size={28} />}
        title="No matching activity"
        description="Nothing matches these filters yet."
        action={
          <Button
            variant="light"
            onClick={() => {
              setTypes([]);
              setPlatforms([]);
            }}
          >
            Clear filters
          </Button>
        }
      />
    ) : (
      <PageState
        icon={<IconActivity size={28} />}
        title="No activity yet"
        description="Follows, subs, raids, cheers, Super Chats and gifts from every platform show up here as they happen."
      />
    );
  } else {
    body = (
      <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Activity">
        {records.map((record) => (
          <ActivityRow key={record.id} activity={record} now={now} onReplay={onReplay} replaying={replaying === record.id} />
        ))}
      </Stack>
    );
  }

  return (
    <Stack gap="sm" p={compact ? 'xs' : 'md'} maw={compact ? undefined : 960}>
      <Group justify="space-between" gap="sm">
        <Group gap="sm">
          <Title order={1} size={compact ? 'h5' : 'h3'}>
            Activity Feed
          </Title>
          <LiveStatus state={live.state} />
        </Group>
        {!compact && (
          <Button
            size="xs"
            variant="default"
            leftSection={<IconExternalLink size={14} />}
            onClick={() => openPopout(popoutPaths.activityFeed(channelId), `activity-${channelId}`, { width: 440, height: 760 })}
          >
            Pop out activity feed
          </Button>
        )}
      </Group>
      <Group gap="xs" wrap="wrap" align="center">
        <MultiSelect
          size="xs"
          aria-label="Filter by type"
          placeholder={types.length === 0 ? 'All types' : undefined}
          data={activityTypes.map((type) => ({ value: type, label: activityTypeLabels[type] }))}
          value={types}
          onChange={(value) => setTypes(value)}
          clearable
          searchable
          style={{ flex: '1 1 220px', maxWidth: 420 }}
        />
        <Chip.Group multiple value={platforms} onChange={(value) => setPlatforms(value)}>
          <Group gap={6} role="group" aria-label="Filter by platform">
            {streamingProviders.map((id) => (
              <Chip
                key={id}
                value={id}
                size="xs"
                variant="light"
                color={providers[id].color}
                icon={<ProviderIcon provider={id} size={12} />}
              >
                {providers[id].name}
              </Chip>
            ))}
          </Group>
        </Chip.Group>
      </Group>
      {body}
      <div ref={sentinel} />
      {hasNextPage && (
        <Center>
          <Button variant="subtle" size="xs" loading={isFetchingNextPage} onClick={() => void fetchNextPage()}>
            Load more
          </Button>
        </Center>
      )}
      {isFetchingNextPage && !hasNextPage && (
        <Center>
          <Loader size="xs" type="dots" />
        </Center>
      )}
    </Stack>
  );
}
