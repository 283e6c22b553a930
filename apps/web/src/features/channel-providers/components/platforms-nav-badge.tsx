import { Badge, Tooltip } from '@mantine/core';
import type { Channel } from '@greenroom/contracts/api/channels';
import { useLiveChannelProviders } from '../../../api/live-channel-providers';
import { reconnectNeeded } from '../provider-updates';

/** The Platforms nav badge: red count of connections needing reconnect, or an orange "!" when none is connected. Live. */
export function PlatformsNavBadge({ channel }: { channel: Channel }) {
  const list = useLiveChannelProviders(channel.id);
  if (!list.data) return null;
  const needing = reconnectNeeded(list.data);
  if (needing === 'none') {
    return (
      <Tooltip label="No platform connected" withArrow>
        <Badge color="orange" size="sm" variant="filled" circle aria-label="No platform connected">
          !
        </Badge>
      </Tooltip>
    );
  }
  if (needing === 0) return null;
  return (
    <Badge color="red" size="sm" variant="filled" circle aria-label={`${needing} platform${needing === 1 ? '' : 's'} need reconnecting`}>
      {needing}
    </Badge>
  );
}
