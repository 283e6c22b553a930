import { Anchor, Button, Group, Paper, Switch, Table, Text, Tooltip } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconClock, IconFileImport, IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PageState } from '../../../components/page-state';
import { ProviderBadge } from '../../../components/provider-badge';
import { formatTime } from '../../../lib/format';
import { useChatTimers, useToggleChatTimer } from '../api/chat-timers';
import { ListPage } from './list-page';
import { TimerImportModal } from './timer-import-modal';

/** `/channels/{id}/chat-timers` (Editor): messages posted every few minutes when chat is active. */
export function TimersPage({ channelId }: { channelId: string }) {
  const timers = useChatTimers(channelId);
  const toggle = useToggleChatTimer(channelId);
  const [importOpened, importer] = useDisclosure(false);
  const importButton = (
    <Button variant="default" leftSection={<IconFileImport size={16} />} onClick={importer.open}>
      Import
    </Button>
  );
  const newButton = (
    <Button component={Link} to="new" leftSection={<IconPlus size={16} />}>
      New timer
    </Button>
  );
  return (
    <ListPage
      title="Chat Timers"
      description="Messages the bot posts every few minutes, in turn, once chat has been active enough. Timers of a channel never fire together."
      loading={timers.isPending}
      error={timers.error}
      actions={
        <>
          {importButton}
          {newButton}
          {/* With the actions, which always show: the list does not while there are no timers. */}
          <TimerImportModal channelId={channelId} opened={importOpened} onClose={importer.close} />
        </>
      }
      empty={
        timers.data?.length === 0 ? (
          <PageState
            icon={<IconClock size={28} />}
            title="No timers yet"
            description="Remind chat of your socials, your schedule or the rules every few minutes, or import your Nightbot or StreamElements timers."
            action={
              <Group gap="sm" justify="center">
                {importButton}
                {newButton}
              </Group>
            }
          />
        ) : null
      }
    >
      <Paper withBorder radius="md" style={{ overflowX: 'auto' }}>
        <Table highlightOnHover verticalSpacing="sm" miw={720} aria-label="Timers">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Timer</Table.Th>
              <Table.Th>Every</Table.Th>
              <Table.Th>Chat lines</Table.Th>
              <Table.Th>When</Table.Th>
              <Table.Th>Platforms</Table.Th>
              <Table.Th>Next</Table.Th>
              <Table.Th>Enabled</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {timers.data?.map((t) => (
              <Table.Tr key={t.id}>
                <Table.Td maw={320}>
                  <Anchor component={Link} to={t.id} fw={600} size="sm">
                    {t.name}
                  </Anchor>
                  <Text size="xs" c="dimmed" truncate>
                    {t.messages[0]}
                    {t.messages.length > 1 ? ` (+${t.messages.length - 1})` : ''}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{t.interval_minutes} min</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{t.min_lines}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{t.online_only ? 'While live' : 'Always'}</Text>
                </Table.Td>
                <Table.Td>
                  {t.platforms.length === 0 ? (
                    <Text size="sm" c="dimmed">
                      All
                    </Text>
                  ) : (
                    <Group gap={4}>
                      {t.platforms.map((p) => (
                        <ProviderBadge key={p} provider={p} size="sm" />
                      ))}
                    </Group>
                  )}
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{t.enabled && t.next_run_at ? formatTime(t.next_run_at) : '—'}</Text>
                </Table.Td>
                <Table.Td>
                  <Tooltip label={t.enabled ? 'Turn off' : 'Turn on'}>
                    <Switch
                      checked={t.enabled}
                      aria-label={`${t.name} enabled`}
                      disabled={toggle.isPending && toggle.variables?.id === t.id}
                      onChange={() => toggle.mutate(t)}
                    />
                  </Tooltip>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Paper>
    </ListPage>
  );
}
