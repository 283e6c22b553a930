import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Group,
  Image,
  Paper,
  Stack,
  Table,
  Text,
  ThemeIcon,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { useState } from 'react';
import { IconBan, IconBrandSpotify, IconMusic, IconPlayerSkipForward, IconX } from '@tabler/icons-react';
import { Link } from 'react-router';
import { can } from '@greenroom/contracts/abilities';
import type { ProviderId } from '@greenroom/contracts/providers';
import { providers } from '@greenroom/contracts/providers';
import {
  songRequestStatusLabels,
  type NowPlaying,
  type SongRequest,
  type SongRequestSettings,
  type SongRequestStatus,
} from '@greenroom/contracts/api/spotify';
import { ErrorAlert } from '../../../components/error-alert';
import { PageState } from '../../../components/page-state';
import { ProviderIcon } from '../../../components/provider-icon';
import { formatTime, relativeTime } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import {
  useLiveSongRequests,
  useNowPlaying,
  useRemoveSongRequest,
  useSaveSongRequestSettings,
  useSkipSong,
  useSongRequests,
  useSongRequestSettings,
} from '../api/song-requests';
import { trackLength } from '../track-length';
import { PageFrame, Section } from '../../../components/page-frame';
import { SongRequestSettingsForm } from './song-request-settings-form';

export const songStatusColors: Record<SongRequestStatus, string> = {
  pending: 'gray',
  queued: 'blue',
  playing: 'green',
  played: 'gray',
  skipped: 'yellow',
  removed: 'orange',
  refused: 'red',
};

const isProvider = (p: string): p is ProviderId => p in providers;

/**
 * `/channels/{id}/song-requests` (Mod): what Spotify plays and the requests waiting (skip, remove, live); Editors also
 * block songs and set the rules of `!sr`.
 */
export function SongRequestsPage({ channelId, level }: { channelId: string; level: number | null }) {
  const requests = useSongRequests(channelId);
  const nowPlaying = useNowPlaying(channelId);
  const canManage = can(level, 'songs.manage');
  const settings = useSongRequestSettings(channelId, canManage);
  const live = useLiveSongRequests(channelId);
  const connection = nowPlaying.data?.state;
  const offline = connection === 'not_connected' || connection === 'reconnect';
  return (
    <PageFrame
      title="Song Requests"
      description={
        <>
          Viewers request songs on the streamer’s Spotify with <b>!sr</b> followed by a song name or a Spotify link; Spotify plays them from
          its queue.{live.state !== 'open' && requests.data ? ' Reconnecting live updates…' : ''}
        </>
      }
      loading={requests.isPending || nowPlaying.isPending}
      error={requests.error ?? nowPlaying.error}
    >
      {offline ? (
        <NotConnected channelId={channelId} reconnect={connection === 'reconnect'} />
      ) : (
        <>
          <NowPlayingPanel channelId={channelId} now={nowPlaying.data} active={requests.data?.active ?? []} />
          <Waiting
            channelId={channelId}
            requests={requests.data?.active.filter((r) => r.status !== 'playing') ?? []}
            settings={canManage ? (settings.data ?? null) : null}
          />
          <Recent channelId={channelId} requests={requests.data?.recent ?? []} settings={canManage ? (settings.data ?? null) : null} />
        </>
      )}
      {canManage && (
        <Section title="Rules" description="Who may request, what it costs and which songs are accepted.">
          {settings.error != null && <ErrorAlert error={settings.error} />}
          {settings.data && <SongRequestSettingsForm channelId={channelId} settings={settings.data} />}
          {settings.isPending && (
            <Text size="sm" c="dimmed">
              Loading the rules…
            </Text>
          )}
        </Section>
      )}
    </PageFrame>
  );
}

function NotConnected({ channelId, reconnect }: { channelId: string; reconnect: boolean }) {
  return (
    <Paper withBorder radius="md">
      <PageState
        icon={<IconBrandSpotify size={28} />}
        color={reconnect ? 'orange' : 'gray'}
        title={reconnect ? 'Spotify needs to be reconnected' : 'Spotify is not connected'}
        description={
          reconnect
            ? 'Spotify refused the stored authorization. A channel Admin reconnects it on the Platforms page; requests wait until then.'
            : 'A channel Admin connects the streamer’s Spotify account (Premium is needed to queue songs) on the Platforms page.'
        }
        action={
          <Button component={Link} to={`/channels/${channelId}/providers`} variant="light">
            Go to Platforms
          </Button>
        }
      />
    </Paper>
  );
}

