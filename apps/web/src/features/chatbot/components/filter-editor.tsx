import {
  Alert,
  Button,
  Group,
  NumberInput,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  TagsInput,
  Text,
  TextInput,
  Textarea,
  Input,
  SimpleGrid,
} from '@mantine/core';
import { IconDeviceFloppy, IconInfoCircle } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import {
  filterActionLabels,
  filterBodySchema,
  filterSettingsSchemas,
  filterTypeDescriptions,
  filterTypeLabels,
  filterTypes,
  type ChatFilter,
  type FilterAction,
  type FilterBody,
  type FilterType,
} from '@greenroom/contracts/api/chatbot';
import { channelProviderIds, providers } from '@greenroom/contracts/providers';
import { ErrorAlert } from '../../../components/error-alert';
import { LEAVE_WITHOUT_ASKING, useUnsavedChangesGuard } from '../../../components/unsaved-changes';
import { useFormSubmit, useSchemaForm } from '../../../lib/form';
import { notifySuccess } from '../../../lib/notify';
import { toFilterBody, useChatFilter, useDeleteChatFilter, useSaveChatFilter } from '../api/chat-filters';
import { DeleteButton, EditorPage } from './editor-page';
import { LevelSelect, TextListField } from './editor-fields';
import { FilterLog } from './filter-log';
import type { UseFormReturnType } from '@mantine/form';

const defaultMessages: Record<FilterType, string> = {
  links: '$(user), please ask before posting links.',
  caps: '$(user), please stop shouting.',
  symbols: '$(user), fewer symbols please.',
  emotes: '$(user), fewer emotes please.',
  words: '$(user), watch your language.',
  regex: '$(user), that message is not allowed.',
  repetition: '$(user), please do not repeat yourself.',
  length: '$(user), that message is too long.',
  zalgo: '$(user), no zalgo text please.',
};

function newFilter(type: FilterType): FilterBody {
  return {
    name: filterTypeLabels[type],
    type,
    settings: filterSettingsSchemas[type].parse({}),
    exempt_level: 7,
    action: 'timeout',
    duration_seconds: 600,
    warn_first: true,
    message: defaultMessages[type],
    enabled: true,
  } as FilterBody;
}

const noDelete = channelProviderIds
  .filter((p) => providers[p].chatRead && !providers[p].deleteMessage && providers[p].ban)
  .map((p) => providers[p].name);
const noModeration = channelProviderIds.filter((p) => providers[p].chatRead && !providers[p].ban).map((p) => providers[p].name);
const capabilityNote = [
  noDelete.length ? `${noDelete.join(', ')} cannot delete single messages: a 1-second timeout is used instead.` : '',
  noModeration.length ? `${noModeration.join(', ')} has no moderation through Greenroom: the message is only hidden here.` : '',
  'Timeouts longer than a platform allows are shortened to its longest. The log says so.',
]
  .filter(Boolean)
  .join(' ');

/** `/channels/{id}/chat-filters/{filterId}` (and `new`). */
export function FilterEditorPage({ channelId, filterId }: { channelId: string; filterId: string }) {
  const isNew = filterId === 'new';
  const filter = useChatFilter(channelId, filterId, !isNew);
  return (
    <EditorPage
      backTo={`/channels/${channelId}/chat-filters`}
      backLabel="Chat Filters"
      title={isNew ? 'New filter' : (filter.data?.name ?? 'Filter')}
      loading={!isNew && filter.isPending}
      error={filter.error}
      notFoundText="This filter does not exist"
    >
      {(isNew || filter.data) && <FilterForm key={filter.data?.updated_at ?? 'new'} channelId={channelId} filter={filter.data ?? null} />}
      {filter.data && (
        <Stack gap="xs" mt="xl">
          <Text fw={600} size="sm">
            What this filter did
          </Text>
          <FilterLog channelId={channelId} filterId={filter.data.id} />
        </Stack>
      )}
    </EditorPage>
  );
}

type Form = UseFormReturnType<FilterBody, unknown>;

