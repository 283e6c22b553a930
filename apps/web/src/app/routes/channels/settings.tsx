import { ChannelSettingsPage } from '../../../features/channel-settings/components/channel-settings-page';
import { useCurrentChannel } from './use-current-channel';

/** `/channels/:channelId/settings` (Admin and above; the Owner also deletes the channel). */
export function Component() {
  return <ChannelSettingsPage channel={useCurrentChannel()} />;
}
