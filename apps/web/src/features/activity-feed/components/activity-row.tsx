import { Badge, Button, Group, Paper, Text, Tooltip } from '@mantine/core';
import { IconPlayerPlay } from '@tabler/icons-react';
import { memo } from 'react';
import type { Activity } from '@greenroom/contracts/api/events';
import { providers } from '@greenroom/contracts/providers';
import { ProviderIcon } from '../../../components/provider-icon';
import { formatDateTime, relativeTime } from '../../../lib/format';
import { activityDetails, activityHeadline, activityTypeLabels } from './activity-labels';

/** One activity: platform, type, viewer, amount/tier/months/count, message, age and a Replay button. */
export const ActivityRow = memo(function ActivityRow({
  activity,
  now,
  onReplay,
  replaying,
}: {
  activity: Activity;
  now: number;
  onReplay: (id: string) => void;
  replaying: boolean;
}) {
  const info = providers[activity.provider];
  const details = activityDetails(activity);
  return (
    <Paper
      withBorder
      p="sm"
      radius="md"
      component="li"
      data-activity-type={activity.type}
      aria-label={`${activityTypeLabels[activity.type]} on ${info.name}: ${activityHeadline(activity)}`}
    >
      <Group wrap="nowrap" align="flex-start" gap="sm">
        <Text c={`${info.color}.5`} mt={2} title={info.name} component="span">
          <ProviderIcon provider={activity.provider} size={20} />
        </Text>
        <div style={{ flex: 1, minWidth: 0 }}>
          <Group gap={6} wrap="wrap">
            <Badge size="sm" variant="light" color={info.color} tt="none">
              {activityTypeLabels[activity.type]}
            </Badge>
            <Text fw={600} size="sm">
              {activityHeadline(activity)}
            </Text>
            {details.map((detail) => (
              <Tooltip key={detail.text} label={detail.meaning} withArrow>
                <Badge size="sm" variant="outline" color="gray" tt="none" aria-label={`${detail.meaning}: ${detail.text}`}>
                  {detail.text}
                </Badge>
              </Tooltip>
            ))}
          </Group>
          {activity.message && (
            <Text size="sm" c="gray.4" mt={4} style={{ overflowWrap: 'anywhere' }}>
              {activity.message}
            </Text>
          )}
        </div>
        <Group gap="xs" wrap="nowrap">
          <Tooltip label={formatDateTime(activity.occurred_at)}>
            <Text size="xs" c="dimmed" component="time" dateTime={activity.occurred_at} miw={28} ta="right">
              {relativeTime(activity.occurred_at, now)}
            </Text>
          </Tooltip>
          <Button
            size="compact-xs"
            variant="light"
            leftSection={<IconPlayerPlay size={12} />}
            loading={replaying}
            onClick={() => onReplay(activity.id)}
            aria-label={`Replay ${activityHeadline(activity)}`}
          >
            Replay
          </Button>
        </Group>
      </Group>
    </Paper>
  );
});
