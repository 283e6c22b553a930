import { Badge, Button, Group, Modal, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { IconPlus, IconTemplate } from '@tabler/icons-react';
import { accessLevelLabels } from '@greenroom/contracts/access';
import { ErrorAlert } from '../../../components/error-alert';
import { PageState } from '../../../components/page-state';
import { notifySuccess } from '../../../lib/notify';
import { useAddTemplate, useChatCommands, useTemplateGallery } from '../api/chat-commands';

/** The operators' command templates: add any of them to the channel. */
export function TemplateGalleryModal({ channelId, opened, onClose }: { channelId: string; opened: boolean; onClose: () => void }) {
  const templates = useTemplateGallery(channelId, opened);
  const commands = useChatCommands(channelId);
  const add = useAddTemplate(channelId);
  const taken = new Set((commands.data ?? []).flatMap((c) => [c.name, ...c.aliases]));
  return (
    <Modal
      opened={opened}
      onClose={() => {
        add.reset();
        onClose();
      }}
      title="Command templates"
      size="lg"
    >
      <Stack gap="sm">
        {add.error != null && <ErrorAlert error={add.error} />}
        {templates.isError && <ErrorAlert error={templates.error} />}
        {templates.isPending && [0, 1, 2].map((i) => <Skeleton key={i} h={64} />)}
        {templates.data?.length === 0 && (
          <PageState
            icon={<IconTemplate size={28} />}
            title="No templates yet"
            description="Operators add command templates in the admin area."
          />
        )}
        {templates.data?.map((t) => {
          const added = taken.has(t.name);
          return (
            <Paper key={t.id} withBorder radius="md" p="sm" component="article" aria-label={t.name}>
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                <div style={{ minWidth: 0 }}>
                  <Group gap="xs">
                    <Text fw={600} ff="monospace" size="sm">
                      {t.name}
                    </Text>
                    <Badge size="xs" variant="light" color="gray">
                      {accessLevelLabels[t.level]}
                    </Badge>
                  </Group>
                  {t.description && (
                    <Text size="sm" c="dimmed">
                      {t.description}
                    </Text>
                  )}
                  <Text size="xs" c="dimmed" ff="monospace" lineClamp={2}>
                    {t.responses[0]}
                  </Text>
                </div>
                <Button
                  size="xs"
                  variant={added ? 'default' : 'light'}
                  disabled={added}
                  leftSection={added ? undefined : <IconPlus size={14} />}
                  loading={add.isPending && add.variables === t.id}
                  onClick={() => add.mutate(t.id, { onSuccess: (c) => notifySuccess(`${c.name} added`) })}
                >
                  {added ? 'Added' : 'Add'}
                </Button>
              </Group>
            </Paper>
          );
        })}
      </Stack>
    </Modal>
  );
}
