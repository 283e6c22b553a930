import { Avatar, Button, Group, Paper, Select, Skeleton, Stack, Text, Title, Tooltip } from '@mantine/core';
import { useState } from 'react';
import { ErrorAlert } from '../../../components/error-alert';
import { formatDateTime, relativeTime } from '../../../lib/format';
import { flattenPages } from '../../../lib/paginated-cache';
import { useAuditLog, useAuditLogActors } from '../api/get-audit-log';
import { auditActionFilters, describeAuditEntry } from '../audit-text';

/**
 * Who did what and when in the channel (staff changes, moderation, messages sent, platforms and other features'
 * actions) as sentences, newest first, narrowed by action and by person.
 */
export function AuditLogList({ channelId }: { channelId: string }) {
  const [action, setAction] = useState<string | null>(null);
  const [actorUserId, setActor] = useState<string | null>(null);
  const log = useAuditLog(channelId, { action, actorUserId });
  const actors = useAuditLogActors(channelId);
  const entries = flattenPages(log.data);
  const filtered = action !== null || actorUserId !== null;

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="audit-log-title">
      <Stack gap="sm">
        <div>
          <Title order={2} size="h4" id="audit-log-title">
            Audit log
          </Title>
          <Text size="sm" c="dimmed">
            Staff changes, moderation, messages sent and platform changes in this channel.
          </Text>
        </div>
        <Group gap="xs" wrap="wrap" role="group" aria-label="Filter the audit log">
          <Select
            size="xs"
            label="Action"
            placeholder="All actions"
            data={auditActionFilters}
            value={action}
            onChange={setAction}
            clearable
            style={{ flex: '1 1 180px' }}
          />
          <Select
            size="xs"
            label="Person"
            placeholder="Everyone"
            data={(actors.data ?? []).map((a) => ({ value: a.id, label: a.display_name }))}
            value={actorUserId}
            onChange={setActor}
            clearable
            searchable
            nothingFoundMessage="Nobody by that name"
            style={{ flex: '1 1 160px' }}
          />
        </Group>
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
            {filtered ? 'Nothing matches these filters.' : 'Nothing has happened yet.'}
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
