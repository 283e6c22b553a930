import { Avatar, Button, Group, Paper, Skeleton, Stack, Text, Title, Tooltip } from '@mantine/core';
import { ErrorAlert } from '../../../components/error-alert';
import { formatDateTime, relativeTime } from '../../../lib/format';
import { flattenPages } from '../../../lib/paginated-cache';
import { useAuditLog } from '../api/get-audit-log';
import { describeAuditEntry } from '../audit-text';

/** Who did what and when in the channel (staff changes and other features' actions), newest first. */
export function AuditLogList({ channelId }: { channelId: string }) {
  const log = useAuditLog(channelId);
  const entries = flattenPages(log.data);

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="audit-log-title">
      <Stack gap="sm">
        <div>
          <Title order={2} size="h4" id="audit-log-title">
            Audit log
          </Title>
          <Text size="sm" c="dimmed">
            Staff changes and moderation actions in this channel.
          </Text>
        </div>
        {log.isError && <ErrorAlert error={log.error} />}
        {log.isPending && (
          <Stack gap="xs">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} h={28} radius="sm" />
            ))}
          </Stack>
        )}
        {log.isSuccess && entries.length === 0 && (
          <Text size="sm" c="dimmed">
            Nothing has happened yet.
          </Text>
        )}
        <Stack gap={8} component="ol" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Audit log entries">
          {entries.map((entry) => (
            <Group key={entry.id} component="li" gap="sm" wrap="nowrap" align="flex-start">
              <Avatar name={entry.actor?.display_name ?? '?'} color="initials" size={26} radius="xl" mt={2} />
              <Text size="sm" style={{ flex: 1, minWidth: 0, wordBreak: 'break-word' }}>
                <Text span fw={600} inherit>
                  {entry.actor?.display_name ?? 'A former user'}
                </Text>{' '}
                {describeAuditEntry(entry)}
              </Text>
              <Tooltip label={formatDateTime(entry.created_at)} withArrow>
                <Text size="xs" c="dimmed" component="time" dateTime={entry.created_at} style={{ whiteSpace: 'nowrap' }} mt={3}>
                  {relativeTime(entry.created_at)}
                </Text>
              </Tooltip>
            </Group>
          ))}
        </Stack>
        {log.hasNextPage && (
          <Group justify="center">
            <Button variant="default" size="xs" onClick={() => void log.fetchNextPage()} loading={log.isFetchingNextPage}>
              Load more
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
