import { Anchor, Badge, Button, Paper, Table, Text } from '@mantine/core';
import { IconPlus, IconTemplate } from '@tabler/icons-react';
import { Link } from 'react-router';
import { accessLevelLabels } from '@greenroom/contracts/access';
import { PageState } from '../../../components/page-state';
import { useCommandTemplates } from '../api/command-templates';
import { ListPage } from './list-page';

/** `/admin/command-templates` (operators). */
export function TemplatesPage() {
  const templates = useCommandTemplates();
  const newButton = (
    <Button component={Link} to="new" leftSection={<IconPlus size={16} />}>
      New template
    </Button>
  );
  return (
    <ListPage
      title="Command Templates"
      description="Commands offered to every channel: enabled templates are added to new channels, and any template can be added from a channel's Chat Commands page."
      loading={templates.isPending}
      error={templates.error}
      actions={newButton}
      empty={
        templates.data?.length === 0 ? (
          <PageState
            icon={<IconTemplate size={28} />}
            title="No templates yet"
            description="Define a command once for every channel."
            action={newButton}
          />
        ) : null
      }
    >
      <Paper withBorder radius="md" style={{ overflowX: 'auto' }}>
        <Table highlightOnHover verticalSpacing="sm" miw={640} aria-label="Command templates">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Template</Table.Th>
              <Table.Th>Response</Table.Th>
              <Table.Th>Who</Table.Th>
              <Table.Th>New channels</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {templates.data?.map((t) => (
              <Table.Tr key={t.id}>
                <Table.Td>
                  <Anchor component={Link} to={t.id} fw={600} size="sm" ff="monospace">
                    {t.name}
                  </Anchor>
                  {t.description && (
                    <Text size="xs" c="dimmed">
                      {t.description}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td maw={380}>
                  <Text size="sm" truncate>
                    {t.responses[0]}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{accessLevelLabels[t.level]}</Text>
                </Table.Td>
                <Table.Td>
                  <Badge variant="light" color={t.enabled ? 'green' : 'gray'} size="sm">
                    {t.enabled ? 'Added' : 'Gallery only'}
                  </Badge>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Paper>
    </ListPage>
  );
}
