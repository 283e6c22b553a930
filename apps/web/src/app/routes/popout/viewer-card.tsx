import { useParams } from 'react-router';
import { AccessLevel, hasLevel } from '@greenroom/contracts/access';
import { abilityLevel } from '@greenroom/contracts/abilities';
import { channelProviderIdSchema } from '@greenroom/contracts/providers';
import { ViewerModerationActions } from '../../../features/chat/components/viewer-moderation-actions';
import { ViewerWalletSection } from '../../../features/loyalty/components/viewer-wallet-section';
import { ViewerCard } from '../../../features/viewer-card/components/viewer-card';
import { PopoutChannelGate } from './popout-channel-gate';

/**
 * `/popout/channels/:channelId/viewers/:provider/:providerViewerId`: a viewer card with moderation (Mod+), and the
 * viewer's points and linked accounts (unlinking for those who manage loyalty: Editors).
 */
export function Component() {
  const { channelId = '', provider = '', providerViewerId = '' } = useParams();
  return (
    <PopoutChannelGate channelId={channelId} minLevel={AccessLevel.MOD} title="Viewer card">
      {(channel) => (
        <ViewerCard
          channelId={channel.id}
          provider={provider}
          providerViewerId={providerViewerId}
          renderActions={(card, refresh) => {
            const parsed = channelProviderIdSchema.safeParse(card.provider);
            if (!parsed.success || !card.channel_provider_id) return null;
            return (
              <ViewerModerationActions
                target={{
                  channelId: channel.id,
                  provider: parsed.data,
                  channelProviderId: card.channel_provider_id,
                  providerViewerId: card.provider_user_id,
                  displayName: card.display_name,
                }}
                banned={card.banned}
                onDone={refresh}
              />
            );
          }}
          renderSections={(card) => {
            const parsed = channelProviderIdSchema.safeParse(card.provider);
            if (!parsed.success) return null;
            return (
              <ViewerWalletSection
                channelId={channel.id}
                provider={parsed.data}
                providerUserId={card.provider_user_id}
                canUnlink={hasLevel(channel.access_level, abilityLevel('games.manage'))}
              />
            );
          }}
        />
      )}
    </PopoutChannelGate>
  );
}
