import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Group,
  Menu,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconChevronDown, IconCopy, IconLayoutDashboard, IconPlus, IconTrash } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { widgetTypeDescriptions, widgetTypeLabels, widgetTypes, type Widget, type WidgetType } from '@greenroom/contracts/api/widgets';
import { ErrorAlert } from '../../../components/error-alert';
import { PageState } from '../../../components/page-state';
import { formatDate } from '../../../lib/format';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useCreateWidget, useDeleteWidget, useDuplicateWidget, useWidgets } from '../api/widgets';

/** Asks, then deletes a widget (its URL stops working in OBS at once). */
export function confirmDeleteWidget(widget: Widget, onConfirm: () => void): void {
  modals.openConfirmModal({
    title: 'Delete widget?',
    children: (
      <Text size="sm">
        Delete <b>{widget.name}</b>? Its URL stops working in OBS at once. This cannot be undone.
      </Text>
    ),
    labels: { confirm: 'Delete', cancel: 'Cancel' },
    confirmProps: { color: 'red' },
    centered: true,
    onConfirm,
  });
}

function NewWidgetMenu({ channelId }: { channelId: string }) {
  const navigate = useNavigate();
  const create = useCreateWidget(channelId);
  const add = (type: WidgetType) =>
    create.mutate(
      { type },
      {
        onSuccess: (w) => void navigate(w.id),
        onError: (e) => notifyError(e),
      },
    );
  return (
    <Menu position="bottom-end" width={320}>
      <Menu.Target>
        <Button leftSection={<IconPlus size={16} />} rightSection={<IconChevronDown size={14} />} loading={create.isPending}>
          New widget
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {widgetTypes.map((t) => (
          <Menu.Item key={t} onClick={() => add(t)}>
            <Text size="sm" fw={600}>
              {widgetTypeLabels[t]}
            </Text>
            <Text size="xs" c="dimmed">
              {widgetTypeDescriptions[t]}
            </Text>
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

/** `/channels/{id}/widgets` (Editor): the channel's OBS widgets. */
export function WidgetsPage({ channelId }: { channelId: string }) {
  const widgets = useWidgets(channelId);
  const duplicate = useDuplicateWidget(channelId);
  const remove = useDeleteWidget(channelId);
  return (
    <Stack gap="md" p={{ base: 'md', sm: 'lg' }} maw={1200}>
      <Group justify="space-between" align="flex-start" gap="sm">
        <div style={{ flex: '1 1 320px' }}>
          <Title order={1} size="h2">
            Stream Widgets
          </Title>
          <Text c="dimmed" size="sm">
            Alerts, chat, recent events and goals for your stream. Add a widget&apos;s URL to OBS as a browser source.
          </Text>
        </div>
        <NewWidgetMenu channelId={channelId} />
      </Group>
      {widgets.error != null && <ErrorAlert error={widgets.error} />}
      {widgets.isPending ? (
        <Paper withBorder radius="md" p="md" aria-busy="true" aria-label="Loading">
          <Stack gap="sm">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} h={32} />
            ))}
          </Stack>
        </Paper>
      ) : widgets.data?.length === 0 ? (
        <PageState
          icon={<IconLayoutDashboard size={28} />}
          title="No widgets yet"
          description="Add an alert box, a chat box, an event list or a goal bar, then paste its URL into OBS."
          action={<NewWidgetMenu channelId={channelId} />}
        />
      ) : widgets.data ? (
        <Paper withBorder radius="md" style={{ overflowX: 'auto' }}>
          <Table highlightOnHover verticalSpacing="sm" miw={560} aria-label="Widgets">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Widget</Table.Th>
                <Table.Th>Type</Table.Th>
                <Table.Th>Created</Table.Th>
                <Table.Th w={100}>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {widgets.data.map((w) => (
                <Table.Tr key={w.id}>
                  <Table.Td>
                    <Anchor component={Link} to={w.id} fw={600} size="sm">
                      {w.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light" color="gray">
                      {widgetTypeLabels[w.type]}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{formatDate(w.created_at)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <Tooltip label="Duplicate">
                        <ActionIcon
                          variant="subtle"
                          aria-label={`Duplicate ${w.name}`}
                          loading={duplicate.isPending && duplicate.variables === w.id}
                          onClick={() =>
                            duplicate.mutate(w.id, { onSuccess: (c) => notifySuccess(`${c.name} created`), onError: (e) => notifyError(e) })
                          }
                        >
                          <IconCopy size={16} />
                        </ActionIcon>
                      </Tooltip>
                      <Tooltip label="Delete">
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={`Delete ${w.name}`}
                          onClick={() =>
                            confirmDeleteWidget(w, () =>
                              remove.mutate(w.id, { onSuccess: () => notifySuccess(`${w.name} deleted`), onError: (e) => notifyError(e) }),
                            )
                          }
                        >
                          <IconTrash size={16} />
                        </ActionIcon>
                      </Tooltip>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
      ) : null}
    </Stack>
  );
}
