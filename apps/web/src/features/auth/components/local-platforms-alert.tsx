import { Alert, Anchor, Text } from '@mantine/core';
import { IconFlask } from '@tabler/icons-react';
import { useAuthProviders } from '../../../api/get-auth-providers';

export function emulatorControlUrl(emulatorUrl: string | null): string | null {
  return emulatorUrl ? `${emulatorUrl.replace(/\/$/, '')}/_emulator/` : null;
}

/**
 * "Local platforms" alert of the sign-in page, shown when the server runs against the platform emulator; links to
 * the emulator's control page. Kept apart from the header badge, whose tooltip the sign-in page does not load.
 */
export function LocalPlatformsAlert() {
  const { data } = useAuthProviders();
  if (!data?.platforms.local_platforms) return null;
  const href = emulatorControlUrl(data.platforms.emulator_url);
  return (
    <Alert color="yellow" variant="light" icon={<IconFlask aria-hidden />} title="Local platforms" radius="md">
      <Text size="sm">
        This server uses the local platform emulator instead of the real Twitch, YouTube and Kick. Accounts, chat and streams are simulated.
      </Text>
      {href && (
        <Anchor href={href} target="_blank" rel="noreferrer" size="sm" mt={4} display="inline-block" c="yellow.3" underline="always">
          Open the emulator controls
        </Anchor>
      )}
    </Alert>
  );
}
