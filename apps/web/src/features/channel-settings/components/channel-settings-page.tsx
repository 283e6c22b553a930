import { Button, Group, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { AccessLevel, hasLevel } from '@greenroom/contracts/access';
import { deleteChannelQuerySchema, type Channel } from '@greenroom/contracts/api/channels';
import { TypedConfirmModal } from '../../../components/typed-confirm-modal';
import { useFormSubmit, useSchemaForm } from '../../../lib/form';
import { notifySuccess } from '../../../lib/notify';
import { useDeleteChannel, useUpdateChatSettings } from '../api/channel-mutations';
import { RenameChannelForm } from './rename-channel-form';
import { LEAVE_WITHOUT_ASKING } from '../../../components/unsaved-changes';

/** Delete the channel (Owner): type its name, then the red button; every platform is disconnected first. */
function DeleteChannelDialog({ channel, opened, onClose }: { channel: Channel; opened: boolean; onClose: () => void }) {
  const navigate = useNavigate();
  const remove = useDeleteChannel(channel.id);
  const form = useSchemaForm(deleteChannelQuerySchema, { initialValues: { name: '' } });
  const submit = useFormSubmit(form, ({ name }) => remove.mutateAsync(name), {
    onSuccess: () => {
      notifySuccess(`${channel.display_name} was deleted`);
      void navigate('/channels', { replace: true, state: LEAVE_WITHOUT_ASKING });
    },
  });
  return (
    <TypedConfirmModal
      opened={opened}
      onClose={onClose}
      title="Delete channel"
      form={form}
      submit={submit}
      field="name"
      label="Channel name"
      expected={channel.display_name}
      confirmLabel="Delete channel"
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

/** Who posts in chat as the streamer: Admins and the Owner always; the Owner can let Editors too. */
function ChatPostingSettings({ channel, isOwner }: { channel: Channel; isOwner: boolean }) {
  const update = useUpdateChatSettings(channel.id);
  const checked = update.isPending && update.variables ? update.variables.editors_post_as_streamer : channel.editors_post_as_streamer;
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="chat-posting-title">
      <Stack gap="xs">
        <Title order={2} size="h5" id="chat-posting-title">
          Posting in chat
        </Title>
        <Text size="sm" c="dimmed">
          Admins and the Owner can send chat messages as the streamer&apos;s own account; Mods send as the bot. Every message sent from
          Greenroom is in the audit log with who sent it.
        </Text>
        <Switch
          label="Editors may post as the streamer"
          description={isOwner ? undefined : 'Only the Owner can change this.'}
          checked={checked}
          disabled={!isOwner || update.isPending}
          onChange={(event) =>
            update.mutate(
              { editors_post_as_streamer: event.currentTarget.checked },
              {
                onSuccess: (c) =>
                  notifySuccess(c.editors_post_as_streamer ? 'Editors may now post as the streamer' : 'Editors now post as the bot'),
              },
            )
          }
        />
      </Stack>
    </Paper>
  );
}

/** `/channels/{channelId}/settings` (Admin+): the channel's name, other features' settings (`children`); the Owner can delete the channel. */
export function ChannelSettingsPage({ channel, children }: { channel: Channel; children?: ReactNode }) {
  const [deleteOpened, deleteDialog] = useDisclosure(false);
  const isOwner = hasLevel(channel.access_level, AccessLevel.OWNER);
  return (
    <Stack gap="lg" p={{ base: 'md', sm: 'lg' }} maw={800}>
      <Title order={1} size="h2">
        Channel Settings
      </Title>
      <Paper withBorder radius="md" p="md" component="section" aria-label="General">
        <RenameChannelForm key={channel.display_name} channel={channel} />
      </Paper>
      <ChatPostingSettings channel={channel} isOwner={isOwner} />
      {children}
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
