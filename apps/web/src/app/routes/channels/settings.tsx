import { ChannelSettingsPage } from '../../../features/channel-settings/components/channel-settings-page';
import { DiscordAnnouncements } from '../../../features/discord/components/discord-announcements';
import { useCurrentChannel } from './use-current-channel';

/** `/channels/:channelId/settings` (Admin and above; the Owner also deletes the channel), with Discord announcements. */
export function Component() {
  const channel = useCurrentChannel();
  return (
    <ChannelSettingsPage channel={channel}>
      <DiscordAnnouncements channelId={channel.id} />
    </ChannelSettingsPage>
  );
}
