import { Alert, Autocomplete, Badge, Button, Checkbox, Group, Paper, Select, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconAlertTriangle, IconCheck, IconDeviceFloppy, IconX } from '@tabler/icons-react';
import { useQueries } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { z } from 'zod';
import type { ChannelProvider } from '@greenroom/contracts/api/channel-providers';
import {
  pickCategory,
  streamTitleProblem,
  type CategoryDto,
  type CategorySearchResultDto,
  type StreamInfoDto,
  type StreamInfoResultDto,
  type UpdateAllStreamInfoBody,
} from '@greenroom/contracts/api/stream-info';
import { providers } from '@greenroom/contracts/providers';
import { getStreamInfoQueryOptions, useCategorySearch, useCategorySearchAll, useUpdateAllStreamInfo } from '../../../api/stream-info';
import { ErrorAlert } from '../../../components/error-alert';
import { ProviderIcon } from '../../../components/provider-icon';
import { useUnsavedChangesGuard } from '../../../components/unsaved-changes';
import { errorMessage } from '../../../lib/error-message';
import { useFormSubmit, useSchemaForm } from '../../../lib/form';
import { notifySuccess } from '../../../lib/notify';

/** Title length as the platforms count it (code points). */
const titleLength = (title: string) => [...title].length;

/** Why a connection cannot take a title or category now, or null. */
export function unavailableReason(p: ChannelProvider): string | null {
  if (p.scope_needed) return 'Reconnect needed';
  if (p.provider === 'youtube' && p.live_stream_id == null) return 'No live broadcast: schedule or start one in YouTube Studio';
  return null;
}

const categoryRef = z.object({ id: z.string(), name: z.string() });

/** The editor's rules: each chosen platform's title limit (from the contract), at least one platform, something to change. */
function editorSchema(targets: ChannelProvider[]) {
  return z
    .object({
      title: z.string(),
      category: z.string().trim().max(100, 'At most 100 characters'),
      selected: z.array(z.string()),
      /** Categories picked by hand per connection, instead of the name's match. */
      overrides: z.record(z.string(), categoryRef),
    })
    .superRefine((v, ctx) => {
      if (v.selected.length === 0) ctx.addIssue({ code: 'custom', path: ['selected'], message: 'Choose at least one platform.' });
      if (v.title.trim() === '') return;
      for (const p of targets) {
        if (!v.selected.includes(p.id) || !providers[p.provider].changeTitle) continue;
        const problem = streamTitleProblem(p.provider, v.title);
        if (problem) {
          ctx.addIssue({ code: 'custom', path: ['title'], message: problem });
          return;
        }
      }
    });
}
type EditorValues = z.input<ReturnType<typeof editorSchema>>;

interface Resolution {
  category: { id: string; name: string } | null;
  options: CategoryDto[];
  state: 'override' | 'match' | 'searching' | 'none' | 'error';
  error?: string;
}

/** Which category a connection gets for the typed name: the one picked by hand, else its platform's best match. */
function resolve(
  p: ChannelProvider,
  values: EditorValues,
  search: { results: CategorySearchResultDto[] | undefined; current: boolean },
): Resolution {
  const found = search.results?.find((r) => r.channel_provider_id === p.id);
  const options = found?.categories ?? [];
  const override = values.overrides[p.id];
  if (override) return { category: override, options, state: 'override' };
  if (!search.current || !search.results) return { category: null, options, state: 'searching' };
  if (found?.error) return { category: null, options, state: 'error', error: found.error.message };
  const match = pickCategory(options, values.category);
  return match ? { category: { id: match.id, name: match.name }, options, state: 'match' } : { category: null, options, state: 'none' };
}

/**
 * A platform's category for the typed name: its best match, or one picked by hand — from the name's results or by
 * searching that platform alone.
 */
