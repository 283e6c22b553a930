import { Alert, Anchor, Badge, Text, Tooltip } from '@mantine/core';
import { IconFlask } from '@tabler/icons-react';
import { useAuthProviders } from '../../../api/get-auth-providers';

function controlUrl(emulatorUrl: string | null): string | null {
  return emulatorUrl ? `${emulatorUrl.replace(/\/$/, '')}/_emulator/` : null;
}

/**
 * "Local platforms" notice, shown when the server runs against the platform emulator: a badge in headers,
 * an alert on the sign-in page. Both link to the emulator's control page.
 */
export function LocalPlatformsNotice({ variant = 'badge' }: { variant?: 'badge' | 'alert' }) {
  const { data } = useAuthProviders();
  if (!data?.platforms.local_platforms) return null;
  const href = controlUrl(data.platforms.emulator_url);

  if (variant === 'alert') {
    return (
      <Alert color="yellow" variant="light" icon={<IconFlask aria-hidden />} title="Local platforms" radius="md">
        <Text size="sm">
          This server uses the local platform emulator instead of the real Twitch, YouTube and Kick. Accounts, chat and streams are
          simulated.
        </Text>
        {href && (
          <Anchor href={href} target="_blank" rel="noreferrer" size="sm" mt={4} display="inline-block" c="yellow.3" underline="always">
            Open the emulator controls
          </Anchor>
        )}
      </Alert>
    );
  }

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
