import { Button, Group, Paper, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { DeleteUserDialog } from './delete-user-dialog';

/** Danger Zone of the settings modal. */
export function DangerZone({ onDeleted }: { onDeleted?: () => void }) {
  const [opened, dialog] = useDisclosure(false);
  return (
    <Paper withBorder radius="md" p="sm" style={{ borderColor: 'var(--mantine-color-red-9)' }}>
      <Group justify="space-between" gap="sm">
        <div>
          <Text fw={600} size="sm">
            Delete user profile
          </Text>
          <Text size="xs" c="dimmed">
            There is no going back after this.
          </Text>
        </div>
        <Button color="red" variant="light" size="xs" onClick={dialog.open}>
          Delete user profile
        </Button>
      </Group>
      <DeleteUserDialog
        opened={opened}
        onClose={dialog.close}
        onDeleted={() => {
          dialog.close();
          onDeleted?.();
        }}
      />
    </Paper>
  );
}
