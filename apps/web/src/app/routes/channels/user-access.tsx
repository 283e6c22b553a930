import { FullHeightLoader } from '../../../components/full-height-loader';
import { useUser } from '../../../features/user/api/get-user';
import { UserAccessPage } from '../../../features/user-access/components/user-access-page';
import { useCurrentChannel } from './use-current-channel';

/** `/channels/:channelId/user-access` (Admin and above). */
export function Component() {
  const channel = useCurrentChannel();
  const user = useUser();
  if (!user.data) return <FullHeightLoader label="Loading your account" />;
  return <UserAccessPage channel={channel} currentUserId={user.data.id} />;
}
