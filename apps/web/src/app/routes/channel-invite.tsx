import { useParams } from 'react-router';
import { ChannelInvite } from '../../features/channel-invite/components/channel-invite';

/** `/channel-invite/:channelUserInviteId` (signed in; signed out goes through /sign-in?next=… and back). */
export function Component() {
  const { channelUserInviteId = '' } = useParams();
  return <ChannelInvite inviteId={channelUserInviteId} />;
}
