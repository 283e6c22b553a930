import { ActionIcon, Alert, Button, CopyButton, Group, Paper, Select, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconCheck, IconCopy, IconLink, IconX } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { accessLevelLabels } from '@greenroom/contracts/access';
import type { Channel } from '@greenroom/contracts/api/channels';
import {
  assignableLevels,
  INVITE_DEFAULT_HOURS,
  inviteExpiryChoices,
  inviteLink,
  type ChannelUserInvite,
} from '@greenroom/contracts/api/staff';
import { ErrorAlert } from '../../../components/error-alert';
import { RoleBadge } from '../../../components/role-badge';
import { formatDateTime, relativeTime } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { useCreateInvite } from '../api/create-invite';
import { useInvites } from '../api/get-invites';
import { useRevokeInvite } from '../api/revoke-invite';

/** The full link of an invitation on this site. */
export function inviteUrl(id: string, origin: string = window.location.origin): string {
  return `${origin}${inviteLink(id)}`;
}

function CopyLink({ id, variant = 'icon' }: { id: string; variant?: 'icon' | 'button' }) {
  const url = inviteUrl(id);
  return (
    <CopyButton value={url} timeout={2000}>
      {({ copied, copy }) => {
        const onClick = () => {
          copy();
          notifySuccess('Invitation link copied');
        };
        return variant === 'button' ? (
          <Button
            onClick={onClick}
            leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
            color={copied ? 'teal' : undefined}
          >
            {copied ? 'Copied' : 'Copy link'}
          </Button>
        ) : (
          <Tooltip label={copied ? 'Copied' : 'Copy link'} withArrow>
            <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} onClick={onClick} aria-label="Copy invitation link">
              {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
            </ActionIcon>
          </Tooltip>
        );
      }}
    </CopyButton>
  );
}

/** Create invitations for a level and an expiry, copy their links, list and revoke the pending ones. */
export function InvitationsPanel({ channel }: { channel: Channel }) {
  const levels = assignableLevels(channel.access_level);
  const [level, setLevel] = useState<string>(String(levels[0] ?? ''));
  const [hours, setHours] = useState<string>(String(INVITE_DEFAULT_HOURS));
  const [created, setCreated] = useState<ChannelUserInvite | null>(null);
  const invites = useInvites(channel.id);
  const create = useCreateInvite(channel.id);
  const revoke = useRevokeInvite(channel.id);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const chosen = levels.find((l) => String(l) === level);
    if (chosen === undefined) return;
    create.mutate({ level: chosen, expires_in_hours: Number(hours) }, { onSuccess: (invite) => setCreated(invite) });
  };

  const confirmRevoke = (invite: ChannelUserInvite) =>
    modals.openConfirmModal({
      title: 'Revoke invitation?',
      centered: true,
      children: (
        <Text size="sm">
          The {accessLevelLabels[invite.level]} invitation link stops working at once. Anyone opening it will be told it was revoked.
        </Text>
      ),
      labels: { confirm: 'Revoke', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        revoke.mutate(invite.id, {
          onSuccess: () => {
            if (created?.id === invite.id) setCreated(null);
            notifySuccess('Invitation revoked');
          },
        }),
    });

  const pending = invites.data ?? [];

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="invitations-title">
      <Stack gap="md">
        <div>
          <Title order={2} size="h4" id="invitations-title">
            Invitations
          </Title>
          <Text size="sm" c="dimmed">
            An invitation link works once, for one person, until it expires. Share it privately.
          </Text>
        </div>

        <form onSubmit={submit} aria-label="Create invitation">
          <Group align="flex-end" gap="sm">
            <Select
              label="Level"
              data={levels.map((l) => ({ value: String(l), label: accessLevelLabels[l] }))}
              value={level}
              onChange={(v) => v && setLevel(v)}
              allowDeselect={false}
              w={140}
            />
            <Select
              label="Expires after"
              data={inviteExpiryChoices.map((c) => ({ value: String(c.hours), label: c.label }))}
              value={hours}
              onChange={(v) => v && setHours(v)}
              allowDeselect={false}
              w={140}
            />
            <Button type="submit" leftSection={<IconLink size={16} />} loading={create.isPending} disabled={levels.length === 0}>
              Create invitation
            </Button>
          </Group>
        </form>

        {created && (
          <Alert
            color="teal"
            variant="light"
            title={`${accessLevelLabels[created.level]} invitation created`}
            withCloseButton
            onClose={() => setCreated(null)}
            closeButtonLabel="Dismiss"
          >
            <Stack gap="xs">
              <Text size="sm">Send this link to the person you are inviting. It expires {formatDateTime(created.expires_at)}.</Text>
              <Group gap="xs" wrap="nowrap" align="flex-end">
                <TextInput
                  aria-label="Invitation link"
                  value={inviteUrl(created.id)}
                  readOnly
                  onFocus={(e) => e.currentTarget.select()}
                  style={{ flex: 1 }}
                />
                <CopyLink id={created.id} variant="button" />
              </Group>
            </Stack>
          </Alert>
        )}

        <div>
          <Title order={3} size="h6" mb="xs">
            Pending
          </Title>
          {invites.isError && <ErrorAlert error={invites.error} />}
          {invites.isSuccess && pending.length === 0 && (
            <Text size="sm" c="dimmed">
              No pending invitations.
            </Text>
          )}
          <Stack gap={6} component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Pending invitations">
            {pending.map((invite) => (
              <Group key={invite.id} component="li" justify="space-between" wrap="nowrap" gap="sm" py={4} data-invite-id={invite.id}>
                <Group gap="sm" wrap="nowrap" miw={0}>
                  <RoleBadge level={invite.level} />
                  <div style={{ minWidth: 0 }}>
                    <Text size="sm" truncate>
                      {invite.created_by ? `By ${invite.created_by.display_name}` : 'By a former staff member'} ·{' '}
                      {relativeTime(invite.created_at)}
                    </Text>
                    <Text size="xs" c="dimmed">
                      Expires {formatDateTime(invite.expires_at)}
                    </Text>
                  </div>
                </Group>
                <Group gap={4} wrap="nowrap">
                  <CopyLink id={invite.id} />
                  <Tooltip label="Revoke" withArrow>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      onClick={() => confirmRevoke(invite)}
                      aria-label={`Revoke ${accessLevelLabels[invite.level]} invitation`}
                    >
                      <IconX size={16} />
                    </ActionIcon>
                  </Tooltip>
                </Group>
              </Group>
            ))}
          </Stack>
        </div>
      </Stack>
    </Paper>
  );
}
