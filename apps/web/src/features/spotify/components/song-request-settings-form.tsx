import { ActionIcon, Button, Group, NumberInput, Select, SimpleGrid, Stack, Switch, Text, Tooltip } from '@mantine/core';
import { IconDeviceFloppy, IconX } from '@tabler/icons-react';
import { accessLevelLabels, audienceLevels } from '@greenroom/contracts/access';
import { songRequestSettingsSchema, type SongRequestSettings, type SongRequestSettingsBody } from '@greenroom/contracts/api/spotify';
import { ErrorAlert } from '../../../components/error-alert';
import { useUnsavedChangesGuard } from '../../../components/unsaved-changes';
import { useFormSubmit, useSchemaForm, type SchemaForm } from '../../../lib/form';
import { notifySuccess } from '../../../lib/notify';
import { useSaveSongRequestSettings } from '../api/song-requests';
import { trackLength } from '../track-length';

type Form = SchemaForm<typeof songRequestSettingsSchema>;
type NumberKey = 'cost' | 'max_duration_seconds' | 'max_per_user';

function NumberField({ form, name, label, description }: { form: Form; name: NumberKey; label: string; description: string }) {
  return (
    <NumberInput
      label={label}
      description={description}
      min={0}
      thousandSeparator=","
      allowNegative={false}
      allowDecimal={false}
      {...form.getInputProps(name)}
      onChange={(v) => form.setFieldValue(name, v === '' ? ('' as unknown as number) : Number(v))}
    />
  );
}

/** The rules of `!sr`: on/off, who, cost, longest song, requests per viewer, blocked songs. */
export function SongRequestSettingsForm({ channelId, settings }: { channelId: string; settings: SongRequestSettings }) {
  const save = useSaveSongRequestSettings(channelId);
  const form = useSchemaForm(songRequestSettingsSchema, { initialValues: settings });
  const submit = useFormSubmit(form, (body) => save.mutateAsync(body), {
    onSuccess: (saved) => {
      form.setInitialValues(saved);
      form.setValues(saved);
      notifySuccess('Song request rules saved');
    },
  });
  useUnsavedChangesGuard(form);
  const values = form.getValues();
  const seconds = Number(values.max_duration_seconds);
  const blocked = values.blocked ?? [];
  return (
    <form onSubmit={submit.onSubmit} aria-label="Song request rules" noValidate>
      <Stack gap="md">
        <Switch label="Take song requests (!sr)" {...form.getInputProps('enabled', { type: 'checkbox' })} />
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="md" verticalSpacing="md">
          <Select
            label="Who may request"
            allowDeselect={false}
            data={audienceLevels.map((l) => ({ value: String(l), label: `${accessLevelLabels[l]} and above` }))}
            {...form.getInputProps('level')}
            value={String(values.level)}
            onChange={(v) => v !== null && form.setFieldValue('level', Number(v) as SongRequestSettingsBody['level'])}
          />
          <NumberField form={form} name="cost" label="Cost in points" description="Refunded if refused or removed; 0: free" />
          <NumberField
            form={form}
            name="max_duration_seconds"
            label="Longest song (seconds)"
            description={Number.isFinite(seconds) && seconds > 0 ? `Up to ${trackLength(seconds * 1000)}` : '30 to 3600'}
          />
          <NumberField
            form={form}
            name="max_per_user"
            label="Waiting per viewer"
            description="Requests one viewer may have queued; 0: no limit"
          />
        </SimpleGrid>
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            Blocked songs
          </Text>
          {blocked.length === 0 ? (
            <Text size="sm" c="dimmed">
              None. Block a song from the request lists above.
            </Text>
          ) : (
            <Stack gap={2} aria-label="Blocked songs">
              {blocked.map((b, i) => (
                <Group key={b.uri} gap="xs" wrap="nowrap">
                  <Text size="sm" truncate>
                    {b.name}
                    {b.artists.length > 0 && (
                      <Text span c="dimmed" size="sm">
                        {' '}
                        · {b.artists.join(', ')}
                      </Text>
                    )}
                  </Text>
                  <Tooltip label="Unblock">
                    <ActionIcon
                      variant="subtle"
                      color="gray"
                      aria-label={`Unblock ${b.name}`}
                      onClick={() => form.removeListItem('blocked', i)}
                    >
                      <IconX size={14} />
                    </ActionIcon>
                  </Tooltip>
                </Group>
              ))}
            </Stack>
          )}
        </Stack>
        {submit.error != null && <ErrorAlert error={submit.error} />}
        <Group justify="flex-end">
          <Button
            type="submit"
            leftSection={<IconDeviceFloppy size={16} aria-hidden />}
            loading={form.submitting}
            disabled={!form.isDirty()}
          >
            Save rules
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