function NowPlayingPanel({ channelId, now, active }: { channelId: string; now: NowPlaying | undefined; active: SongRequest[] }) {
  const skip = useSkipSong(channelId);
  const playing = now?.state === 'playing' ? now : null;
  const request = playing ? active.find((r) => r.status === 'playing' && r.track.id === playing.track.id) : undefined;
  return (
    <Section
      title="Now playing"
      actions={
        <Button
          leftSection={<IconPlayerSkipForward size={16} aria-hidden />}
          variant="light"
          disabled={!playing}
          loading={skip.isPending}
          onClick={() => skip.mutate(undefined, { onSuccess: () => notifySuccess('Skipped') })}
        >
          Skip
        </Button>
      }
    >
      {skip.error != null && <ErrorAlert error={skip.error} />}
      {playing ? (
        <Group gap="md" wrap="nowrap" aria-label="Now playing">
          <Cover url={playing.track.image_url} />
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Text fw={600} truncate>
              {playing.track.name}
              {!playing.is_playing && (
                <Badge ml="xs" size="sm" variant="light" color="gray">
                  Paused
                </Badge>
              )}
            </Text>
            <Text size="sm" c="dimmed" truncate>
              {playing.track.artists.join(', ')} · {trackLength(playing.track.duration_ms)}
            </Text>
            <Text size="xs" c="dimmed">
              {request ? `Requested by ${request.display_name}` : 'From the streamer’s Spotify'}
            </Text>
          </Stack>
        </Group>
      ) : (
        <Text size="sm" c="dimmed">
          Nothing is playing. Requests are queued while Spotify plays on one of the streamer’s devices.
        </Text>
      )}
    </Section>
  );
}

/** The album cover, or a music note when there is none or it does not load. */
function Cover({ url }: { url: string | null }) {
  const [failed, setFailed] = useState(false);
  if (!url || failed)
    return (
      <ThemeIcon size={56} radius="sm" variant="light" color="green" aria-hidden>
        <IconMusic size={28} />
      </ThemeIcon>
    );
  return <Image src={url} alt="" w={56} h={56} radius="sm" onError={() => setFailed(true)} />;
}

function Requester({ r }: { r: SongRequest }) {
  return (
    <Group gap={6} wrap="nowrap">
      {isProvider(r.provider) && <ProviderIcon provider={r.provider} size={14} aria-label={providers[r.provider].name} />}
      <Text size="sm">{r.display_name}</Text>
    </Group>
  );
}

function TrackCell({ r, compact = false }: { r: SongRequest; compact?: boolean }) {
  return (
    <Stack gap={0} style={{ minWidth: 0 }}>
      {r.track.url ? (
        <Anchor href={r.track.url} target="_blank" rel="noreferrer" size="sm" fw={600} c="inherit">
          {r.track.name}
        </Anchor>
      ) : (
        <Text size="sm" fw={600}>
          {r.track.name}
        </Text>
      )}
      <Text size="xs" c="dimmed">
        {r.track.artists.join(', ')}
        {compact && (
          <Text span inherit hiddenFrom="sm">
            {` · ${trackLength(r.track.duration_ms)}`}
          </Text>
        )}
      </Text>
      {compact && (
        <Text size="xs" c="dimmed" hiddenFrom="sm">
          by {r.display_name} · {songRequestStatusLabels[r.status]}
        </Text>
      )}
    </Stack>
  );
}

function StatusBadge({ status }: { status: SongRequestStatus }) {
  return (
    <Badge variant="light" color={songStatusColors[status]} size="sm">
      {songRequestStatusLabels[status]}
    </Badge>
  );
}

function BlockButton({ channelId, r, settings }: { channelId: string; r: SongRequest; settings: SongRequestSettings }) {
  const save = useSaveSongRequestSettings(channelId);
  const blocked = settings.blocked.some((b) => b.uri === r.track.uri);
  const label = blocked ? `${r.track.name} is blocked` : `Block ${r.track.name}`;
  return (
    <Tooltip label={label}>
      <ActionIcon
        variant="subtle"
        color="orange"
        aria-label={label}
        disabled={blocked}
        loading={save.isPending}
        onClick={() =>
          save.mutate(
            { ...settings, blocked: [...settings.blocked, { uri: r.track.uri, name: r.track.name, artists: r.track.artists }] },
            { onSuccess: () => notifySuccess(`${r.track.name} blocked`) },
          )
        }
      >
        <IconBan size={16} />
      </ActionIcon>
    </Tooltip>
  );
}

