import { useParams } from 'react-router';
import { AccessLevel } from '@greenroom/contracts/access';
import { GiveawayPopout } from '../../../features/loyalty/components/giveaway-popout';
import { PopoutChannelGate } from './popout-channel-gate';

/** `/popout/channels/:channelId/giveaways/:giveawayId`: the animated draw, fit for an OBS browser source (Editor+). */
export function Component() {
  const { channelId = '', giveawayId = '' } = useParams();
  return (
    <PopoutChannelGate channelId={channelId} minLevel={AccessLevel.EDITOR} title="Giveaway">
      {(channel) => <GiveawayPopout channelId={channel.id} giveawayId={giveawayId} />}
    </PopoutChannelGate>
  );
}
