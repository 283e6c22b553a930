import { Button, Group, Text } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';

/** Size of the popouts streamers dock in OBS (custom browser docks) or keep beside the stream. */
const POPOUT_FEATURES = 'width=420,height=720';

const popouts = [
  { key: 'chat', label: 'Chat', path: (id: string) => `/popout/channels/${id}/staff-chat`, hint: 'with moderation' },
  { key: 'activity', label: 'Activity Feed', path: (id: string) => `/popout/channels/${id}/activity-feed`, hint: null },
  { key: 'public', label: 'Public chat', path: (id: string) => `/popout/channels/${id}/chat`, hint: 'read-only, no sign-in' },
] as const;

/** Buttons opening the channel's popouts in their own windows (their URLs also work as OBS docks). */
export function PopoutButtons({ channelId }: { channelId: string }) {
  return (
    <Group gap="xs">
      {popouts.map((p) => {
        const url = p.path(encodeURIComponent(channelId));
        return (
          <Button
            key={p.key}
            component="a"
            href={url}
            target="_blank"
            variant="default"
            size="xs"
            rightSection={<IconExternalLink size={14} aria-hidden />}
            aria-label={`Open the ${p.label.toLowerCase()} popout`}
            onClick={(event) => {
              // A sized window; a blocked popup falls back to the link's new tab.
              if (window.open(url, `greenroom-${p.key}-${channelId}`, POPOUT_FEATURES)) event.preventDefault();
            }}
          >
            {p.label}
            {p.hint && (
              <Text span size="xs" c="dimmed" ml={6} visibleFrom="sm">
                {p.hint}
              </Text>
            )}
          </Button>
        );
      })}
    </Group>
  );
}
