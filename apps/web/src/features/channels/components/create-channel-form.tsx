import { Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { CHANNEL_NAME_MAX, createChannelBodySchema } from '@greenroom/contracts/api/channels';
import { ErrorAlert } from '../../../components/error-alert';
import { useCreateChannel } from '../api/create-channel';

/** `/create-channel`: a name (at most 64 characters); server errors are shown under the form. */
export function CreateChannelForm() {
  const navigate = useNavigate();
  const create = useCreateChannel();
  const [name, setName] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = createChannelBodySchema.safeParse({ display_name: name });
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message ?? 'Check the channel name');
      return;
    }
    setFieldError(null);
    create.mutate(parsed.data, { onSuccess: (channel) => void navigate(`/channels/${channel.id}`) });
  };

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} maw={520} w="100%" mx="auto" component="form" onSubmit={submit} noValidate>
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
          value={name}
          onChange={(event) => {
            setName(event.currentTarget.value);
            if (fieldError) setFieldError(null);
          }}
          maxLength={CHANNEL_NAME_MAX}
          description={`${name.length}/${CHANNEL_NAME_MAX} characters`}
          error={fieldError}
          required
          data-autofocus
          autoFocus
        />
        {create.isError && <ErrorAlert error={create.error} />}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" component={Link} to="/">
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            Create channel
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
