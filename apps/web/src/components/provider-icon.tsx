import {
  IconBrandDiscord,
  IconBrandKick,
  IconBrandSpotify,
  IconBrandTiktok,
  IconBrandTwitch,
  IconBrandYoutube,
  IconMoodSmile,
  type IconProps,
} from '@tabler/icons-react';
import { assertUnreachable, type ProviderId } from '@greenroom/contracts/providers';

/** The brand icon of a provider of the catalogue. */
export function ProviderIcon({ provider, ...props }: { provider: ProviderId } & IconProps) {
  switch (provider) {
    case 'twitch':
      return <IconBrandTwitch aria-hidden {...props} />;
    case 'youtube':
      return <IconBrandYoutube aria-hidden {...props} />;
    case 'kick':
      return <IconBrandKick aria-hidden {...props} />;
    case 'tiktok':
      return <IconBrandTiktok aria-hidden {...props} />;
    case 'spotify':
      return <IconBrandSpotify aria-hidden {...props} />;
    case 'discord':
      return <IconBrandDiscord aria-hidden {...props} />;
    case '7tv':
    case 'betterttv':
      return <IconMoodSmile aria-hidden {...props} />;
    default:
      return assertUnreachable(provider);
  }
}
