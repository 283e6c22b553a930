import { AspectRatio, Button, Center, Group, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { IconBrandYoutube, IconPlayerPlay } from '@tabler/icons-react';
import { useState } from 'react';
import type { ChannelProvider } from '@greenroom/contracts/api/channel-providers';
import { providers } from '@greenroom/contracts/providers';
import { useAuthProviders } from '../../../api/get-auth-providers';
import { openCenteredPopup } from '../../../lib/connect-popup';
import { platformLinks, type PlatformLinks } from '../../../lib/platform-links';
import { PlayerFrame, TwitchPlayer } from '../../../components/live-player';

/** YouTube without a live_stream_id: the "Configure in Studio" button (an 800×800 popup). */
function ConfigureInStudio({ provider: p, links }: { provider: ChannelProvider; links: PlatformLinks }) {
  return (
    <AspectRatio ratio={16 / 9}>
      <Center bg="dark.8" p="md">
        <Stack align="center" gap="xs" ta="center">
          <IconBrandYoutube size={36} color="var(--mantine-color-red-6)" aria-hidden />
          <Text size="sm">No live stream is scheduled or running on this channel.</Text>
          <Button
            color="red"
            leftSection={<IconPlayerPlay size={16} />}
            onClick={() => {
              const url = links.youtubeStudio(p);
              if (!openCenteredPopup(url, 'youtube-studio')) window.open(url, '_blank', 'noopener,noreferrer');
            }}
          >
            Configure in Studio
          </Button>
        </Stack>
      </Center>
    </AspectRatio>
  );
}

/** The embedded player of a streaming connection: Twitch embed script, YouTube embed, Kick player. */
export function EmbeddedPlayer({ provider: p }: { provider: ChannelProvider }) {
  const mode = useAuthProviders();
  const [muted, setMuted] = useState(true);
  const info = providers[p.provider];
  if (!info.stream) return null;
  if (!mode.data)
    return (
      <AspectRatio ratio={16 / 9}>
        <Center bg="dark.8" aria-busy="true" />
      </AspectRatio>
    );
  const links = platformLinks(mode.data.platforms.emulator_url);
  let player: React.ReactNode;
  switch (p.provider) {
    case 'twitch':
      player = <TwitchPlayer channel={p.provider_channel_name} script={links.twitchEmbedScript} />;
      break;
    case 'youtube':
      player = p.live_stream_id ? (
        <PlayerFrame src={links.youtubeEmbed(p.live_stream_id, muted)} title={`YouTube player: ${p.provider_channel_name}`} />
      ) : (
        <ConfigureInStudio provider={p} links={links} />
      );
      break;
    case 'kick':
      player = <PlayerFrame src={links.kickPlayer(p.provider_channel_name, muted)} title={`Kick player: ${p.provider_channel_name}`} />;
      break;
    default:
      player = (
        <Text size="sm" c="dimmed">
          {info.name} LIVE cannot be embedded{p.dashboard_url ? '; open it on ' + info.name + '.' : '.'}
        </Text>
      );
  }
  const hasMuteFlag = p.provider === 'kick' || (p.provider === 'youtube' && p.live_stream_id != null);
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby={`player-${p.id}`}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4" id={`player-${p.id}`}>
            Player
          </Title>
          {hasMuteFlag && <Switch label="Muted" checked={muted} onChange={(e) => setMuted(e.currentTarget.checked)} />}
        </Group>
        {player}
      </Stack>
    </Paper>
  );
}
