import { SongRequestsPage } from '../../../features/spotify/components/song-requests-page';
import { useCurrentChannel } from './use-current-channel';

/** `/channels/:channelId/song-requests` (Mod; the rules for Editors). */
export function Component() {
  const channel = useCurrentChannel();
  return <SongRequestsPage channelId={channel.id} level={channel.access_level} />;
}