function PlatformCategorySelect({
  channelId,
  provider: p,
  resolution: r,
  onPick,
}: {
  channelId: string;
  provider: ChannelProvider;
  resolution: Resolution;
  onPick: (category: { id: string; name: string }) => void;
}) {
  const info = providers[p.provider];
  const [query, setQuery] = useState('');
  const [debounced] = useDebouncedValue(query, 250);
  const typed = debounced.trim() !== '' && debounced !== r.category?.name;
  const own = useCategorySearch(channelId, p.id, typed ? debounced : '');
  const data = useMemo(() => {
    const seen = new Set<string>();
    const list: { value: string; label: string }[] = [];
    for (const c of [...(r.category ? [r.category] : []), ...r.options, ...(typed ? (own.data ?? []) : [])]) {
      if (seen.has(c.id)) continue;
      seen.add(c.id);
      list.push({ value: c.id, label: c.name });
    }
    return list;
  }, [r.category, r.options, typed, own.data]);
  return (
    <Select
      size="xs"
      label={`${info.name} category`}
      placeholder={r.state === 'searching' ? 'Searching…' : `Search ${info.name} categories`}
      searchable
      searchValue={query}
      onSearchChange={setQuery}
      data={data}
      value={r.category?.id ?? null}
      onChange={(id, option) => id && onPick({ id, name: option?.label ?? id })}
      filter={({ options }) => options}
      nothingFoundMessage={own.isFetching ? 'Searching…' : 'No category found'}
      error={r.state === 'error' ? r.error : r.state === 'none' ? `No ${info.name} category matches this name: pick one.` : undefined}
      allowDeselect={false}
      comboboxProps={{ withinPortal: true }}
    />
  );
}

interface FormProps {
  channelId: string;
  targets: ChannelProvider[];
  current: Record<string, StreamInfoDto | undefined>;
  initial: EditorValues;
  /** The last save's result per platform (kept by the parent: a save refreshes the form). */
  results: StreamInfoResultDto[] | null;
  setResults: (results: StreamInfoResultDto[] | null) => void;
  /** The values last saved (the refreshed form starts from them rather than from one platform's state). */
  setSaved: (values: { title: string; category: string }) => void;
}

