import { Alert, Anchor, Breadcrumbs, Button, Grid, Group, Paper, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { IconAlertTriangle, IconPlugConnectedX } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { AccessLevel, hasLevel } from '@greenroom/contracts/access';
import type { Channel } from '@greenroom/contracts/api/channels';
import { providers } from '@greenroom/contracts/providers';
import { ErrorAlert } from '../../../components/error-alert';
import { PageState } from '../../../components/page-state';
import { ProviderIcon } from '../../../components/provider-icon';
import { isApiError } from '../../../lib/api-client';
import { getChannelProviderQueryOptions } from '../../../api/get-channel-providers';
import { useConnectChannelProvider } from '../hooks/use-connect-channel-provider';
import { useLiveChannelProviders } from '../../../api/live-channel-providers';
import { BotAccountCard } from './bot-account-card';
import { ConnectionHealthCard } from './connection-health-card';
import { ConnectionStatus } from './connection-status';
import { DashboardLinkButton } from './dashboard-link-button';
import { RECONNECT_NEEDS_ADMIN, ReconnectButton } from './reconnect-button';
import { DisconnectProviderButton } from './disconnect-provider-button';
import { EmbeddedPlayer } from './embedded-player';
import { StreamInfoCard } from './stream-info-form';
import { YoutubeQuotaCard } from './youtube-quota-card';
import { LEAVE_WITHOUT_ASKING } from '../../../components/unsaved-changes';
import { useDocumentTitle } from '../../../lib/document-title';

/** `/channels/{channelId}/providers/{channelProviderId}`: one connection, live. */
export function ProviderDetailPage({ channel, channelProviderId }: { channel: Channel; channelProviderId: string }) {
  const navigate = useNavigate();
  const list = useLiveChannelProviders(channel.id); // keeps the single entry live too
  const single = useQuery({ ...getChannelProviderQueryOptions(channel.id, channelProviderId), meta: { errorToast: [404] } });
  const { connect, pending } = useConnectChannelProvider(channel.id);
  const canManage = hasLevel(channel.access_level, AccessLevel.ADMIN);
  const canEdit = hasLevel(channel.access_level, AccessLevel.EDITOR);
  const listPath = `/channels/${channel.id}/providers`;
  const listed = list.data?.find((item) => item.id === channelProviderId);
  const p = listed ?? single.data;
  useDocumentTitle(p ? providers[p.provider].name : undefined);
  // Gone: the server says so, or the live list changed after this connection was loaded and no longer has it.
  const gone =
    (single.isError && isApiError(single.error, 404)) ||
    (list.isSuccess && !listed && single.isSuccess && list.dataUpdatedAt > single.dataUpdatedAt);

  const crumbs = (
    <Breadcrumbs>
      <Anchor component={Link} to={listPath} size="sm">
        Platforms
      </Anchor>
      <Text size="sm">{p ? providers[p.provider].name : 'Platform'}</Text>
    </Breadcrumbs>
  );

  if (gone) {
    return (
      <Stack p={{ base: 'md', sm: 'lg' }}>
        {crumbs}
        <PageState
          order={1}
          icon={<IconPlugConnectedX size={28} />}
          title="This platform is not connected"
          description="It was disconnected, or the link is wrong."
          action={
            <Button component={Link} to={listPath} variant="light">
              Back to Platforms
            </Button>
          }
        />
      </Stack>
    );
  }
  if (!p) {
    return (
      <Stack gap="md" p={{ base: 'md', sm: 'lg' }} maw={1200}>
        {crumbs}
        {single.isError ? <ErrorAlert error={single.error} /> : <Skeleton h={60} radius="md" aria-label="Loading platform" />}
      </Stack>
    );
  }

  const info = providers[p.provider];
  return (
    <Stack gap="md" p={{ base: 'md', sm: 'lg' }} maw={1200}>
      {crumbs}
      <Paper withBorder radius="md" p="md" style={{ borderLeft: `4px solid var(--mantine-color-${info.color}-6)` }}>
        <Group justify="space-between" align="center" gap="sm">
          <Group gap="sm" wrap="nowrap" miw={0}>
            <ThemeIcon size={48} radius="md" color={info.color} variant="light" aria-hidden>
              <ProviderIcon provider={p.provider} size={28} />
            </ThemeIcon>
            <div style={{ minWidth: 0 }}>
              <Title order={1} size="h2" lineClamp={1}>
                {p.provider_channel_name}
              </Title>
              <Group gap="xs">
                <Text size="sm" c={`${info.color}.4`} fw={600}>
                  {info.name}
                </Text>
                <ConnectionStatus provider={p} />
              </Group>
            </div>
          </Group>
          <Group gap="xs">
            <DashboardLinkButton provider={p} variant="default" />
            {canManage && (
              <>
                <ReconnectButton provider={p} connect={connect} pending={pending} />
                <DisconnectProviderButton provider={p} onDisconnected={() => void navigate(listPath, { state: LEAVE_WITHOUT_ASKING })} />
              </>
            )}
          </Group>
        </Group>
      </Paper>

      {p.scope_needed && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} title="Reconnect needed">
          Greenroom can no longer act on {info.name} for this channel (the access was revoked, expired or lacks a permission).{' '}
          {canManage ? 'Reconnect it to restore chat, moderation and stream info.' : RECONNECT_NEEDS_ADMIN}
        </Alert>
      )}

      <Grid gap="md">
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <Stack gap="md">
            <EmbeddedPlayer provider={p} />
            <ConnectionHealthCard provider={p} />
            {p.provider === 'youtube' && <YoutubeQuotaCard provider={p} />}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <Stack gap="md">
            {canEdit && <StreamInfoCard provider={p} />}
            <BotAccountCard provider={p} canManage={canManage} connect={connect} pending={pending} />
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
