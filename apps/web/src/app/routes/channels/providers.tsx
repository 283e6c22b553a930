import { ProvidersPage } from '../../../features/channel-providers/components/providers-page';
import { useCurrentChannel } from './use-current-channel';

/** `/channels/:channelId/providers` (Mod and above see it; Admins manage). */
export function Component() {
  return <ProvidersPage channel={useCurrentChannel()} />;
}
