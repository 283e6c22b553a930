import { Alert, Group, Paper, Progress, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { ChannelProvider } from '@greenroom/contracts/api/channel-providers';
import { ErrorAlert } from '../../../components/error-alert';
import { duration, formatTime } from '../../../lib/format';
import { useYoutubeQuota } from '../api/get-youtube-quota';

const number = (n: number) => n.toLocaleString('en-US');

/**
 * The YouTube Data API quota spent today by this Greenroom's Google project. Every YouTube connection spends from
 * it, and when it is used up YouTube refuses every call until midnight Pacific time.
 */
export function YoutubeQuotaCard({ provider: p }: { provider: ChannelProvider }) {
  const quota = useYoutubeQuota(p.channel_id, p.id);
  const q = quota.data;
  const share = q ? Math.min(100, (q.used / q.limit) * 100) : 0;
  const color = q?.exhausted ? 'red' : share >= 80 ? 'orange' : 'teal';
  const resetsIn = q ? duration((Date.parse(q.resets_at) - Date.now()) / 1000) : '';
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby={`quota-${p.id}`}>
      <Stack gap="xs">
        <Title order={2} size="h4" id={`quota-${p.id}`}>
          YouTube API quota
        </Title>
        {quota.isPending && <Skeleton h={48} radius="sm" aria-label="Loading the YouTube API quota" />}
        {quota.isError && <ErrorAlert error={quota.error} />}
        {q && (
          <>
            {q.exhausted && (
              <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} title="Quota used up for today">
                YouTube refuses Greenroom&apos;s calls until the quota resets at {formatTime(q.resets_at)} (in {resetsIn}): chat, moderation
                and stream info on YouTube are paused until then.
              </Alert>
            )}
            <Group justify="space-between" gap="xs">
              <Text size="sm">
                <b>{number(q.used)}</b> of {number(q.limit)} units used today
              </Text>
              <Text size="sm" c="dimmed">
                {Math.floor(share)}%
              </Text>
            </Group>
            <Progress value={share} color={color} aria-label="YouTube API quota used today" />
            <Text size="xs" c="dimmed">
              Resets at {formatTime(q.resets_at)} (midnight Pacific time), in {resetsIn}. Every YouTube channel connected to this Greenroom
              spends from it: reading chat costs 5 units per stream connection (5 units a poll while YouTube&apos;s stream is unavailable),
              sending a message 20, a timeout, ban or delete 50.
            </Text>
          </>
        )}
      </Stack>
    </Paper>
  );
}
