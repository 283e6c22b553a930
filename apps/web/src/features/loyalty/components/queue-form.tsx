import { NumberInput, SimpleGrid, Switch, TextInput } from '@mantine/core';
import { useNavigate } from 'react-router';
import { queueBodySchema, type QueueDetail } from '@greenroom/contracts/api/queues';
import { EditorForm } from '../../../components/editor-form';
import { LEAVE_WITHOUT_ASKING, useUnsavedChangesGuard } from '../../../components/unsaved-changes';
import { useFormSubmit, useSchemaForm } from '../../../lib/form';
import { notifySuccess } from '../../../lib/notify';
import { useCreateQueue, useUpdateQueue } from '../api/queues';

/** A queue's name and rules. */
export function QueueForm({ channelId, queue }: { channelId: string; queue: QueueDetail | null }) {
  const navigate = useNavigate();
  const create = useCreateQueue(channelId);
  const update = useUpdateQueue(channelId, queue?.id ?? '');
  const form = useSchemaForm(queueBodySchema, {
    initialValues: queue
      ? {
          name: queue.name,
          max_size: queue.max_size,
          auto_close: queue.auto_close,
          join_cooldown_seconds: queue.join_cooldown_seconds,
          sub_priority: queue.sub_priority,
        }
      : queueBodySchema.parse({ name: 'Viewer queue' }),
  });
  const submit = useFormSubmit(form, (body) => (queue ? update.mutateAsync(body) : create.mutateAsync(body)), {
    onSuccess: (saved) => {
      notifySuccess(`${saved.name} saved`);
      if (!queue) void navigate(`../${saved.id}`, { replace: true, relative: 'path', state: LEAVE_WITHOUT_ASKING });
    },
  });
  useUnsavedChangesGuard(form);
  const number = (name: 'max_size' | 'join_cooldown_seconds') => ({
    ...form.getInputProps(name),
    onChange: (v: number | string) => form.setFieldValue(name, v === '' ? ('' as unknown as number) : Number(v)),
  });
  return (
    <EditorForm
      label="Queue"
      onSubmit={submit.onSubmit}
      error={submit.error}
      submitting={form.submitting}
      canSave={!queue || form.isDirty()}
      saveLabel={queue ? 'Save' : 'Create queue'}
    >
      <TextInput label="Name" withAsterisk {...form.getInputProps('name')} />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="md">
        <NumberInput
          label="Maximum size"
          description="0: no limit"
          min={0}
          allowNegative={false}
          allowDecimal={false}
          {...number('max_size')}
        />
        <NumberInput
          label="Join cooldown (seconds)"
          description="After leaving or being picked"
          min={0}
          allowNegative={false}
          allowDecimal={false}
          {...number('join_cooldown_seconds')}
        />
      </SimpleGrid>
      <Switch label="Close when full" {...form.getInputProps('auto_close', { type: 'checkbox' })} />
      <Switch label="Subs and members go ahead" {...form.getInputProps('sub_priority', { type: 'checkbox' })} />
    </EditorForm>
  );
}
