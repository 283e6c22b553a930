import { Anchor, Badge, Button, Group, Paper, Switch, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconFileImport, IconHistory, IconPlus, IconSearch, IconTemplate, IconTerminal2 } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { accessLevelLabels } from '@greenroom/contracts/access';
import type { ChatCommand } from '@greenroom/contracts/api/chatbot';
import { PageState } from '../../../components/page-state';
import { ProviderBadge } from '../../../components/provider-badge';
import { useChatCommands, useToggleChatCommand } from '../api/chat-commands';
import { ConfigModal } from './config-modal';
import { ImportModal } from './import-modal';
import { ListPage } from './list-page';
import { TemplateGalleryModal } from './template-gallery-modal';

function cooldowns(c: ChatCommand): string {
  const parts: string[] = [];
  if (c.global_cooldown_seconds) parts.push(`${c.global_cooldown_seconds} s`);
  if (c.user_cooldown_seconds) parts.push(`${c.user_cooldown_seconds} s per viewer`);
  return parts.join(' · ') || 'None';
}

/** `/channels/{id}/chat-commands` (Editor): every command, with the template gallery and the import. */
export function CommandsPage({ channelId, channelName }: { channelId: string; channelName: string }) {
  const commands = useChatCommands(channelId);
  const toggle = useToggleChatCommand(channelId);
  const [search, setSearch] = useState('');
  const [galleryOpened, gallery] = useDisclosure(false);
  const [importOpened, importer] = useDisclosure(false);
  const [configOpened, config] = useDisclosure(false);
  const shown = useMemo(() => {
    const q = search.trim().toLowerCase();
    const list = commands.data ?? [];
    return q ? list.filter((c) => [c.name, ...c.aliases, ...c.responses].some((t) => t.toLowerCase().includes(q))) : list;
  }, [commands.data, search]);

  return (
    <ListPage
      title="Chat Commands"
      description="One set of commands for every connected platform: each answers on the platform where it was typed."
      loading={commands.isPending}
      error={commands.error}
      actions={
        <>
          <Button variant="default" leftSection={<IconTemplate size={16} />} onClick={gallery.open}>
            Templates
          </Button>
          <Button variant="default" leftSection={<IconFileImport size={16} />} onClick={importer.open}>
            Import
          </Button>
          <Button variant="default" leftSection={<IconHistory size={16} />} onClick={config.open}>
            Backup and versions
          </Button>
          <Button component={Link} to="new" leftSection={<IconPlus size={16} />}>
            New command
          </Button>
        </>
      }
      empty={
        commands.data?.length === 0 ? (
          <PageState
            icon={<IconTerminal2 size={28} />}
            title="No commands yet"
            description="Add a command, pick one from the templates or import your Nightbot or StreamElements commands."
            action={
              <Button component={Link} to="new" leftSection={<IconPlus size={16} />}>
                New command
              </Button>
            }
          />
        ) : null
      }
    >
      <TextInput
        maw={360}
        placeholder="Search..."
        aria-label="Search commands"
        leftSection={<IconSearch size={16} />}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
      />
      <Paper withBorder radius="md" style={{ overflowX: 'auto' }}>
        <Table highlightOnHover verticalSpacing="sm" miw={760} aria-label="Commands">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Command</Table.Th>
              <Table.Th>Response</Table.Th>
              <Table.Th>Who</Table.Th>
              <Table.Th>Cooldown</Table.Th>
              <Table.Th>Platforms</Table.Th>
              <Table.Th ta="right">Uses</Table.Th>
              <Table.Th>Enabled</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((c) => (
              <Table.Tr key={c.id}>
                <Table.Td>
                  <Anchor component={Link} to={c.id} fw={600} size="sm" ff="monospace">
                    {c.name}
                  </Anchor>
                  {c.aliases.length > 0 && (
                    <Text size="xs" c="dimmed" ff="monospace">
                      {c.aliases.join(' ')}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td maw={380}>
                  {c.builtin ? (
                    <Group gap={6} wrap="nowrap">
                      <Badge size="sm" variant="light" color="gray" style={{ flexShrink: 0 }}>
                        Built in
                      </Badge>
                      <Text size="sm" c="dimmed" truncate>
                        {c.description}
                      </Text>
                    </Group>
                  ) : (
                    <Text size="sm" truncate title={c.responses.join('\n')}>
                      {c.responses[0]}
                      {c.responses.length > 1 && (
                        <Text span c="dimmed" size="xs">
                          {' '}
                          +{c.responses.length - 1}
                        </Text>
                      )}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{accessLevelLabels[c.level]}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{cooldowns(c)}</Text>
                </Table.Td>
                <Table.Td>
                  {c.platforms.length === 0 ? (
                    <Text size="sm" c="dimmed">
                      All
                    </Text>
                  ) : (
                    <Group gap={4}>
                      {c.platforms.map((p) => (
                        <ProviderBadge key={p} provider={p} size="sm" />
                      ))}
                    </Group>
                  )}
                </Table.Td>
                <Table.Td ta="right">
                  <Text size="sm">{c.use_count.toLocaleString('en-US')}</Text>
                </Table.Td>
                <Table.Td>
                  <Tooltip label={c.enabled ? 'Turn off' : 'Turn on'}>
                    <Switch
                      checked={c.enabled}
                      aria-label={`${c.name} enabled`}
                      disabled={toggle.isPending && toggle.variables?.id === c.id}
                      onChange={() => toggle.mutate(c)}
                    />
                  </Tooltip>
                </Table.Td>
              </Table.Tr>
            ))}
            {shown.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={7}>
                  <Text size="sm" c="dimmed" ta="center" py="md">
                    No command matches “{search}”.
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
          </Table.Tbody>
        </Table>
      </Paper>
      <TemplateGalleryModal channelId={channelId} opened={galleryOpened} onClose={gallery.close} />
      <ImportModal channelId={channelId} opened={importOpened} onClose={importer.close} />
      <ConfigModal channelId={channelId} channelName={channelName} opened={configOpened} onClose={config.close} />
    </ListPage>
  );
}
