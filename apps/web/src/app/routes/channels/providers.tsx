import { ProvidersPage } from '../../../features/channel-providers/components/providers-page';
import { useCurrentChannel } from './use-current-channel';

/** `/channels/:channelId/providers` (Editors see it and edit stream info; Admins manage). */
export function Component() {
  return <ProvidersPage channel={useCurrentChannel()} />;
}