function EditorForm({ channelId, targets, current, initial, results, setResults, setSaved }: FormProps) {
  const schema = useMemo(() => editorSchema(targets), [targets]);
  const form = useSchemaForm(schema, { initialValues: initial });
  const update = useUpdateAllStreamInfo(channelId);
  const values = form.values;
  const [debounced] = useDebouncedValue(values.category.trim(), 300);
  const search = useCategorySearchAll(channelId, debounced);
  const searchState = { results: search.data, current: debounced === values.category.trim() && !search.isFetching };
  const wantsCategory =
    values.category.trim() !== '' && (values.category.trim() !== initial.category || Object.keys(values.overrides).length > 0);
  const selectedTargets = targets.filter((p) => values.selected.includes(p.id));
  const wantsTitle =
    values.title.trim() !== '' &&
    selectedTargets.some((p) => providers[p.provider].changeTitle && current[p.id]?.title !== values.title.trim());
  useUnsavedChangesGuard(form);

  const suggestions = useMemo(() => {
    const seen = new Set<string>();
    const names: string[] = [];
    for (const r of search.data ?? [])
      for (const c of r.categories) {
        const key = c.name.toLocaleLowerCase();
        if (!seen.has(key) && names.length < 15) {
          seen.add(key);
          names.push(c.name);
        }
      }
    return names;
  }, [search.data]);

  const submit = useFormSubmit(
    form,
    (v) => {
      const body: UpdateAllStreamInfoBody = { channel_provider_ids: v.selected };
      if (wantsTitle) body.title = v.title.trim();
      if (wantsCategory) {
        body.category_name = v.category;
        const categories: Record<string, string> = {};
        for (const p of selectedTargets) {
          if (!providers[p.provider].changeCategory) continue;
          const r = resolve(p, v, searchState);
          if (r.category) categories[p.id] = r.category.id;
        }
        body.categories = categories;
      }
      setResults(null);
      return update.mutateAsync(body);
    },
    {
      onSuccess: (answer, v) => {
        setSaved({ title: v.title.trim(), category: v.category });
        setResults(answer);
        const ok = answer.filter((r) => r.ok).length;
        if (ok === answer.length) notifySuccess(ok === 1 ? 'Stream info updated' : `Stream info updated on ${ok} platforms`);
      },
    },
  );

  const resultOf = (id: string) => results?.find((r) => r.channel_provider_id === id);
  const failed = results?.filter((r) => !r.ok) ?? [];

  return (
    <form onSubmit={submit.onSubmit} aria-label="Stream info on every platform" noValidate>
      <Stack gap="sm">
        <TextInput label="Title" placeholder="What is the stream about?" {...form.getInputProps('title')} />
        <Autocomplete
          label="Category"
          placeholder="Search categories on every platform"
          data={suggestions}
          {...form.getInputProps('category')}
          onChange={(value) => {
            form.setFieldValue('category', value);
            form.setFieldValue('overrides', {});
          }}
          filter={({ options }) => options}
          comboboxProps={{ withinPortal: true }}
          description="Each platform gets its own category for this name; change it per platform below."
          inputWrapperOrder={['label', 'input', 'description', 'error']}
        />
        <Stack gap={6} component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Platforms to update">
          {targets.map((p) => {
            const info = providers[p.provider];
            const reason = unavailableReason(p);
            const checked = values.selected.includes(p.id);
            const now = current[p.id];
            const max = info.streamTitleMaxLength;
            const length = titleLength(values.title.trim());
            const over = info.changeTitle && max !== null && length > max;
            const r = info.changeCategory && wantsCategory ? resolve(p, values, searchState) : null;
            const result = resultOf(p.id);
            return (
              <Paper key={p.id} component="li" withBorder radius="md" p="xs" aria-label={`${info.name} stream info`}>
                <Stack gap={6}>
                  <Group justify="space-between" wrap="wrap" gap="xs">
                    <Checkbox
                      label={
                        <Group gap={6} wrap="nowrap">
                          <ProviderIcon provider={p.provider} size={14} />
                          <span>{info.name}</span>
                        </Group>
                      }
                      aria-label={`Update ${info.name}`}
                      checked={checked}
                      disabled={reason !== null}
                      onChange={(e) =>
                        form.setFieldValue(
                          'selected',
                          e.currentTarget.checked ? [...values.selected, p.id] : values.selected.filter((id) => id !== p.id),
                        )
                      }
                    />
                    <Group gap={6}>
                      {info.changeTitle && max !== null && (
                        <Text
                          size="xs"
                          c={over ? 'red' : 'dimmed'}
                          ff="monospace"
                          aria-label={`${info.name} title length ${length} of ${max}`}
                        >
                          {length}/{max}
                        </Text>
                      )}
                      {result &&
                        (result.ok ? (
                          <Badge color="green" variant="light" size="sm" tt="none" leftSection={<IconCheck size={12} />}>
                            Updated
                          </Badge>
                        ) : (
                          <Badge color="red" variant="light" size="sm" tt="none" leftSection={<IconX size={12} />}>
                            Not updated
                          </Badge>
                        ))}
                    </Group>
                  </Group>
                  {reason ? (
                    <Text size="xs" c="dimmed">
                      {reason}
                    </Text>
                  ) : (
                    <>
                      {now && (
                        <Text size="xs" c="dimmed" truncate title={now.title}>
                          Now: {now.title || '(no title)'}
                          {now.category ? ` · ${now.category.name}` : ''}
                        </Text>
                      )}
                      {over && checked && (
                        <Text size="xs" c="red">
                          {streamTitleProblem(p.provider, values.title)} Shorten it or leave {info.name} out.
                        </Text>
                      )}
                      {r && checked && (
                        <PlatformCategorySelect
                          channelId={channelId}
                          provider={p}
                          resolution={r}
                          onPick={(category) => form.setFieldValue('overrides', { ...values.overrides, [p.id]: category })}
                        />
                      )}
                      {result && !result.ok && result.error && (
                        <Text size="xs" c="red" role="alert">
                          {result.error.message}
                        </Text>
                      )}
                    </>
                  )}
                </Stack>
              </Paper>
            );
          })}
        </Stack>
        {form.errors.selected && (
          <Text size="xs" c="red">
            {form.errors.selected}
          </Text>
        )}
        {failed.length > 0 && results && (
          <Alert color="orange" variant="light" icon={<IconAlertTriangle aria-hidden />} title="Some platforms were not updated">
            {results.length - failed.length > 0
              ? `Updated on ${results.length - failed.length} of ${results.length} platforms. `
              : 'No platform was updated. '}
            {failed
              .map((f) => `${providers[f.provider as keyof typeof providers]?.name ?? f.provider}: ${f.error?.message ?? ''}`)
              .join(' ')}
          </Alert>
        )}
        {submit.error != null && <ErrorAlert error={submit.error} />}
        <Group justify="flex-end">
          <Button
            type="submit"
            leftSection={<IconDeviceFloppy size={16} />}
            loading={form.submitting}
            disabled={(!wantsTitle && !wantsCategory) || selectedTargets.length === 0}
          >
            Update {selectedTargets.length === 1 ? providers[selectedTargets[0]!.provider].name : `${selectedTargets.length} platforms`}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** One title and category for every connected platform at once, with each platform's limits and result. */
export function StreamInfoEditor({ channelId, connections }: { channelId: string; connections: ChannelProvider[] }) {
  const targets = useMemo(
    () => connections.filter((p) => providers[p.provider].changeTitle || providers[p.provider].changeCategory),
    [connections],
  );
  const readable = targets.filter((p) => unavailableReason(p) === null);
  const [results, setResults] = useState<StreamInfoResultDto[] | null>(null);
  const [saved, setSaved] = useState<{ title: string; category: string } | null>(null);
  const infos = useQueries({
    queries: readable.map((p) => ({ ...getStreamInfoQueryOptions(channelId, p.id), meta: { errorToast: false } })),
  });
  if (targets.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        Connect Twitch, YouTube or Kick to edit the stream title and category here.
      </Text>
    );
  }
  if (infos.some((q) => q.isPending)) {
    return (
      <Stack gap="sm" aria-busy="true" aria-label="Loading stream info">
        <Skeleton h={36} />
        <Skeleton h={36} />
        <Skeleton h={64} />
      </Stack>
    );
  }
  const current: Record<string, StreamInfoDto | undefined> = {};
  readable.forEach((p, i) => (current[p.id] = infos[i]?.data));
  const first = readable.map((p) => current[p.id]).find((i) => i !== undefined);
  const initial: EditorValues = {
    title: saved?.title ?? first?.title ?? '',
    category: saved?.category ?? first?.category?.name ?? '',
    selected: readable.map((p) => p.id),
    overrides: {},
  };
  const errors = readable.flatMap((p, i) => (infos[i]?.error ? [{ p, error: infos[i].error }] : []));
  // A new answer from a platform (after a save, or a refetch) starts a fresh form.
  const key = readable.map((p) => `${p.id}:${current[p.id]?.title ?? ''}:${current[p.id]?.category?.id ?? ''}`).join('|');
  return (
    <Stack gap="sm">
      {errors.map(({ p, error }) => (
        <ErrorAlert key={p.id} message={`${providers[p.provider].name}: the current title could not be read (${errorMessage(error)})`} />
      ))}
      <EditorForm
        key={`${key}|${targets.map((t) => t.id).join(',')}`}
        channelId={channelId}
        targets={targets}
        current={current}
        initial={initial}
        results={results}
        setResults={setResults}
        setSaved={setSaved}
      />
    </Stack>
  );
}
