import { Badge, Button, Group, List, Modal, Select, Stack, Table, Text, Textarea } from '@mantine/core';
import { IconFileImport } from '@tabler/icons-react';
import { useState } from 'react';
import { accessLevelLabels } from '@greenroom/contracts/access';
import { importSourceLabels, type ImportResult, type ImportSource } from '@greenroom/contracts/api/chatbot';
import { ErrorAlert } from '../../../components/error-alert';
import { serverFieldErrors } from '../../../lib/form';
import { notifySuccess } from '../../../lib/notify';
import { useImportChatCommands } from '../api/chat-commands';

const statusColor = { ok: 'green', partial: 'yellow', skipped: 'gray' } as const;
const statusLabel = { ok: 'Maps', partial: 'Maps with notes', skipped: 'Not imported' } as const;

/**
 * Import a Nightbot or StreamElements command export: paste the JSON the bot's API gives, see what maps and
 * what does not, then import.
 */
export function ImportModal({ channelId, opened, onClose }: { channelId: string; opened: boolean; onClose: () => void }) {
  const importer = useImportChatCommands(channelId);
  const [data, setData] = useState('');
  const [source, setSource] = useState<ImportSource | null>(null);
  const [preview, setPreview] = useState<ImportResult | null>(null);
  const fieldError = serverFieldErrors(importer.error)?.data;
  const close = () => {
    importer.reset();
    setPreview(null);
    setData('');
    onClose();
  };
  const run = (apply: boolean) =>
    importer.mutate(
      { data, apply, ...(source ? { source } : {}) },
      {
        onSuccess: (result) => {
          if (!apply) return setPreview(result);
          notifySuccess(`${result.saved} ${result.saved === 1 ? 'command' : 'commands'} imported`);
          setPreview(result);
        },
      },
    );
  const importable = preview?.items.filter((i) => i.status !== 'skipped').length ?? 0;
  const applied = preview?.items.some((i) => i.saved || i.error);

  return (
    <Modal opened={opened} onClose={close} title="Import commands" size="xl">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Paste the JSON of your Nightbot commands (api.nightbot.tv/1/commands) or StreamElements commands
          (api.streamelements.com/kappa/v2/bot/commands/&lt;channel&gt;). Nothing is saved until you import.
        </Text>
        <Group align="flex-end" gap="sm">
          <Select
            label="From"
            w={200}
            placeholder="Detect"
            clearable
            data={(Object.keys(importSourceLabels) as ImportSource[]).map((s) => ({ value: s, label: importSourceLabels[s] }))}
            value={source}
            onChange={(v) => setSource(v)}
          />
        </Group>
        <Textarea
          label="Export"
          autosize
          minRows={4}
          maxRows={10}
          ff="monospace"
          value={data}
          error={fieldError}
          onChange={(e) => {
            setData(e.currentTarget.value);
            setPreview(null);
          }}
        />
        {importer.error != null && !fieldError && <ErrorAlert error={importer.error} />}
        {preview && (
          <div style={{ overflowX: 'auto' }}>
            <Text size="sm" mb={4}>
              {importSourceLabels[preview.source]}: {importable} of {preview.items.length} can be imported.
            </Text>
            <Table verticalSpacing="xs" miw={640} aria-label="Import preview">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Command</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Who</Table.Th>
                  <Table.Th>Response and notes</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {preview.items.map((i, n) => (
                  <Table.Tr key={`${i.source_name}-${n}`}>
                    <Table.Td ff="monospace">
                      <Text size="sm" ff="monospace">
                        {i.name ?? i.source_name}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Badge size="sm" variant="light" color={i.error ? 'red' : i.saved ? 'green' : statusColor[i.status]}>
                        {i.error ? 'Not saved' : i.saved ? 'Imported' : statusLabel[i.status]}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{i.level !== null ? accessLevelLabels[i.level] : '—'}</Text>
                    </Table.Td>
                    <Table.Td maw={360}>
                      {i.responses[0] && (
                        <Text size="xs" ff="monospace" lineClamp={2}>
                          {i.responses[0]}
                        </Text>
                      )}
                      {(i.notes.length > 0 || i.error) && (
                        <List size="xs" c="dimmed">
                          {i.error && <List.Item c="red.4">{i.error}</List.Item>}
                          {i.notes.map((note) => (
                            <List.Item key={note}>{note}</List.Item>
                          ))}
                        </List>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </div>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={close}>
            {applied ? 'Close' : 'Cancel'}
          </Button>
          {!preview || applied ? (
            <Button onClick={() => run(false)} loading={importer.isPending} disabled={!data.trim() || Boolean(applied)}>
              Preview
            </Button>
          ) : (
            <Button
              leftSection={<IconFileImport size={16} />}
              onClick={() => run(true)}
              loading={importer.isPending}
              disabled={importable === 0}
            >
              Import {importable} {importable === 1 ? 'command' : 'commands'}
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
