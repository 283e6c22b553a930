import { Button, Group, Paper, Select, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { z } from 'zod';
import type { ChannelProvider } from '@greenroom/contracts/api/channel-providers';
import { categorySchema, streamTitleProblem, type StreamInfoDto, type UpdateStreamInfoBody } from '@greenroom/contracts/api/stream-info';
import { providers, type ChannelProviderId } from '@greenroom/contracts/providers';
import { ErrorAlert } from '../../../components/error-alert';
import { useUnsavedChangesGuard } from '../../../components/unsaved-changes';
import { useFormSubmit, useSchemaForm } from '../../../lib/form';
import { notifySuccess } from '../../../lib/notify';
import { useCategorySearch, useStreamInfo, useUpdateStreamInfo } from '../../../api/stream-info';

/** Title length as the platforms count it (code points), for each platform's title limit. */
export const titleLength = (title: string) => [...title].length;

/** What changed between the platform's info and the form, or null when nothing did. */
export function streamInfoChanges(current: StreamInfoDto, title: string, categoryId: string | null): UpdateStreamInfoBody | null {
  const body: { title?: string; category_id?: string } = {};
  if (title.trim() !== current.title) body.title = title.trim();
  if (categoryId && categoryId !== current.category?.id) body.category_id = categoryId;
  return body.title === undefined && body.category_id === undefined ? null : body;
}

/** The form's rules: the platform's title rule from the contract (an empty title stays allowed when it was empty). */
function streamInfoFormSchema(provider: ChannelProviderId, info: StreamInfoDto) {
  return z.object({
    title: z.string().superRefine((title, ctx) => {
      if (!providers[provider].changeTitle || (title.trim() === '' && info.title === '')) return;
      const problem = streamTitleProblem(provider, title);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
    category: categorySchema.pick({ id: true, name: true }).nullable(),
  });
}

function Form({ provider: p, info }: { provider: ChannelProvider; info: StreamInfoDto }) {
  const platform = providers[p.provider];
  const max = platform.streamTitleMaxLength;
  const schema = useMemo(() => streamInfoFormSchema(p.provider, info), [p.provider, info]);
  const form = useSchemaForm(schema, { initialValues: { title: info.title, category: info.category } });
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const found = useCategorySearch(p.channel_id, p.id, platform.changeCategory ? debounced : '');
  const update = useUpdateStreamInfo(p.channel_id, p.id);
  const { title, category } = form.values;
  const changes = streamInfoChanges(info, platform.changeTitle ? title : info.title, category?.id ?? null);
  const submit = useFormSubmit(
    form,
    (values) => {
      // Only what changed goes to the platform.
      const body = streamInfoChanges(info, platform.changeTitle ? values.title : info.title, values.category?.id ?? null);
      return body ? update.mutateAsync(body) : Promise.resolve(info);
    },
    { onSuccess: () => notifySuccess(`${platform.name} stream info updated`), fieldMap: { category_id: 'category' } },
  );
  useUnsavedChangesGuard(form);

  const options = useMemo(() => {
    const list = (found.data ?? []).map((c) => ({ value: c.id, label: c.name }));
    if (category && !list.some((o) => o.value === category.id)) list.unshift({ value: category.id, label: category.name });
    return list;
  }, [found.data, category]);

  return (
    <form onSubmit={submit.onSubmit} aria-label={`${platform.name} stream info`} noValidate>
      <Stack gap="sm">
        {platform.changeTitle && (
          <TextInput
            label="Title"
            {...form.getInputProps('title')}
            description={max !== null ? `${titleLength(title.trim())}/${max}` : undefined}
            inputWrapperOrder={['label', 'input', 'description', 'error']}
          />
        )}
        {platform.changeCategory && (
          <Select
            label="Category"
            placeholder="Search categories"
            searchable
            clearable={false}
            data={options}
            value={category?.id ?? null}
            onChange={(value, option) => value && form.setFieldValue('category', { id: value, name: option?.label ?? value })}
            error={form.errors.category}
            searchValue={search}
            onSearchChange={setSearch}
            filter={({ options: all }) => all}
            nothingFoundMessage={debounced.trim() ? (found.isFetching ? 'Searching…' : 'No category found') : 'Type to search'}
          />
        )}
        {submit.error != null && <ErrorAlert error={submit.error} />}
        <Group justify="flex-end">
          <Button
            type="submit"
            leftSection={<IconDeviceFloppy size={16} />}
            loading={form.submitting}
            disabled={!changes || !form.isValid()}
          >
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Title and category of one connection, read from and saved to the platform (Editors and above). */
export function StreamInfoCard({ provider: p }: { provider: ChannelProvider }) {
  const platform = providers[p.provider];
  // YouTube keeps title and category on the broadcast's video: nothing to edit until there is one.
  const noBroadcast = p.provider === 'youtube' && p.live_stream_id == null;
  const enabled = (platform.changeTitle || platform.changeCategory) && !p.scope_needed && !noBroadcast;
  const info = useStreamInfo(p.channel_id, p.id, enabled);
  if (!platform.changeTitle && !platform.changeCategory) return null;
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby={`stream-info-${p.id}`}>
      <Stack gap="sm">
        <div>
          <Title order={2} size="h4" id={`stream-info-${p.id}`}>
            Stream info
          </Title>
          <Text size="sm" c="dimmed">
            Title and category on {platform.name}.
          </Text>
        </div>
        {p.scope_needed ? (
          <Text size="sm" c="dimmed">
            Reconnect {platform.name} to edit the title and category.
          </Text>
        ) : noBroadcast ? (
          <Text size="sm" c="dimmed">
            On YouTube the title and category belong to a live broadcast. Schedule or start one in Studio to edit them here.
          </Text>
        ) : info.isPending ? (
          <Stack gap="sm" aria-busy="true" aria-label="Loading stream info">
            <Skeleton h={36} />
            <Skeleton h={36} />
          </Stack>
        ) : info.isError ? (
          <ErrorAlert error={info.error} />
        ) : (
          // A new answer from the platform (after a save, or a refetch) starts a fresh form.
          <Form key={`${info.data.title}\u0000${info.data.category?.id ?? ''}`} provider={p} info={info.data} />
        )}
      </Stack>
    </Paper>
  );
}
