import { Button, Center, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconClockX, IconMailOpened, IconUserCheck } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { accessLevelLabels } from '@greenroom/contracts/access';
import { INVITE_NOT_FOUND, inviteStateMessages, type InviteView } from '@greenroom/contracts/api/staff';
import { ErrorAlert } from '../../../components/error-alert';
import { FullHeightLoader } from '../../../components/full-height-loader';
import { RoleBadge } from '../../../components/role-badge';
import { isApiError } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { useAcceptInvite } from '../api/accept-invite';
import { useInvite } from '../api/get-invite';

function Card({ icon, color, title, children }: { icon: ReactNode; color: string; title: string; children: ReactNode }) {
  return (
    <Center py="xl" px="md" mih="60vh">
      <Paper withBorder radius="lg" p="xl" maw={460} w="100%">
        <Stack align="center" gap="md" ta="center">
          <ThemeIcon size={56} radius="xl" variant="light" color={color} aria-hidden>
            {icon}
          </ThemeIcon>
          <Title order={1} size="h3">
            {title}
          </Title>
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}

const homeLink = (
  <Button component={Link} to="/" variant="light">
    Go to your channels
  </Button>
);

function openChannel(invite: InviteView) {
  return (
    <Button component={Link} to={`/channels/${invite.channel.id}`}>
      Open {invite.channel.display_name}
    </Button>
  );
}

/** `/channel-invite/{channelUserInviteId}`: see what an invitation grants and accept it. */
export function ChannelInvite({ inviteId }: { inviteId: string }) {
  const navigate = useNavigate();
  const invite = useInvite(inviteId);
  const accept = useAcceptInvite(inviteId);

  if (invite.isPending) return <FullHeightLoader label="Loading the invitation" />;
  if (invite.isError) {
    const unknown = isApiError(invite.error, 404);
    return (
      <Card icon={<IconClockX size={30} />} color="red" title={unknown ? 'Invitation not found' : 'Could not load the invitation'}>
        {unknown ? <Text c="dimmed">{INVITE_NOT_FOUND}</Text> : <ErrorAlert error={invite.error} w="100%" ta="left" />}
        {homeLink}
      </Card>
    );
  }

  const view = invite.data;
  if (view.state === 'used' && view.used_by_you && view.current_level != null) {
    return (
      <Card icon={<IconUserCheck size={30} />} color="teal" title="You already accepted this invitation">
        <Text c="dimmed">
          You are on the staff of <b>{view.channel.display_name}</b>.
        </Text>
        {openChannel(view)}
      </Card>
    );
  }
  if (view.state !== 'valid') {
    return (
      <Card icon={<IconClockX size={30} />} color="orange" title={inviteStateMessages[view.state]}>
        <Text c="dimmed">Ask an Admin of {view.channel.display_name} for a new invitation.</Text>
        {homeLink}
      </Card>
    );
  }
  if (view.current_level != null && view.current_level >= view.level) {
    return (
      <Card icon={<IconUserCheck size={30} />} color="teal" title={`You are already ${accessLevelLabels[view.current_level]} here`}>
        <Text c="dimmed">
          This invitation would give you {accessLevelLabels[view.level]} in <b>{view.channel.display_name}</b>, and you already have that or
          more. Leave it for the person it was meant for.
        </Text>
        {openChannel(view)}
      </Card>
    );
  }

  const submit = () =>
    accept.mutate(undefined, {
      onSuccess: (result) => {
        notifySuccess(`Welcome to ${view.channel.display_name}`);
        void navigate(`/channels/${result.channel_id}`, { replace: true });
      },
    });

  return (
    <Card icon={<IconMailOpened size={30} />} color="blue" title={`Join ${view.channel.display_name}`}>
      <Text>
        {view.invited_by ? <b>{view.invited_by.display_name}</b> : 'An admin'} invited you to the staff of{' '}
        <b>{view.channel.display_name}</b> as
      </Text>
      <RoleBadge level={view.level} />
      {view.current_level != null && (
        <Text size="sm" c="dimmed">
          You are {accessLevelLabels[view.current_level]} today; accepting makes you {accessLevelLabels[view.level]}.
        </Text>
      )}
      <Text size="xs" c="dimmed">
        The invitation expires {formatDateTime(view.expires_at)}.
      </Text>
      <Group gap="sm" justify="center">
        <Button component={Link} to="/" variant="default">
          Not now
        </Button>
        <Button onClick={submit} loading={accept.isPending}>
          Accept invitation
        </Button>
      </Group>
    </Card>
  );
}
