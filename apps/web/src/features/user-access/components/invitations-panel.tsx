import { ActionIcon, Alert, Button, CopyButton, Group, Paper, Select, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconCheck, IconCopy, IconLink, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { AccessLevel, accessLevelLabels } from '@greenroom/contracts/access';
import type { Channel } from '@greenroom/contracts/api/channels';
import {
  assignableLevels,
  createInviteBodySchema,
  INVITE_DEFAULT_HOURS,
  inviteExpiryChoices,
  inviteLink,
  type ChannelUserInvite,
  type StaffLevel,
} from '@greenroom/contracts/api/staff';
import { ErrorAlert } from '../../../components/error-alert';
import { RoleBadge } from '../../../components/role-badge';
import { useFormSubmit, useSchemaForm } from '../../../lib/form';
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
  const [created, setCreated] = useState<ChannelUserInvite | null>(null);
  const invites = useInvites(channel.id);
  const create = useCreateInvite(channel.id);
  const revoke = useRevokeInvite(channel.id);
  const form = useSchemaForm(createInviteBodySchema, {
    initialValues: { level: levels[0] ?? AccessLevel.MOD, expires_in_hours: INVITE_DEFAULT_HOURS },
  });
  const submit = useFormSubmit(form, create.mutateAsync, { onSuccess: (invite) => setCreated(invite) });

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

        <form onSubmit={submit.onSubmit} aria-label="Create invitation" noValidate>
          <Stack gap="xs">
            <Group align="flex-end" gap="sm">
              <Select
                label="Level"
                data={levels.map((l) => ({ value: String(l), label: accessLevelLabels[l] }))}
                value={String(form.values.level)}
                onChange={(v) => v && form.setFieldValue('level', Number(v) as StaffLevel)}
                error={form.errors.level}
                allowDeselect={false}
                w={140}
              />
              <Select
                label="Expires after"
                data={inviteExpiryChoices.map((c) => ({ value: String(c.hours), label: c.label }))}
                value={String(form.values.expires_in_hours)}
                onChange={(v) => v && form.setFieldValue('expires_in_hours', Number(v))}
                error={form.errors.expires_in_hours}
                allowDeselect={false}
                w={140}
              />
              <Button type="submit" leftSection={<IconLink size={16} />} loading={form.submitting} disabled={levels.length === 0}>
                Create invitation
              </Button>
            </Group>
            {submit.error != null && <ErrorAlert error={submit.error} />}
          </Stack>
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
