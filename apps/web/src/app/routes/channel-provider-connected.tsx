import { ChannelProviderConnected } from '../../features/channel-providers/components/channel-provider-connected';

/** `/channel-provider-connected`: landing page of the channel connect flow. */
export function Component() {
  return <ChannelProviderConnected />;
}
