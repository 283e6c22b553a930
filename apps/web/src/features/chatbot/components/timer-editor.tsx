import { Button, Group, NumberInput, Stack, Switch, TextInput, SimpleGrid } from '@mantine/core';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { TIMER_MESSAGES_MAX, timerBodySchema, type ChatTimer, type TimerBody } from '@greenroom/contracts/api/chatbot';
import { ErrorAlert } from '../../../components/error-alert';
import { LEAVE_WITHOUT_ASKING, useUnsavedChangesGuard } from '../../../components/unsaved-changes';
import { useFormSubmit, useSchemaForm } from '../../../lib/form';
import { notifySuccess } from '../../../lib/notify';
import { toTimerBody, useChatTimer, useDeleteChatTimer, useSaveChatTimer } from '../api/chat-timers';
import { DeleteButton, EditorPage } from './editor-page';
import { PlatformChips, TextListField, VariablesHelp } from './editor-fields';

const emptyTimer: TimerBody = {
  name: '',
  messages: [''],
  interval_minutes: 15,
  min_lines: 5,
  online_only: true,
  platforms: [],
  enabled: true,
};

/** `/channels/{id}/chat-timers/{timerId}` (and `new`). */
export function TimerEditorPage({ channelId, timerId }: { channelId: string; timerId: string }) {
  const isNew = timerId === 'new';
  const timer = useChatTimer(channelId, timerId, !isNew);
  return (
    <EditorPage
      backTo={`/channels/${channelId}/chat-timers`}
      backLabel="Chat Timers"
      title={isNew ? 'New timer' : (timer.data?.name ?? 'Timer')}
      loading={!isNew && timer.isPending}
      error={timer.error}
      notFoundText="This timer does not exist"
      aside={<VariablesHelp />}
    >
      {(isNew || timer.data) && <TimerForm key={timer.data?.updated_at ?? 'new'} channelId={channelId} timer={timer.data ?? null} />}
    </EditorPage>
  );
}

function TimerForm({ channelId, timer }: { channelId: string; timer: ChatTimer | null }) {
  const navigate = useNavigate();
  const save = useSaveChatTimer(channelId, timer?.id ?? null);
  const remove = useDeleteChatTimer(channelId);
  const form = useSchemaForm(timerBodySchema, { initialValues: timer ? toTimerBody(timer) : emptyTimer });
  const submit = useFormSubmit(form, save.mutateAsync, {
    onSuccess: (saved) => {
      notifySuccess(`${saved.name} saved`);
      if (!timer) void navigate(`../${saved.id}`, { replace: true, relative: 'path', state: LEAVE_WITHOUT_ASKING });
    },
  });
  useUnsavedChangesGuard(form);
  const values = form.getValues();
  return (
    <form onSubmit={submit.onSubmit} aria-label="Timer" noValidate>
      <Stack gap="md">
        <TextInput label="Name" withAsterisk placeholder="Socials" {...form.getInputProps('name')} />
        <TextListField
          label="Messages"
          description="Posted in turn, one per run."
          itemLabel="Message"
          values={values.messages}
          max={TIMER_MESSAGES_MAX}
          placeholder="Follow $(channel) on every platform!"
          error={form.errors.messages}
          errors={(i) => form.errors[`messages.${i}`]}
          onChange={(list) => form.setFieldValue('messages', list)}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="md">
          <NumberInput label="Every" suffix=" min" min={1} allowDecimal={false} withAsterisk {...form.getInputProps('interval_minutes')} />
          <NumberInput
            label="Chat lines since the last run"
            description="At least this many, or it waits."
            min={0}
            allowDecimal={false}
            {...form.getInputProps('min_lines')}
          />
        </SimpleGrid>
        <Switch
          label="Only while live"
          description="Off: also when no platform is live."
          {...form.getInputProps('online_only', { type: 'checkbox' })}
        />
        <PlatformChips
          label="Posts on"
          value={values.platforms ?? []}
          onChange={(v) => form.setFieldValue('platforms', v)}
          error={form.errors.platforms}
        />
        <Switch label="Enabled" {...form.getInputProps('enabled', { type: 'checkbox' })} />
        {submit.error != null && <ErrorAlert error={submit.error} />}
        <Group justify="space-between">
          {timer ? (
            <DeleteButton
              what="timer"
              name={timer.name}
              loading={remove.isPending}
              onConfirm={() =>
                remove.mutate(timer.id, {
                  onSuccess: () => {
                    notifySuccess(`${timer.name} deleted`);
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
            disabled={!!timer && !form.isDirty()}
          >
            {timer ? 'Save' : 'Create timer'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
