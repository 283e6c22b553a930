import { Divider, Modal, Stack, Title } from '@mantine/core';
import { ConnectionsList } from './connections-list';
import { DangerZone } from './danger-zone';

/** Settings modal: the Connections list and the Danger Zone. */
export function SettingsModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Settings" size="lg" fullScreen={false} centered>
      <Stack gap="lg">
        <section aria-labelledby="settings-connections">
          <Title order={3} size="h5" id="settings-connections" mb="xs">
            Connections
          </Title>
          <ConnectionsList />
        </section>
        <Divider />
        <section aria-labelledby="settings-danger-zone">
          <Title order={3} size="h5" id="settings-danger-zone" mb="xs" c="red.4">
            Danger Zone
          </Title>
          <DangerZone onDeleted={onClose} />
        </section>
      </Stack>
    </Modal>
  );
}
