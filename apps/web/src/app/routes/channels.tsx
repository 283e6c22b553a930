import { ChannelList } from '../../features/channels/components/channel-list';

/** `/` and `/channels`. */
export function Component() {
  return <ChannelList />;
}