function Waiting({ channelId, requests, settings }: { channelId: string; requests: SongRequest[]; settings: SongRequestSettings | null }) {
  const remove = useRemoveSongRequest(channelId);
  return (
    <Section title="Up next" description={requests.length > 0 ? `${requests.length} waiting, oldest first.` : undefined}>
      {remove.error != null && <ErrorAlert error={remove.error} />}
      {requests.length === 0 ? (
        <PageState
          order={3}
          icon={<IconMusic size={28} />}
          title="No requests waiting"
          description={
            settings && !settings.enabled
              ? 'Song requests are off: turn them on in the rules below.'
              : 'Requests typed in chat with !sr appear here as Spotify accepts them.'
          }
        />
      ) : (
        <Paper withBorder radius="md" style={{ overflowX: 'auto' }}>
          <Table verticalSpacing={6} fz="sm" aria-label="Song requests waiting">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={36}>#</Table.Th>
                <Table.Th>Song</Table.Th>
                <Table.Th w={70} visibleFrom="sm">
                  Length
                </Table.Th>
                <Table.Th visibleFrom="sm">Requested by</Table.Th>
                <Table.Th w={90} visibleFrom="sm">
                  Status
                </Table.Th>
                <Table.Th w={90}>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {requests.map((r, i) => (
                <Table.Tr key={r.id}>
                  <Table.Td>{i + 1}</Table.Td>
                  <Table.Td>
                    <TrackCell r={r} compact />
                  </Table.Td>
                  <Table.Td visibleFrom="sm">{trackLength(r.track.duration_ms)}</Table.Td>
                  <Table.Td visibleFrom="sm">
                    <Requester r={r} />
                    <Tooltip label={formatTime(r.requested_at)}>
                      <Text size="xs" c="dimmed" span>
                        {relativeTime(r.requested_at)}
                        {r.cost > 0 ? ` · ${r.cost.toLocaleString('en-US')} points` : ''}
                      </Text>
                    </Tooltip>
                  </Table.Td>
                  <Table.Td visibleFrom="sm">
                    <StatusBadge status={r.status} />
                  </Table.Td>
                  <Table.Td>
                    <Group gap={2} wrap="nowrap" justify="flex-end">
                      {settings && <BlockButton channelId={channelId} r={r} settings={settings} />}
                      <Tooltip label="Remove (refunds its points)">
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={`Remove ${r.track.name} requested by ${r.display_name}`}
                          disabled={r.status !== 'queued'}
                          loading={remove.isPending && remove.variables === r.id}
                          onClick={() => remove.mutate(r.id, { onSuccess: () => notifySuccess(`${r.track.name} removed`) })}
                        >
                          <IconX size={16} />
                        </ActionIcon>
                      </Tooltip>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
      )}
      {requests.length > 0 && (
        <Text size="xs" c="dimmed">
          Spotify cannot take a song out of its queue: a removed request is skipped when Spotify reaches it.
        </Text>
      )}
    </Section>
  );
}

function Recent({ channelId, requests, settings }: { channelId: string; requests: SongRequest[]; settings: SongRequestSettings | null }) {
  return (
    <Section title="Recent">
      {requests.length === 0 ? (
        <Text size="sm" c="dimmed">
          No finished requests yet.
        </Text>
      ) : (
        <Paper withBorder radius="md" style={{ overflowX: 'auto' }}>
          <Table verticalSpacing={6} fz="sm" aria-label="Recent song requests">
            <Table.Tbody>
              {requests.map((r) => (
                <Table.Tr key={r.id}>
                  <Table.Td>
                    <TrackCell r={r} compact />
                  </Table.Td>
                  <Table.Td visibleFrom="sm">
                    <Requester r={r} />
                  </Table.Td>
                  <Table.Td visibleFrom="sm">
                    <Group gap={6} wrap="nowrap">
                      <StatusBadge status={r.status} />
                      {r.reason && (
                        <Text size="xs" c="dimmed">
                          {r.reason}
                        </Text>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td w={80} visibleFrom="sm">
                    <Tooltip label={formatTime(r.updated_at)}>
                      <Text size="xs" c="dimmed">
                        {relativeTime(r.updated_at)}
                      </Text>
                    </Tooltip>
                  </Table.Td>
                  {settings && (
                    <Table.Td w={44}>
                      <BlockButton channelId={channelId} r={r} settings={settings} />
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
      )}
    </Section>
  );
}
