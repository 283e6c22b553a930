import { AspectRatio, Button, Center, Group, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { IconBrandYoutube, IconPlayerPlay } from '@tabler/icons-react';
import { useEffect, useId, useRef, useState } from 'react';
import type { ChannelProvider } from '@greenroom/contracts/api/channel-providers';
import { providers } from '@greenroom/contracts/providers';
import { ErrorAlert } from '../../../components/error-alert';
import { useAuthProviders } from '../../../api/get-auth-providers';
import { openCenteredPopup } from '../../../lib/connect-popup';
import { platformLinks, type PlatformLinks } from '../platform-links';

interface TwitchEmbedOptions {
  channel: string;
  parent: string[];
  width: string;
  height: string;
  autoplay: boolean;
  muted: boolean;
  layout: 'video';
}
declare global {
  interface Window {
    Twitch?: { Embed: new (target: string | HTMLElement, options: TwitchEmbedOptions) => unknown };
  }
}

const scripts = new Map<string, Promise<void>>();

/** Loads a script once per page (the Twitch embed script). */
export function loadScript(src: string): Promise<void> {
  let loading = scripts.get(src);
  if (!loading) {
    loading = new Promise<void>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = src;
      script.async = true;
      script.onload = () => resolve();
      script.onerror = () => {
        scripts.delete(src);
        script.remove();
        reject(new Error('The Twitch player could not be loaded.'));
      };
      document.head.appendChild(script);
    });
    scripts.set(src, loading);
  }
  return loading;
}

function TwitchPlayer({ channel, links }: { channel: string; links: PlatformLinks }) {
  const id = `twitch-embed-${useId().replace(/:/g, '')}`;
  const ref = useRef<HTMLDivElement>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    let cancelled = false;
    const target = ref.current;
    loadScript(links.twitchEmbedScript)
      .then(() => {
        if (cancelled || !target || !window.Twitch) return;
        target.replaceChildren();
        new window.Twitch.Embed(target, {
          channel,
          parent: [window.location.hostname],
          width: '100%',
          height: '100%',
          autoplay: true,
          muted: true,
          layout: 'video',
        });
      })
      .catch((e: unknown) => !cancelled && setError(e));
    return () => {
      cancelled = true;
      target?.replaceChildren();
    };
  }, [channel, links.twitchEmbedScript]);
  if (error) return <ErrorAlert error={error} />;
  return (
    <AspectRatio ratio={16 / 9}>
      <div id={id} ref={ref} style={{ background: 'var(--mantine-color-dark-8)' }} />
    </AspectRatio>
  );
}

function Frame({ src, title }: { src: string; title: string }) {
  return (
    <AspectRatio ratio={16 / 9}>
      <iframe
        src={src}
        title={title}
        allow="autoplay; fullscreen; encrypted-media; picture-in-picture"
        allowFullScreen
        style={{ border: 0 }}
      />
    </AspectRatio>
  );
}

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
      player = <TwitchPlayer channel={p.provider_channel_name} links={links} />;
      break;
    case 'youtube':
      player = p.live_stream_id ? (
        <Frame src={links.youtubeEmbed(p.live_stream_id, muted)} title={`YouTube player: ${p.provider_channel_name}`} />
      ) : (
        <ConfigureInStudio provider={p} links={links} />
      );
      break;
    case 'kick':
      player = <Frame src={links.kickPlayer(p.provider_channel_name, muted)} title={`Kick player: ${p.provider_channel_name}`} />;
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
