import { useParams } from 'react-router';
import { ProviderDetailPage } from '../../../features/channel-providers/components/provider-detail-page';
import { useCurrentChannel } from './use-current-channel';

/** `/channels/:channelId/providers/:channelProviderId`. */
export function Component() {
  const { channelProviderId = '' } = useParams();
  return <ProviderDetailPage key={channelProviderId} channel={useCurrentChannel()} channelProviderId={channelProviderId} />;
}
