import { Button, Group, Stack, TextInput } from '@mantine/core';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { updateChannelBodySchema, type Channel } from '@greenroom/contracts/api/channels';
import { ErrorAlert } from '../../../components/error-alert';
import { useUnsavedChangesGuard } from '../../../components/unsaved-changes';
import { useFormSubmit, useSchemaForm } from '../../../lib/form';
import { notifySuccess } from '../../../lib/notify';
import { useRenameChannel } from '../api/channel-mutations';

/**
 * The channel's name (Admin). The example of the forms pattern (docs/ARCHITECTURE.md, "Forms"): the contract's
 * schema validates, the server's field errors land on the field, leaving with unsaved changes asks first.
 * Render it with `key={channel.display_name}` so a new name from the server starts a fresh form.
 */
export function RenameChannelForm({ channel }: { channel: Channel }) {
  const rename = useRenameChannel(channel.id);
  const form = useSchemaForm(updateChannelBodySchema, { initialValues: { display_name: channel.display_name } });
  const submit = useFormSubmit(form, rename.mutateAsync, { onSuccess: () => notifySuccess('Channel renamed') });
  useUnsavedChangesGuard(form);

  return (
    <form onSubmit={submit.onSubmit} aria-label="Channel name" noValidate>
      <Stack gap="sm">
        <TextInput
          label="Channel name"
          description="Shown to your staff in Greenroom. Platform channel names do not change."
          {...form.getInputProps('display_name')}
        />
        {submit.error != null && <ErrorAlert error={submit.error} />}
        <Group justify="flex-end">
          <Button type="submit" leftSection={<IconDeviceFloppy size={16} />} loading={form.submitting} disabled={!form.isDirty()}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
