import { Anchor, Button, Center, Loader, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconLock, IconPlugConnectedX } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { AccessLevel, hasLevel } from '@greenroom/contracts/access';
import { channelProviderIdSchema, providers } from '@greenroom/contracts/providers';
import { ErrorAlert } from '../../../components/error-alert';
import { PageState } from '../../../components/page-state';
import { ProviderIcon } from '../../../components/provider-icon';
import { isApiError } from '../../../lib/api-client';
import { useChannel } from '../../../api/get-channel';
import { getChannelConnectUrl } from '../api/get-channel-connect-url';
import { KickNote } from './kick-note';
import { useDocumentTitle } from '../../../lib/document-title';

/**
 * `/channels/{channelId}/register/{provider}`: a shareable page that connects one platform to a channel
 * in the whole window (no popup) — e.g. a link an admin opens on the streaming PC. `?bot=true` connects the
 * channel's own bot account instead. After consent the platform lands on /channel-provider-connected.
 */
export function RegisterProvider({ channelId, provider: raw, bot }: { channelId: string; provider: string; bot: boolean }) {
  const channel = useChannel(channelId);
  const parsed = channelProviderIdSchema.safeParse(raw);
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<unknown>(null);
  useDocumentTitle(parsed.success ? providers[parsed.data].name : undefined);

  if (!parsed.success) {
    return (
      <PageState
        order={1}
        icon={<IconPlugConnectedX size={28} />}
        title="Unknown platform"
        description={`"${raw}" cannot be connected to a channel.`}
      />
    );
  }
  const provider = parsed.data;
  const info = providers[provider];
  if (channel.isPending)
    return (
      <Center mih="100vh">
        <Loader aria-label="Loading channel" />
      </Center>
    );
  if (channel.isError) {
    return isApiError(channel.error, 404) ? (
      <PageState order={1} icon={<IconPlugConnectedX size={28} />} title="Channel not found" />
    ) : (
      <ErrorAlert error={channel.error} m="md" />
    );
  }
  if (!hasLevel(channel.data.access_level, AccessLevel.ADMIN)) {
    return (
      <PageState
        order={1}
        color="red"
        icon={<IconLock size={28} />}
        title="You do not have access"
        description="Only admins of this channel can connect its platforms."
      />
    );
  }

  const start = async () => {
    setStarting(true);
    setError(null);
    try {
      window.location.assign(await getChannelConnectUrl(channelId, provider, bot && info.ownBot));
    } catch (e) {
      setError(e);
      setStarting(false);
    }
  };

  return (
    <Center mih="100vh" p="md">
      <Paper withBorder radius="lg" p="xl" maw={460} w="100%">
        <Stack align="center" gap="sm" ta="center">
          <ThemeIcon size={56} radius="xl" color={info.color} variant="light" aria-hidden>
            <ProviderIcon provider={provider} size={32} />
          </ThemeIcon>
          <Title order={1} size="h3">
            {bot ? `Connect a ${info.name} bot to ${channel.data.display_name}` : `Connect ${info.name} to ${channel.data.display_name}`}
          </Title>
          <Text c="dimmed" size="sm">
            {bot
              ? `Sign in with the ${info.name} account that should post the chatbot's messages.`
              : `Sign in with the ${info.name} account ${channel.data.display_name} streams on. You will come back here when it is done.`}
          </Text>
          {provider === 'kick' && <KickNote />}
          {error != null && <ErrorAlert error={error} w="100%" />}
          <Button
            color={info.color}
            leftSection={<ProviderIcon provider={provider} size={16} />}
            loading={starting}
            onClick={() => void start()}
          >
            Continue to {info.name}
          </Button>
          <Anchor component={Link} to={`/channels/${channelId}/providers`} size="sm">
            Cancel
          </Anchor>
        </Stack>
      </Paper>
    </Center>
  );
}
