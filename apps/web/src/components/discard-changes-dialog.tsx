import { Button, Group, Modal, Stack, Text } from '@mantine/core';

/** The unsaved-changes guard's question (its own chunk: every page has the guard, few ever ask). */
export function DiscardChangesDialog({ opened, onStay, onDiscard }: { opened: boolean; onStay: () => void; onDiscard: () => void }) {
  return (
    <Modal opened={opened} onClose={onStay} title="Discard unsaved changes?" centered>
      <Stack gap="md">
        <Text size="sm">You have changes on this page that are not saved. Leave the page and lose them?</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onStay} data-autofocus>
            Stay on this page
          </Button>
          <Button color="red" onClick={onDiscard}>
            Discard changes
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
