import { Anchor, Grid, Group, ScrollArea, Skeleton, Stack, Text, Title } from '@mantine/core';
import { lazy, Suspense, type ReactNode } from 'react';
import { Link } from 'react-router';
import { can } from '@greenroom/contracts/abilities';
import type { ChannelProvider } from '@greenroom/contracts/api/channel-providers';
import type { Channel } from '@greenroom/contracts/api/channels';
import { RoleBadge } from '../../../components/role-badge';
import { formatDate } from '../../../lib/format';
import { useLiveStats } from '../api/get-live-stats';
import { AdBreakPanel } from './ad-break-panel';
import { ChannelDetailsSection, Section, YourAccessSection } from './dashboard-sections';
import { LiveStatusPanel } from './live-status-panel';
import { PopoutButtons } from './popout-buttons';
import { StreamInfoEditor } from './stream-info-editor';

/** The sparkline brings the charts library: it loads after the rest of the dashboard. */
const ChatRate = lazy(() => import('./chat-rate').then((m) => ({ default: m.ChatRate })));

interface DashboardPageProps {
  channel: Channel;
  /** The channel's connections, kept live (the Platforms feature's list); absent for roles that may not see them. */
  providers?: { data?: ChannelProvider[]; isPending: boolean; error: unknown };
  /** A connection's live state and health badges. */
  renderStatus?: (p: ChannelProvider) => ReactNode;
  /** The recent activity (the Activity Feed feature), shown to those who may read it. */
  activity?: ReactNode;
}

/**
 * The channel home: every platform's live state, viewers, uptime and health; one title and category for every
 * platform at once; chat rate, popouts and recent activity; what your role may do. Each part shows to the roles
 * that have its ability.
 */
export function DashboardPage({ channel, providers, renderStatus, activity }: DashboardPageProps) {
  const staff = providers !== undefined && can(channel.access_level, 'platforms.view');
  const liveConnectionIds = (providers?.data ?? []).filter((p) => p.is_live).map((p) => p.id);
  const live = useLiveStats(channel.id, staff, liveConnectionIds);
  const base = `/channels/${channel.id}`;
  return (
    <Stack gap="lg" p={{ base: 'md', sm: 'lg' }} maw={1280}>
      <Group justify="space-between" align="flex-end" gap="sm">
        <div style={{ minWidth: 0 }}>
          <Group gap="sm" align="center">
            <Title order={1} size="h2" style={{ wordBreak: 'break-word' }}>
              {channel.display_name}
            </Title>
            <RoleBadge level={channel.access_level} />
          </Group>
          <Text c="dimmed" size="sm">
            Created {formatDate(channel.created_at)}
          </Text>
        </div>
        {staff && <PopoutButtons channelId={channel.id} />}
      </Group>

      <Grid gap="md" align="flex-start">
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <Stack gap="md">
            {providers && renderStatus && (
              <Section
                title="Live status"
                action={
                  can(channel.access_level, 'stream.update') && (
                    <Anchor component={Link} to={`${base}/providers`} size="xs">
                      Open Platforms
                    </Anchor>
                  )
                }
              >
                <LiveStatusPanel channel={channel} providers={providers} streams={live.data?.streams ?? []} renderStatus={renderStatus} />
              </Section>
            )}
            {providers && can(channel.access_level, 'stream.update') && (
              <Section title="Stream title and category">
                {providers.data ? (
                  <StreamInfoEditor channelId={channel.id} connections={providers.data} />
                ) : (
                  <Text size="sm" c="dimmed">
                    {providers.isPending ? 'Loading platforms…' : 'The platforms could not be loaded.'}
                  </Text>
                )}
              </Section>
            )}
            {providers?.data && can(channel.access_level, 'stream.update') && (
              <Section title="Run an ad">
                <AdBreakPanel channelId={channel.id} connections={providers.data} />
              </Section>
            )}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <Stack gap="md">
            {staff && (
              <Section
                title="Chat rate"
                action={
                  can(channel.access_level, 'stats.read') && (
                    <Anchor component={Link} to={`${base}/stats`} size="xs">
                      Open Stats
                    </Anchor>
                  )
                }
              >
                <Suspense fallback={<Skeleton h={72} radius="md" />}>
                  <ChatRate stats={live} />
                </Suspense>
              </Section>
            )}
            {activity && can(channel.access_level, 'activity.read') && (
              <Section
                title="Recent activity"
                action={
                  <Anchor component={Link} to={`${base}/activity-feed`} size="xs">
                    Open Activity Feed
                  </Anchor>
                }
              >
                <ScrollArea.Autosize mah={380} type="auto" offsetScrollbars>
                  {activity}
                </ScrollArea.Autosize>
              </Section>
            )}
            <YourAccessSection channel={channel} />
            <ChannelDetailsSection channel={channel} />
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
