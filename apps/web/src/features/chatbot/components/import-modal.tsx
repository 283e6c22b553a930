import { Badge, Button, Checkbox, FileButton, Group, List, Modal, Paper, Select, Stack, Table, Text, Textarea } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { UseMutationResult } from '@tanstack/react-query';
import { IconFileImport, IconUpload } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { accessLevelLabels } from '@greenroom/contracts/access';
import { importSourceLabels, type ImportBody, type ImportItem, type ImportSource } from '@greenroom/contracts/api/chatbot';
import { ErrorAlert } from '../../../components/error-alert';
import { serverFieldErrors } from '../../../lib/form';
import { notifySuccess } from '../../../lib/notify';
import { useImportChatCommands } from '../api/chat-commands';

const statusColor = { ok: 'green', partial: 'yellow', skipped: 'gray' } as const;
const statusLabel = { ok: 'Maps', partial: 'Maps with notes', skipped: 'Not imported' } as const;

/** What every import preview line has (commands, timers). */
export interface ImportLine {
  source_name: string;
  status: 'ok' | 'partial' | 'skipped';
  name: string | null;
  notes: string[];
  saved: boolean;
  error: string | null;
}

export interface ImportPreview<T extends ImportLine> {
  source: ImportSource;
  items: T[];
  saved: number;
}

interface ExportImportModalProps<T extends ImportLine> {
  opened: boolean;
  onClose: () => void;
  title: string;
  /** What is imported: `{ one: 'timer', many: 'timers' }`. */
  noun: { one: string; many: string };
  /** Where the export comes from (the bots' API addresses). */
  help: ReactNode;
  importer: UseMutationResult<ImportPreview<T>, Error, ImportBody>;
  /** Header of the first column (the name). */
  nameHeader: string;
  /** Columns between the status and the details. */
  columns: { header: string; cell: (item: T) => ReactNode }[];
  /** Header and content of the last column, above the notes. */
  detailHeader: string;
  detail: (item: T) => ReactNode;
  /** The table's least width before it scrolls sideways. */
  minWidth: number;
}

const plural = (n: number, noun: { one: string; many: string }) => `${n} ${n === 1 ? noun.one : noun.many}`;

/** The errors of single preview lines in a refused import (`items.3.name` → line 3). */
function lineErrors(fields: Record<string, string> | null): Map<number, string> {
  const out = new Map<number, string>();
  for (const [key, message] of Object.entries(fields ?? {})) {
    const m = /^items\.(\d+)(?:\.|$)/.exec(key);
    if (m) out.set(Number(m[1]), message);
  }
  return out;
}

/**
 * Importing a Nightbot or StreamElements export (commands, timers): paste or upload the JSON the bot's API gives, see
 * what maps and what does not (and why), choose the lines, then import. Nothing is saved before.
 */
