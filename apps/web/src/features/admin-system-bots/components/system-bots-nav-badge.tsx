import { Badge, Tooltip } from '@mantine/core';
import { useSystemBots } from '../api/get-system-bots';

/** The admin nav badge: red count of bots needing reconnect, or an orange "!" when no bot exists. */
export function SystemBotsNavBadge() {
  const bots = useSystemBots();
  if (!bots.data) return null;
  const needing = bots.data.filter((b) => b.scope_needed).length;
  if (needing > 0) {
    return (
      <Badge
        color="red"
        size="sm"
        variant="filled"
        circle
        aria-label={`${needing} system bot${needing === 1 ? '' : 's'} need reconnecting`}
      >
        {needing}
      </Badge>
    );
  }
  if (bots.data.length === 0) {
    return (
      <Tooltip label="No system bot connected" withArrow>
        <Badge color="orange" size="sm" variant="filled" circle aria-label="No system bot connected">
          !
        </Badge>
      </Tooltip>
    );
  }
  return null;
}
