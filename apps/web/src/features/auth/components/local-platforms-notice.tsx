import { Badge, Tooltip } from '@mantine/core';
import { IconFlask } from '@tabler/icons-react';
import { useAuthProviders } from '../../../api/get-auth-providers';
import { emulatorControlUrl } from './local-platforms-alert';

/**
 * "Local platforms" badge in headers, shown when the server runs against the platform emulator; links to the
 * emulator's control page. (The sign-in page shows `LocalPlatformsAlert` instead.)
 */
export function LocalPlatformsNotice() {
  const { data } = useAuthProviders();
  if (!data?.platforms.local_platforms) return null;
  const href = emulatorControlUrl(data.platforms.emulator_url);

  const link = href ? { component: 'a' as const, href, target: '_blank', rel: 'noreferrer' } : { component: 'span' as const };
  return (
    <Tooltip label="Platforms are simulated by the local emulator. Open its controls." withArrow>
      <Badge
        {...link}
        color="yellow"
        variant="light"
        size="lg"
        radius="sm"
        leftSection={<IconFlask size={14} aria-hidden />}
        style={href ? { cursor: 'pointer' } : undefined}
        aria-label="Local platforms"
        tt="none"
        styles={{ label: { display: 'var(--gr-local-label-display, inline)' } }}
        className="gr-local-platforms"
      >
        Local platforms
      </Badge>
    </Tooltip>
  );
}
