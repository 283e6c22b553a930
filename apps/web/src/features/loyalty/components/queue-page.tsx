import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconArrowDown, IconArrowLeft, IconArrowUp, IconGripVertical, IconMoodEmpty, IconTrash, IconX } from '@tabler/icons-react';
import { useState, type DragEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { pickBodySchema, queueStatusLabels, type QueueDetail } from '@greenroom/contracts/api/queues';
import { providers } from '@greenroom/contracts/providers';
import { ErrorAlert } from '../../../components/error-alert';
import { PageState } from '../../../components/page-state';
import { ProviderIcon } from '../../../components/provider-icon';
import { LEAVE_WITHOUT_ASKING } from '../../../components/unsaved-changes';
import { isApiError } from '../../../lib/api-client';
import { formatTime, relativeTime } from '../../../lib/format';
import { useFormSubmit, useSchemaForm } from '../../../lib/form';
import { notifySuccess } from '../../../lib/notify';
import {
  useClearQueue,
  useDeleteQueue,
  useLiveQueues,
  useMoveEntry,
  usePick,
  useQueue,
  useRemoveEntry,
  useSetQueueStatus,
} from '../api/queues';
import { PageFrame, Section } from '../../../components/page-frame';
import { QueueForm } from './queue-form';
import { queueStatusColors } from './queues-page';

/** `/channels/{id}/queues/{queueId}` (and `new`): the live line, picking, reordering, and the queue's rules. */
export function QueuePage({ channelId, queueId }: { channelId: string; queueId: string }) {
  const isNew = queueId === 'new';
  const queue = useQueue(channelId, queueId, !isNew);
  useLiveQueues(channelId);
  const back = (
    <Anchor component={Link} to={`/channels/${channelId}/queues`} size="sm" c="dimmed">
      <Group gap={4} component="span">
        <IconArrowLeft size={14} aria-hidden />
        Viewer Queue
      </Group>
    </Anchor>
  );
  if (isApiError(queue.error, 404)) {
    return (
      <Stack gap="md" p={{ base: 'md', sm: 'lg' }}>
        {back}
        <PageState order={1} icon={<IconMoodEmpty size={28} />} title="This queue does not exist" description="It may have been deleted." />
      </Stack>
    );
  }
  const q = queue.data;
  return (
    <Stack gap={0}>
      <Stack px={{ base: 'md', sm: 'lg' }} pt={{ base: 'md', sm: 'lg' }} gap={0}>
        {back}
      </Stack>
      <PageFrame
        title={
          isNew ? (
            'New queue'
          ) : q ? (
            <Group gap="sm" component="span">
              {q.name}
              <Badge color={queueStatusColors[q.status]} variant="light" size="lg">
                {queueStatusLabels[q.status]}
              </Badge>
            </Group>
          ) : (
            'Queue'
          )
        }
        description={
          q
            ? `${q.size.toLocaleString('en-US')} waiting${q.max_size > 0 ? ` of at most ${q.max_size.toLocaleString('en-US')}` : ''}`
            : 'Name the queue and set its rules, then open it.'
        }
        actions={q && <StatusControl channelId={channelId} queue={q} />}
        loading={!isNew && queue.isPending}
        error={queue.error}
      >
        {isNew ? (
          <Section title="Rules">
            <QueueForm channelId={channelId} queue={null} />
          </Section>
        ) : (
          q && (
            <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md" verticalSpacing="md">
              <Stack gap="md">
                <PickPanel channelId={channelId} queue={q} />
                <Line channelId={channelId} queue={q} />
              </Stack>
              <Stack gap="md">
                <Picked queue={q} />
                <Section title="Rules">
                  <QueueForm key={q.id} channelId={channelId} queue={q} />
                </Section>
                <DangerActions channelId={channelId} queue={q} />
              </Stack>
            </SimpleGrid>
          )
        )}
      </PageFrame>
    </Stack>
  );
}

function StatusControl({ channelId, queue: q }: { channelId: string; queue: QueueDetail }) {
  const status = useSetQueueStatus(channelId, q.id);
  return (
    <SegmentedControl
      aria-label="Queue status"
      value={status.isPending && status.variables ? status.variables : q.status}
      disabled={status.isPending}
      onChange={(v) => status.mutate(v)}
      data={(['open', 'paused', 'closed'] as const).map((s) => ({ value: s, label: queueStatusLabels[s] }))}
    />
  );
}

const pickByNameSchema = pickBodySchema.options[2];

function PickPanel({ channelId, queue: q }: { channelId: string; queue: QueueDetail }) {
  const pick = usePick(channelId, q.id);
  const byName = usePick(channelId, q.id, false);
  const form = useSchemaForm(pickByNameSchema, { initialValues: { mode: 'name', name: '' } });
  const submit = useFormSubmit(form, (body) => byName.mutateAsync(body), {
    onSuccess: (result) => {
      form.reset();
      notifySuccess(`${result.picked.display_name} picked`);
    },
  });
  const busy = pick.isPending ? pick.variables.mode : null;
  const empty = q.size === 0;
  return (
    <Section title="Pick">
      <Group gap="xs">
        <Button
          loading={busy === 'next'}
          disabled={empty}
          onClick={() => pick.mutate({ mode: 'next' }, { onSuccess: (r) => notifySuccess(`${r.picked.display_name} picked`) })}
        >
          Pick next
        </Button>
        <Button
          variant="light"
          loading={busy === 'random'}
          disabled={empty}
          onClick={() => pick.mutate({ mode: 'random' }, { onSuccess: (r) => notifySuccess(`${r.picked.display_name} picked`) })}
        >
          Pick random
        </Button>
      </Group>
      <form onSubmit={submit.onSubmit} aria-label="Pick by name" noValidate>
        <Group gap="xs" align="flex-start">
          <TextInput placeholder="Name" aria-label="Viewer name" style={{ flex: '1 1 180px' }} {...form.getInputProps('name')} />
          <Button type="submit" variant="default" loading={form.submitting}>
            Pick this viewer
          </Button>
        </Group>
        {submit.error != null && <ErrorAlert error={submit.error} mt="xs" />}
      </form>
    </Section>
  );
}

function Line({ channelId, queue: q }: { channelId: string; queue: QueueDetail }) {
  const move = useMoveEntry(channelId, q.id);
  const remove = useRemoveEntry(channelId, q.id);
  const [dragging, setDragging] = useState<string | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const last = q.entries.length;
  const onDrop = (event: DragEvent, position: number) => {
    event.preventDefault();
    const entryId = dragging;
    setDragging(null);
    setOver(null);
    const entry = q.entries.find((e) => e.id === entryId);
    if (entry && entry.position !== position) move.mutate({ entryId: entry.id, position });
  };
  return (
    <Section title="Waiting" description={q.entries.length > 1 ? 'Drag a row, or use the arrows, to change the order.' : undefined}>
      {move.error != null && <ErrorAlert error={move.error} />}
      {q.entries.length === 0 ? (
        <Text size="sm" c="dimmed">
          {q.status === 'open' ? 'Nobody is waiting. Viewers type !join in chat.' : 'Nobody is waiting.'}
        </Text>
      ) : (
        <Paper withBorder radius="md" style={{ overflowX: 'auto' }}>
          <Table verticalSpacing={4} fz="sm" miw={420} aria-label="Waiting viewers">
            <Table.Tbody>
              {q.entries.map((e) => (
                <Table.Tr
                  key={e.id}
                  draggable
                  onDragStart={(event) => {
                    setDragging(e.id);
                    event.dataTransfer.effectAllowed = 'move';
                  }}
                  onDragEnd={() => {
                    setDragging(null);
                    setOver(null);
                  }}
                  onDragOver={(event) => {
                    if (!dragging) return;
                    event.preventDefault();
                    setOver(e.position);
                  }}
                  onDrop={(event) => onDrop(event, e.position)}
                  style={{
                    cursor: 'grab',
                    opacity: dragging === e.id ? 0.5 : 1,
                    boxShadow: over === e.position && dragging !== e.id ? 'inset 0 2px 0 var(--mantine-primary-color-filled)' : undefined,
                  }}
                >
                  <Table.Td w={28}>
                    <IconGripVertical size={14} aria-hidden />
                  </Table.Td>
                  <Table.Td w={40}>
                    <Text size="sm" fw={700}>
                      {e.position}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <ProviderIcon provider={e.provider} size={14} aria-label={providers[e.provider].name} />
                      <Text size="sm">{e.display_name}</Text>
                      {e.priority && (
                        <Badge size="xs" variant="light">
                          Sub
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Tooltip label={formatTime(e.joined_at)}>
                      <Text size="xs" c="dimmed">
                        {relativeTime(e.joined_at)}
                      </Text>
                    </Tooltip>
                  </Table.Td>
                  <Table.Td w={110}>
                    <Group gap={2} wrap="nowrap" justify="flex-end">
                      <ActionIcon
                        variant="subtle"
                        aria-label={`Move ${e.display_name} up`}
                        disabled={e.position === 1}
                        onClick={() => move.mutate({ entryId: e.id, position: e.position - 1 })}
                      >
                        <IconArrowUp size={16} />
                      </ActionIcon>
                      <ActionIcon
                        variant="subtle"
                        aria-label={`Move ${e.display_name} down`}
                        disabled={e.position === last}
                        onClick={() => move.mutate({ entryId: e.id, position: e.position + 1 })}
                      >
                        <IconArrowDown size={16} />
                      </ActionIcon>
                      <ActionIcon variant="subtle" color="red" aria-label={`Remove ${e.display_name}`} onClick={() => remove.mutate(e.id)}>
                        <IconX size={16} />
                      </ActionIcon>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
      )}
      {q.size > q.entries.length && (
        <Text size="xs" c="dimmed">
          Showing the first {q.entries.length} of {q.size.toLocaleString('en-US')}.
        </Text>
      )}
    </Section>
  );
}

function Picked({ queue: q }: { queue: QueueDetail }) {
  return (
    <Section title="Picked">
      {q.picked.length === 0 ? (
        <Text size="sm" c="dimmed">
          Nobody picked yet.
        </Text>
      ) : (
        <Stack gap={4} aria-label="Picked viewers">
          {q.picked.map((p) => (
            <Group key={p.id} gap={6} wrap="nowrap">
              <ProviderIcon provider={p.provider} size={14} aria-label={providers[p.provider].name} />
              <Text size="sm" fw={600}>
                {p.display_name}
              </Text>
              <Text size="xs" c="dimmed">
                {formatTime(p.picked_at)}
              </Text>
            </Group>
          ))}
        </Stack>
      )}
    </Section>
  );
}

function DangerActions({ channelId, queue: q }: { channelId: string; queue: QueueDetail }) {
  const clear = useClearQueue(channelId, q.id);
  const remove = useDeleteQueue(channelId);
  const navigate = useNavigate();
  return (
    <Group justify="flex-end" gap="xs">
      <Button
        variant="light"
        color="red"
        disabled={q.size === 0}
        loading={clear.isPending}
        onClick={() =>
          modals.openConfirmModal({
            title: `Clear ${q.name}?`,
            children: <Text size="sm">Everyone waiting leaves the queue.</Text>,
            labels: { confirm: 'Clear', cancel: 'Cancel' },
            confirmProps: { color: 'red' },
            onConfirm: () => clear.mutate(undefined, { onSuccess: () => notifySuccess(`${q.name} cleared`) }),
          })
        }
      >
        Clear
      </Button>
      <Button
        variant="subtle"
        color="red"
        leftSection={<IconTrash size={16} />}
        loading={remove.isPending}
        onClick={() =>
          modals.openConfirmModal({
            title: `Delete ${q.name}?`,
            children: <Text size="sm">The queue and its line are deleted for good.</Text>,
            labels: { confirm: 'Delete', cancel: 'Cancel' },
            confirmProps: { color: 'red' },
            onConfirm: () =>
              remove.mutate(q.id, {
                onSuccess: () => {
                  notifySuccess(`${q.name} deleted`);
                  void navigate(`/channels/${channelId}/queues`, { state: LEAVE_WITHOUT_ASKING });
                },
              }),
          })
        }
      >
        Delete
      </Button>
    </Group>
  );
}
