import { Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { Link, useNavigate } from 'react-router';
import { CHANNEL_NAME_MAX, createChannelBodySchema } from '@greenroom/contracts/api/channels';
import { ErrorAlert } from '../../../components/error-alert';
import { LEAVE_WITHOUT_ASKING, useUnsavedChangesGuard } from '../../../components/unsaved-changes';
import { useFormSubmit, useSchemaForm } from '../../../lib/form';
import { useCreateChannel } from '../api/create-channel';

/** `/create-channel`: a name (at most 64 characters); server errors are shown on the field or under the form. */
export function CreateChannelForm() {
  const navigate = useNavigate();
  const create = useCreateChannel();
  const form = useSchemaForm(createChannelBodySchema, { initialValues: { display_name: '' }, validateInputOnChange: false });
  const submit = useFormSubmit(form, create.mutateAsync, { onSuccess: (channel) => void navigate(`/channels/${channel.id}`) });
  useUnsavedChangesGuard(form);
  const name = form.values.display_name;

  return (
    <Paper
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'xl' }}
      maw={520}
      w="100%"
      mx="auto"
      component="form"
      onSubmit={submit.onSubmit}
      noValidate
      aria-label="Create a channel"
    >
      <Stack gap="md">
        <div>
          <Title order={1} size="h3">
            Create a channel
          </Title>
          <Text c="dimmed" size="sm" mt={4}>
            A channel is the home of one stream: its platforms, chat, bot, widgets and team. Name it after your stream.
          </Text>
        </div>
        <TextInput
          label="Channel name"
          placeholder="My stream"
          {...form.getInputProps('display_name')}
          maxLength={CHANNEL_NAME_MAX}
          description={`${name.length}/${CHANNEL_NAME_MAX} characters`}
          required
          data-autofocus
          autoFocus
        />
        {submit.error != null && <ErrorAlert error={submit.error} />}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" component={Link} to="/" state={LEAVE_WITHOUT_ASKING}>
            Cancel
          </Button>
          <Button type="submit" loading={form.submitting}>
            Create channel
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
