import { Badge, Button, FileButton, Group, Loader, Modal, Stack, Table, Tabs, Text, Textarea } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { IconDownload, IconFileImport, IconHistory, IconRestore, IconUpload } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import {
  configChangeLabels,
  configImportBodySchema,
  configSectionLabels,
  type ConfigChange,
  type ConfigPlan,
  type ConfigVersion,
} from '@greenroom/contracts/api/chatbot';
import { ErrorAlert } from '../../../components/error-alert';
import { formatDateTime } from '../../../lib/format';
import { useFormSubmit, useSchemaForm } from '../../../lib/form';
import { notifySuccess } from '../../../lib/notify';
import {
  useConfigVersions,
  useExportConfig,
  useImportConfig,
  usePreviewConfigImport,
  useRestoreConfigVersion,
} from '../api/chatbot-config';

const changeColor: Record<ConfigChange, string> = { add: 'green', replace: 'blue', unchanged: 'gray', remove: 'orange', invalid: 'red' };

function saveFile(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  URL.revokeObjectURL(url);
}

function plural(n: number, one: string, many = `${one}s`) {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/** "3 added, 2 replaced, 1 invalid" (only what is there). */
export function planSummary(plan: ConfigPlan): string {
  const parts = (['add', 'replace', 'remove', 'invalid', 'unchanged'] as ConfigChange[])
    .filter((c) => plan.counts[c] > 0)
    .map((c) => `${plan.counts[c]} ${configChangeLabels[c].toLowerCase()}`);
  return parts.join(', ') || 'Nothing to change';
}

const changeOrder: Record<ConfigChange, number> = { invalid: 0, add: 1, replace: 2, remove: 3, unchanged: 4 };

function PlanTable({ plan }: { plan: ConfigPlan }) {
  // What changes (and what cannot) first; the unchanged at the end.
  const items = [...plan.items].sort((a, b) => changeOrder[a.change] - changeOrder[b.change]);
  return (
    <div style={{ overflowX: 'auto', maxHeight: 360 }}>
      <Table verticalSpacing={6} miw={520} aria-label="Import preview" stickyHeader>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>What</Table.Th>
            <Table.Th>Name</Table.Th>
            <Table.Th>Change</Table.Th>
            <Table.Th>Why</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((i, n) => (
            <Table.Tr key={`${i.section}-${i.key}-${n}`}>
              <Table.Td>
                <Text size="sm">{configSectionLabels[i.section]}</Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" ff="monospace">
                  {i.key}
                </Text>
              </Table.Td>
              <Table.Td>
                <Badge size="sm" variant="light" color={changeColor[i.change]}>
                  {configChangeLabels[i.change]}
                </Badge>
              </Table.Td>
              <Table.Td maw={320}>
                <Text size="xs" c={i.error ? 'red.4' : 'dimmed'}>
                  {i.error ?? ''}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </div>
  );
}

/** Import: choose the file (or paste it), see what would change, then apply it all at once. */
function ImportTab({ channelId, onDone }: { channelId: string; onDone: () => void }) {
  const preview = usePreviewConfigImport(channelId);
  const apply = useImportConfig(channelId);
  const [plan, setPlan] = useState<ConfigPlan | null>(null);
  const form = useSchemaForm(configImportBodySchema, { initialValues: { data: '' } });
  const submit = useFormSubmit(form, (body) => preview.mutateAsync(body), { onSuccess: (result) => setPlan(result) });
  const changes = plan ? plan.counts.add + plan.counts.replace + plan.counts.remove : 0;
  const run = () =>
    apply.mutate(
      { data: form.getValues().data },
      {
        onSuccess: (result) => {
          notifySuccess(`Imported: ${planSummary(result)}`);
          setPlan(null);
          form.reset();
          onDone();
        },
      },
    );
  return (
    <form onSubmit={submit.onSubmit}>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Choose a file exported from Greenroom (from this channel or another). Commands, timers and filters with the same name and quotes
          with the same number are replaced, the others added; nothing of this channel is removed. Nothing is saved until you import.
        </Text>
        <Group gap="sm">
          <FileButton
            accept="application/json,.json"
            onChange={(file) => {
              if (!file) return;
              void file.text().then((text) => {
                form.setFieldValue('data', text);
                setPlan(null);
              });
            }}
          >
            {(props) => (
              <Button variant="default" leftSection={<IconUpload size={16} />} {...props}>
                Choose file
              </Button>
            )}
          </FileButton>
          <Text size="xs" c="dimmed">
            or paste it below
          </Text>
        </Group>
        <Textarea
          label="Export"
          autosize
          minRows={3}
          maxRows={8}
          ff="monospace"
          {...form.getInputProps('data')}
          onChange={(e) => {
            form.setFieldValue('data', e.currentTarget.value);
            setPlan(null);
          }}
        />
        {submit.error != null && <ErrorAlert error={submit.error} />}
        {apply.error != null && <ErrorAlert error={apply.error} />}
        {plan && (
          <>
            <Text size="sm" fw={600} data-testid="import-summary">
              {planSummary(plan)}
            </Text>
            <PlanTable plan={plan} />
          </>
        )}
        <Group justify="flex-end" gap="sm">
          {!plan ? (
            <Button type="submit" loading={preview.isPending}>
              Preview
            </Button>
          ) : (
            <Button leftSection={<IconFileImport size={16} />} onClick={run} loading={apply.isPending} disabled={changes === 0}>
              Import {plural(changes, 'change')}
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}

function VersionsTab({ channelId, channelName }: { channelId: string; channelName: string }) {
  const versions = useConfigVersions(channelId);
  const restore = useRestoreConfigVersion(channelId);
  const exporter = useExportConfig(channelId);
  const { refetch } = versions;
  useEffect(() => {
    void refetch();
  }, [refetch]);
  const confirmRestore = (v: ConfigVersion) =>
    modals.openConfirmModal({
      title: `Restore version ${v.number}?`,
      children: (
        <Text size="sm">
          Commands, timers, spam filters and quotes become what they were on {formatDateTime(v.created_at)}: what was added since is removed
          (built-in commands stay). The configuration as it is now is kept as a version, so you can go back.
        </Text>
      ),
      labels: { confirm: 'Restore', cancel: 'Cancel' },
      centered: true,
      onConfirm: () => restore.mutate(v.id, { onSuccess: (plan) => notifySuccess(`Version ${v.number} restored: ${planSummary(plan)}`) }),
    });
  if (versions.isPending)
    return (
      <Group justify="center" py="lg">
        <Loader size="sm" />
      </Group>
    );
  if (versions.error) return <ErrorAlert error={versions.error} />;
  if (versions.data.length === 0)
    return (
      <Stack align="center" gap={4} py="lg">
        <IconHistory size={28} />
        <Text fw={600}>No versions yet</Text>
        <Text size="sm" c="dimmed" ta="center">
          Every change to commands, timers, spam filters or quotes keeps a version here, from the pages or from chat.
        </Text>
      </Stack>
    );
  return (
    <Stack gap="sm">
      {restore.error != null && <ErrorAlert error={restore.error} />}
      <div style={{ overflowX: 'auto', maxHeight: 420 }}>
        <Table verticalSpacing={6} miw={640} aria-label="Versions" stickyHeader>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>#</Table.Th>
              <Table.Th>When</Table.Th>
              <Table.Th>Who</Table.Th>
              <Table.Th>What changed</Table.Th>
              <Table.Th>Contents</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {versions.data.map((v, i) => (
              <Table.Tr key={v.id}>
                <Table.Td>
                  <Text size="sm">{v.number}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{formatDateTime(v.created_at)}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{v.actor_name ?? 'Greenroom'}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{v.reason}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="xs" c="dimmed">
                    {plural(v.counts.commands, 'command')}, {plural(v.counts.timers, 'timer')}, {plural(v.counts.filters, 'filter')},{' '}
                    {plural(v.counts.quotes, 'quote')}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap" justify="flex-end">
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      aria-label={`Download version ${v.number}`}
                      onClick={() =>
                        exporter.mutate(v.id, {
                          onSuccess: (doc) => saveFile(`${channelName} chatbot version ${v.number}.json`, JSON.stringify(doc, null, 2)),
                        })
                      }
                    >
                      <IconDownload size={16} />
                    </Button>
                    {i === 0 ? (
                      <Badge size="sm" variant="light" color="gray">
                        Current
                      </Badge>
                    ) : (
                      <Button
                        size="compact-sm"
                        variant="light"
                        leftSection={<IconRestore size={14} />}
                        loading={restore.isPending && restore.variables === v.id}
                        onClick={() => confirmRestore(v)}
                      >
                        Restore
                      </Button>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </div>
    </Stack>
  );
}

function ExportTab({ channelId, channelName }: { channelId: string; channelName: string }) {
  const exporter = useExportConfig(channelId);
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        One file with every command (built-ins with their settings), timer, spam filter and quote of this channel. Import it into another
        channel, or keep it as a backup. Use counts and timer schedules are not in it.
      </Text>
      {exporter.error != null && <ErrorAlert error={exporter.error} />}
      <Group>
        <Button
          leftSection={<IconDownload size={16} />}
          loading={exporter.isPending}
          onClick={() =>
            exporter.mutate(null, {
              onSuccess: (doc) => {
                saveFile(`${channelName} chatbot ${doc.exported_at.slice(0, 10)}.json`, JSON.stringify(doc, null, 2));
                notifySuccess(
                  `Exported ${plural(doc.commands.length, 'command')}, ${plural(doc.timers.length, 'timer')}, ${plural(doc.filters.length, 'filter')} and ${plural(doc.quotes.length, 'quote')}`,
                );
              },
            })
          }
        >
          Download export
        </Button>
      </Group>
    </Stack>
  );
}

/** The whole chatbot configuration: its versions (restore one), export to a file, import a file with a preview. */
export function ConfigModal({
  channelId,
  channelName,
  opened,
  onClose,
}: {
  channelId: string;
  channelName: string;
  opened: boolean;
  onClose: () => void;
}) {
  const [tab, setTab] = useState<string | null>('versions');
  const narrow = useMediaQuery('(max-width: 48em)');
  return (
    <Modal opened={opened} onClose={onClose} title="Backup and versions" size="xl" fullScreen={narrow === true}>
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="versions" leftSection={<IconHistory size={16} />}>
            Versions
          </Tabs.Tab>
          <Tabs.Tab value="export" leftSection={<IconDownload size={16} />}>
            Export
          </Tabs.Tab>
          <Tabs.Tab value="import" leftSection={<IconFileImport size={16} />}>
            Import
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="versions">
          <VersionsTab channelId={channelId} channelName={channelName} />
        </Tabs.Panel>
        <Tabs.Panel value="export">
          <ExportTab channelId={channelId} channelName={channelName} />
        </Tabs.Panel>
        <Tabs.Panel value="import">
          <ImportTab channelId={channelId} onDone={() => setTab('versions')} />
        </Tabs.Panel>
      </Tabs>
    </Modal>
  );
}