export function ExportImportModal<T extends ImportLine>(props: ExportImportModalProps<T>) {
  const { opened, onClose, title, noun, help, importer, nameHeader, columns, detailHeader, detail, minWidth } = props;
  const narrow = useMediaQuery('(max-width: 48em)');
  const [data, setData] = useState('');
  const [source, setSource] = useState<ImportSource | null>(null);
  const [preview, setPreview] = useState<ImportPreview<T> | null>(null);
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  const fields = serverFieldErrors(importer.error);
  const fieldError = fields?.data;
  const errorsByLine = lineErrors(fields);
  const edited = (text: string) => {
    setData(text);
    setPreview(null);
    importer.reset();
  };
  const close = () => {
    importer.reset();
    setPreview(null);
    setData('');
    onClose();
  };
  const importable = preview?.items.flatMap((item, n) => (item.status !== 'skipped' ? [n] : [])) ?? [];
  const applied = preview?.items.some((i) => i.saved || i.error);
  const run = (apply: boolean) =>
    importer.mutate(
      { data, apply, ...(source ? { source } : {}), ...(apply ? { only: [...chosen].sort((a, b) => a - b) } : {}) },
      {
        onSuccess: (result) => {
          if (!apply) setChosen(new Set(result.items.flatMap((item, n) => (item.status !== 'skipped' ? [n] : []))));
          else notifySuccess(`${plural(result.saved, noun)} imported`);
          setPreview(result);
        },
      },
    );
  const toggle = (n: number) =>
    setChosen((before) => {
      const next = new Set(before);
      if (!next.delete(n)) next.add(n);
      return next;
    });
  const allChosen = importable.length > 0 && importable.every((n) => chosen.has(n));
  const chooseAll = (
    <Checkbox
      aria-label="Choose all"
      label={narrow ? 'Choose all' : undefined}
      checked={allChosen}
      indeterminate={!allChosen && importable.some((n) => chosen.has(n))}
      disabled={importable.length === 0 || Boolean(applied)}
      onChange={() => setChosen(new Set(allChosen ? [] : importable))}
    />
  );
  /** What a preview line shows in either layout. */
  const lineParts = (i: T, n: number) => {
    const error = i.error ?? errorsByLine.get(n) ?? null;
    const label = i.name ?? i.source_name;
    return {
      checkbox: (
        <Checkbox
          aria-label={`Import ${label}`}
          checked={chosen.has(n)}
          disabled={i.status === 'skipped' || Boolean(applied)}
          onChange={() => toggle(n)}
        />
      ),
      name: (
        <Text size="sm" ff="monospace" fw={500} style={{ overflowWrap: 'break-word', minWidth: 0 }}>
          {label}
        </Text>
      ),
      badge: (
        <Badge
          size="sm"
          variant="light"
          color={error ? 'red' : i.saved ? 'green' : statusColor[i.status]}
          style={{ flexShrink: 0, minWidth: 'max-content' }}
        >
          {error ? 'Not saved' : i.saved ? 'Imported' : statusLabel[i.status]}
        </Badge>
      ),
      details: (
        <>
          {detail(i)}
          {(i.notes.length > 0 || error) && (
            <List size="xs" c="dimmed">
              {error && <List.Item c="red.4">{error}</List.Item>}
              {i.notes.map((note) => (
                <List.Item key={note}>{note}</List.Item>
              ))}
            </List>
          )}
        </>
      ),
    };
  };

  return (
    <Modal opened={opened} onClose={close} title={title} size="xl" fullScreen={narrow === true}>
      <Stack gap="sm">
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {help} Nothing is saved until you import.
        </Text>
        <Group align="flex-end" gap="sm" wrap="wrap">
          <Select
            label="From"
            w={200}
            placeholder="Detect"
            clearable
            data={(Object.keys(importSourceLabels) as ImportSource[]).map((s) => ({ value: s, label: importSourceLabels[s] }))}
            value={source}
            onChange={(v) => setSource(v)}
          />
          <FileButton accept="application/json,.json,.txt" onChange={(file) => void file?.text().then(edited)}>
            {(buttonProps) => (
              <Button variant="default" leftSection={<IconUpload size={16} />} {...buttonProps}>
                Choose file
              </Button>
            )}
          </FileButton>
        </Group>
        <Textarea
          label="Export"
          description="Or paste it here"
          autosize
          minRows={4}
          maxRows={10}
          ff="monospace"
          value={data}
          error={fieldError}
          onChange={(e) => edited(e.currentTarget.value)}
        />
        {importer.error != null && !fieldError && <ErrorAlert error={importer.error} />}
        {preview && (
          <div style={{ overflowX: 'auto' }}>
            <Text size="sm" mb={4}>
              {importSourceLabels[preview.source]}: {importable.length} of {preview.items.length} can be imported.
            </Text>
            {narrow ? (
              // On a phone, one card a line: the reasons stay in view instead of off to the side of a wide table.
              <Stack gap="xs" role="list" aria-label="Import preview">
                {chooseAll}
                {preview.items.map((i, n) => {
                  const line = lineParts(i, n);
                  return (
                    <Paper key={`${i.source_name}-${n}`} withBorder radius="sm" p="xs" role="listitem">
                      <Group gap="xs" wrap="nowrap" align="flex-start">
                        {line.checkbox}
                        <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
                          <Group gap="xs" justify="space-between" wrap="nowrap">
                            {line.name}
                            {line.badge}
                          </Group>
                          {i.status !== 'skipped' && (
                            <Group gap="md" wrap="wrap">
                              {columns.map((c) => (
                                <Group key={c.header} gap={4} wrap="nowrap">
                                  <Text size="xs" c="dimmed">
                                    {c.header}
                                  </Text>
                                  {c.cell(i)}
                                </Group>
                              ))}
                            </Group>
                          )}
                          {line.details}
                        </Stack>
                      </Group>
                    </Paper>
                  );
                })}
              </Stack>
            ) : (
              <Table verticalSpacing="xs" miw={minWidth} aria-label="Import preview">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th w={36}>{chooseAll}</Table.Th>
                    <Table.Th>{nameHeader}</Table.Th>
                    <Table.Th>Status</Table.Th>
                    {columns.map((c) => (
                      <Table.Th key={c.header}>{c.header}</Table.Th>
                    ))}
                    <Table.Th>{detailHeader}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {preview.items.map((i, n) => {
                    const line = lineParts(i, n);
                    return (
                      <Table.Tr key={`${i.source_name}-${n}`}>
                        <Table.Td>{line.checkbox}</Table.Td>
                        <Table.Td>{line.name}</Table.Td>
                        <Table.Td>{line.badge}</Table.Td>
                        {columns.map((c) => (
                          <Table.Td key={c.header} style={{ whiteSpace: 'nowrap' }}>
                            {c.cell(i)}
                          </Table.Td>
                        ))}
                        <Table.Td maw={360}>{line.details}</Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            )}
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
              disabled={chosen.size === 0}
            >
              Import {plural(chosen.size, noun)}
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}

/** Import a Nightbot or StreamElements command export. */
export function ImportModal({ channelId, opened, onClose }: { channelId: string; opened: boolean; onClose: () => void }) {
  const importer = useImportChatCommands(channelId);
  return (
    <ExportImportModal<ImportItem>
      opened={opened}
      onClose={onClose}
      title="Import commands"
      noun={{ one: 'command', many: 'commands' }}
      help={
        <>
          Paste the JSON of your Nightbot commands (api.nightbot.tv/1/commands) or StreamElements commands
          (api.streamelements.com/kappa/v2/bot/commands/&lt;channel&gt;).
        </>
      }
      importer={importer}
      nameHeader="Command"
      columns={[{ header: 'Who', cell: (i) => <Text size="sm">{i.level !== null ? accessLevelLabels[i.level] : '—'}</Text> }]}
      detailHeader="Response and notes"
      detail={(i) =>
        i.responses[0] && (
          <Text size="xs" ff="monospace" lineClamp={2}>
            {i.responses[0]}
          </Text>
        )
      }
      minWidth={680}
    />
  );
}
