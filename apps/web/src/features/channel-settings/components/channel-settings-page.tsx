import { Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconDeviceFloppy, IconTrash } from '@tabler/icons-react';
import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { AccessLevel, hasLevel } from '@greenroom/contracts/access';
import { CHANNEL_NAME_MAX, type Channel } from '@greenroom/contracts/api/channels';
import { ErrorAlert } from '../../../components/error-alert';
import { TypedConfirmModal } from '../../../components/typed-confirm-modal';
import { notifySuccess } from '../../../lib/notify';
import { useDeleteChannel, useRenameChannel } from '../api/channel-mutations';

function RenameForm({ channel }: { channel: Channel }) {
  const [name, setName] = useState(channel.display_name);
  const rename = useRenameChannel(channel.id);
  useEffect(() => setName(channel.display_name), [channel.display_name]);
  const trimmed = name.trim();
  const tooLong = trimmed.length > CHANNEL_NAME_MAX;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (trimmed === '' || tooLong || trimmed === channel.display_name) return;
    rename.mutate(trimmed, { onSuccess: () => notifySuccess('Channel renamed') });
  };
  return (
    <form onSubmit={submit} aria-label="Channel name">
      <Stack gap="sm">
        <TextInput
          label="Channel name"
          description="Shown to your staff in Greenroom. Platform channel names do not change."
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={
            trimmed === '' ? 'Enter a channel name' : tooLong ? `A channel name has at most ${CHANNEL_NAME_MAX} characters` : undefined
          }
        />
        {rename.isError && <ErrorAlert error={rename.error} />}
        <Group justify="flex-end">
          <Button
            type="submit"
            leftSection={<IconDeviceFloppy size={16} />}
            loading={rename.isPending}
            disabled={trimmed === '' || tooLong || trimmed === channel.display_name}
          >
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Delete the channel (Owner): type its name, then the red button; every platform is disconnected first. */
function DeleteChannelDialog({ channel, opened, onClose }: { channel: Channel; opened: boolean; onClose: () => void }) {
  const navigate = useNavigate();
  const remove = useDeleteChannel(channel.id);
  return (
    <TypedConfirmModal
      opened={opened}
      onClose={() => {
        remove.reset();
        onClose();
      }}
      title="Delete channel"
      label="Channel name"
      expected={channel.display_name}
      confirmLabel="Delete channel"
      pending={remove.isPending}
      error={remove.error}
      onConfirm={(typed) =>
        remove.mutate(typed, {
          onSuccess: () => {
            notifySuccess(`${channel.display_name} was deleted`);
            void navigate('/channels', { replace: true });
          },
        })
      }
    >
      <Text size="sm">
        This disconnects every platform of <b>{channel.display_name}</b> and deletes its staff, invitations, chat log, activity and
        settings.
      </Text>
      <Text size="sm" c="red.4" fw={500}>
        This is an irreversible action, please be sure.
      </Text>
    </TypedConfirmModal>
  );
}

/** `/channels/{channelId}/settings` (Admin+): the channel's name; the Owner can delete the channel. */
export function ChannelSettingsPage({ channel }: { channel: Channel }) {
  const [deleteOpened, deleteDialog] = useDisclosure(false);
  const isOwner = hasLevel(channel.access_level, AccessLevel.OWNER);
  return (
    <Stack gap="lg" p={{ base: 'md', sm: 'lg' }} maw={800}>
      <Title order={1} size="h2">
        Channel Settings
      </Title>
      <Paper withBorder radius="md" p="md" component="section" aria-label="General">
        <RenameForm channel={channel} />
      </Paper>
      {isOwner && (
        <Paper
          withBorder
          radius="md"
          p="md"
          component="section"
          aria-labelledby="danger-title"
          style={{ borderColor: 'var(--mantine-color-red-9)' }}
        >
          <Group justify="space-between" gap="sm">
            <div>
              <Title order={2} size="h5" id="danger-title">
                Danger Zone
              </Title>
              <Text size="sm" c="dimmed">
                Delete this channel and everything in it. There is no going back after this.
              </Text>
            </div>
            <Button color="red" variant="light" leftSection={<IconTrash size={16} />} onClick={deleteDialog.open}>
              Delete channel
            </Button>
          </Group>
          <DeleteChannelDialog channel={channel} opened={deleteOpened} onClose={deleteDialog.close} />
        </Paper>
      )}
    </Stack>
  );
}