function SettingsFields({ form }: { form: Form }) {
  const values = form.getValues();
  const num = (path: string, label: string, props: { suffix?: string; description?: string; min?: number; max?: number } = {}) => (
    <NumberInput label={label} allowDecimal={false} {...props} {...form.getInputProps(`settings.${path}`)} />
  );
  switch (values.type) {
    case 'links':
      return (
        <TagsInput
          label="Allowed sites"
          description="Links to these sites (and their subdomains) are fine, e.g. youtube.com. Press Enter after each."
          placeholder={values.settings.allowed_domains?.length ? '' : 'youtube.com'}
          {...form.getInputProps('settings.allowed_domains')}
        />
      );
    case 'caps':
    case 'symbols':
      return (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="md">
          {num('min_length', 'From message length', { description: 'Shorter messages are fine.', min: 1 })}
          {num('max_percent', values.type === 'caps' ? 'Capitals at most' : 'Symbols at most', { suffix: ' %', min: 1, max: 100 })}
        </SimpleGrid>
      );
    case 'emotes':
      return num('max_count', 'Emotes at most', { min: 0 });
    case 'words':
      return (
        <TagsInput
          label="Banned words and phrases"
          description="Whole words, any case, accents and look-alike letters included; * matches within a word (spam*). Press Enter after each."
          {...form.getInputProps('settings.words')}
        />
      );
    case 'regex':
      return (
        <TextListField
          label="Regular expressions"
          description="RE2 syntax, matched in linear time without case (no look-arounds or back-references)."
          itemLabel="Pattern"
          values={values.settings.patterns ?? []}
          max={50}
          placeholder="fr[e3]{2}\s*v-?bucks"
          error={form.errors['settings.patterns']}
          errors={(i) => form.errors[`settings.patterns.${i}`]}
          onChange={(list) => form.setFieldValue('settings.patterns', list)}
        />
      );
    case 'repetition':
      return (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="md">
          {num('similarity_percent', 'Similar at', {
            suffix: ' %',
            min: 1,
            max: 100,
            description: 'To one of the viewer’s last messages (10 min), or one word this share of the message.',
          })}
          {num('min_length', 'From message length', { min: 1 })}
        </SimpleGrid>
      );
    case 'length':
      return num('max_length', 'Characters at most', { min: 1 });
    case 'zalgo':
      return num('max_marks', 'Stacked marks at most', { min: 1, description: 'Accents stacked on one letter; languages use up to 2.' });
  }
}

function FilterForm({ channelId, filter }: { channelId: string; filter: ChatFilter | null }) {
  const navigate = useNavigate();
  const save = useSaveChatFilter(channelId, filter?.id ?? null);
  const remove = useDeleteChatFilter(channelId);
  const form = useSchemaForm(filterBodySchema, { initialValues: filter ? toFilterBody(filter) : newFilter('links') });
  const submit = useFormSubmit(form, save.mutateAsync, {
    onSuccess: (saved) => {
      notifySuccess(`${saved.name} saved`);
      if (!filter) void navigate(`../${saved.id}`, { replace: true, relative: 'path', state: LEAVE_WITHOUT_ASKING });
    },
  });
  useUnsavedChangesGuard(form);
  // The values are one of the filter kinds; type changes swap the whole shape, so fields work on the union.
  const loose = form as unknown as Form;
  const switchKind = (type: string) => {
    const next = newFilter(type as FilterType);
    loose.setFieldValue('type', next.type);
    loose.setFieldValue('name', next.name);
    loose.setFieldValue('settings', next.settings);
    loose.setFieldValue('message', next.message ?? '');
  };
  const values = form.getValues();
  return (
    <form onSubmit={submit.onSubmit} aria-label="Filter" noValidate>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="md">
          <Select
            label="Kind"
            allowDeselect={false}
            disabled={Boolean(filter)}
            description={filterTypeDescriptions[values.type]}
            data={filterTypes.map((t) => ({ value: t, label: filterTypeLabels[t] }))}
            value={values.type}
            onChange={(t) => t && switchKind(t)}
          />
          <TextInput label="Name" withAsterisk {...form.getInputProps('name')} />
        </SimpleGrid>
        <SettingsFields form={loose} />
        <LevelSelect
          label="Not filtered"
          description="This level and above are never filtered."
          value={values.exempt_level ?? 7}
          onChange={(v) => form.setFieldValue('exempt_level', v)}
        />
        <Input.Wrapper label="Action">
          <SegmentedControl
            mt={6}
            aria-label="Action"
            data={(Object.keys(filterActionLabels) as FilterAction[]).map((a) => ({ value: a, label: filterActionLabels[a] }))}
            {...form.getInputProps('action')}
          />
        </Input.Wrapper>
        {values.action === 'timeout' && (
          <NumberInput label="Timeout" suffix=" s" min={1} allowDecimal={false} maw={220} {...form.getInputProps('duration_seconds')} />
        )}
        <Switch
          label="Warn first"
          description="A viewer's first offence in a stream only deletes the message and warns; the action comes from the second."
          {...form.getInputProps('warn_first', { type: 'checkbox' })}
        />
        <Textarea
          label="Chat message"
          description="Said after the action; $(user), $(reason) and the command variables work. Empty: say nothing."
          autosize
          minRows={1}
          {...form.getInputProps('message')}
        />
        <Alert variant="light" color="gray" icon={<IconInfoCircle aria-hidden />}>
          <Text size="xs">{capabilityNote}</Text>
        </Alert>
        <Switch label="Enabled" {...form.getInputProps('enabled', { type: 'checkbox' })} />
        {submit.error != null && <ErrorAlert error={submit.error} />}
        <Group justify="space-between">
          {filter ? (
            <DeleteButton
              what="filter"
              name={filter.name}
              loading={remove.isPending}
              onConfirm={() =>
                remove.mutate(filter.id, {
                  onSuccess: () => {
                    notifySuccess(`${filter.name} deleted`);
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
            disabled={!!filter && !form.isDirty()}
          >
            {filter ? 'Save' : 'Create filter'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
