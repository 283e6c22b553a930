import { can } from '@greenroom/contracts/abilities';
import { WatchGuide } from '../../../features/watch/components/watch-guide';
import { useCurrentChannel } from './use-current-channel';

/** `/channels/:channelId/watch-guide` (every member): the public watch page explained, with its link per platform. */
export function Component() {
  const channel = useCurrentChannel();
  return <WatchGuide channel={channel} canConnect={can(channel.access_level, 'platforms.manage')} />;
}
