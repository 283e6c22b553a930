import '@mantine/charts/styles.css';
import { Sparkline } from '@mantine/charts';
import { Group, Skeleton, Stack, Text } from '@mantine/core';
import type { LiveStatsDto } from '@greenroom/contracts/api/stats';
import { ErrorAlert } from '../../../components/error-alert';

/** Chat messages per minute over the last 30 minutes, every platform together. */
export function ChatRate({ stats }: { stats: { data?: LiveStatsDto; isPending: boolean; error: unknown } }) {
  if (stats.isPending) return <Skeleton h={72} radius="md" aria-label="Loading chat rate" />;
  if (stats.error) return <ErrorAlert error={stats.error} />;
  const points = stats.data?.messages_per_minute ?? [];
  const values = points.map((p) => p.messages);
  // The current minute is still filling up: the last complete minute is the rate.
  const lastFull = values.length >= 2 ? values[values.length - 2]! : (values[0] ?? 0);
  const total = values.reduce((a, b) => a + b, 0);
  return (
    <Stack gap={4}>
      <Group justify="space-between" align="baseline">
        <Text size="xl" fw={700} aria-label={`${lastFull} chat messages in the last minute`}>
          {lastFull.toLocaleString('en-US')}
          <Text span size="sm" c="dimmed" fw={400}>
            {' '}
            messages/min
          </Text>
        </Text>
        <Text size="xs" c="dimmed">
          {total.toLocaleString('en-US')} in 30 min
        </Text>
      </Group>
      {total === 0 ? (
        <Text size="sm" c="dimmed" h={48}>
          No chat in the last 30 minutes.
        </Text>
      ) : (
        <Sparkline
          h={48}
          data={values}
          curveType="monotone"
          color="teal"
          fillOpacity={0.35}
          strokeWidth={1.5}
          aria-label="Chat messages per minute, last 30 minutes"
          role="img"
        />
      )}
    </Stack>
  );
}
