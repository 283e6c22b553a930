import { Button, Group, Stack, Switch, Text, Alert } from '@mantine/core';
import { IconDeviceFloppy, IconInfoCircle } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { commandBodySchema, type ChatCommand, type CommandBody } from '@greenroom/contracts/api/chatbot';
import { ErrorAlert } from '../../../components/error-alert';
import { LEAVE_WITHOUT_ASKING, useUnsavedChangesGuard } from '../../../components/unsaved-changes';
import { useFormSubmit, useSchemaForm } from '../../../lib/form';
import { notifySuccess } from '../../../lib/notify';
import { toCommandBody, useChatCommand, useDeleteChatCommand, useSaveChatCommand } from '../api/chat-commands';
import { CommandFields } from './command-fields';
import { DeleteButton, EditorPage } from './editor-page';
import { PlatformChips, VariablesHelp } from './editor-fields';

const emptyCommand: CommandBody = {
  name: '!',
  aliases: [],
  responses: [''],
  response_mode: 'random',
  level: 0,
  global_cooldown_seconds: 5,
  user_cooldown_seconds: 0,
  platforms: [],
  reply_mode: 'say',
  enabled: true,
};

/** `/channels/{id}/chat-commands/{commandId}` (and `new`): one command's editor. */
export function CommandEditorPage({ channelId, commandId }: { channelId: string; commandId: string }) {
  const isNew = commandId === 'new';
  const command = useChatCommand(channelId, commandId, !isNew);
  return (
    <EditorPage
      backTo={`/channels/${channelId}/chat-commands`}
      backLabel="Chat Commands"
      title={isNew ? 'New command' : (command.data?.name ?? 'Command')}
      subtitle={
        command.data?.builtin ? 'Built-in command: its behaviour is the bot’s; its name, who may use it and where can change.' : undefined
      }
      loading={!isNew && command.isPending}
      error={command.error}
      notFoundText="This command does not exist"
      aside={command.data?.builtin ? undefined : <VariablesHelp />}
    >
      {(isNew || command.data) && (
        <CommandForm key={command.data?.updated_at ?? 'new'} channelId={channelId} command={command.data ?? null} />
      )}
    </EditorPage>
  );
}

function CommandForm({ channelId, command }: { channelId: string; command: ChatCommand | null }) {
  const navigate = useNavigate();
  const save = useSaveChatCommand(channelId, command?.id ?? null);
  const remove = useDeleteChatCommand(channelId);
  const form = useSchemaForm(commandBodySchema, { initialValues: command ? toCommandBody(command) : emptyCommand });
  const submit = useFormSubmit(form, save.mutateAsync, {
    onSuccess: (saved) => {
      notifySuccess(`${saved.name} saved`);
      if (!command) void navigate(`../${saved.id}`, { replace: true, relative: 'path', state: LEAVE_WITHOUT_ASKING });
    },
  });
  useUnsavedChangesGuard(form);
  const builtin = Boolean(command?.builtin);

  return (
    <form onSubmit={submit.onSubmit} aria-label="Command" noValidate>
      <Stack gap="md">
        {builtin && command?.description && (
          <Alert variant="light" color="blue" icon={<IconInfoCircle aria-hidden />}>
            {command.description}
          </Alert>
        )}
        <CommandFields form={form} builtin={builtin} />
        <PlatformChips
          label="Answers on"
          value={form.getValues().platforms ?? []}
          error={form.errors.platforms}
          onChange={(v) => form.setFieldValue('platforms', v)}
        />
        <Switch label="Enabled" {...form.getInputProps('enabled', { type: 'checkbox' })} />
        {command && (
          <Text size="xs" c="dimmed">
            Used {command.use_count.toLocaleString('en-US')} {command.use_count === 1 ? 'time' : 'times'}.
          </Text>
        )}
        {submit.error != null && <ErrorAlert error={submit.error} />}
        <Group justify="space-between">
          {command ? (
            <DeleteButton
              what="command"
              name={command.name}
              loading={remove.isPending}
              onConfirm={() =>
                remove.mutate(command.id, {
                  onSuccess: () => {
                    notifySuccess(`${command.name} deleted`);
                    void navigate('..', { relative: 'path', state: LEAVE_WITHOUT_ASKING });
                  },
                })
              }
            />
          ) : (
            <span />
          )}
          <Button
            type="submit"
            leftSection={<IconDeviceFloppy size={16} />}
            loading={form.submitting}
            disabled={!!command && !form.isDirty()}
          >
            {command ? 'Save' : 'Create command'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
