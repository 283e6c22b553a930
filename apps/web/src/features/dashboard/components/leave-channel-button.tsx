import { Button, Group, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconDoorExit } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import type { Channel } from '@greenroom/contracts/api/channels';
import { notifySuccess } from '../../../lib/notify';
import { useLeaveChannel } from '../../../api/leave-channel';
import { LEAVE_WITHOUT_ASKING } from '../../../components/unsaved-changes';

/** Gives up one's own staff role (everyone but the Owner), after a confirmation. */
export function LeaveChannelButton({ channel }: { channel: Channel }) {
  const navigate = useNavigate();
  const leave = useLeaveChannel(channel.id);
  const confirm = () =>
    modals.openConfirmModal({
      title: `Leave ${channel.display_name}?`,
      children: <Text size="sm">You lose your access to this channel until someone invites you again.</Text>,
      labels: { confirm: 'Leave', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      centered: true,
      onConfirm: () =>
        leave.mutate(undefined, {
          onSuccess: () => {
            notifySuccess(`You left ${channel.display_name}`);
            void navigate('/channels', { replace: true, state: LEAVE_WITHOUT_ASKING });
          },
        }),
    });
  return (
    <Group justify="flex-end" mt="md">
      <Button variant="subtle" color="red" size="xs" leftSection={<IconDoorExit size={14} />} loading={leave.isPending} onClick={confirm}>
        Leave channel
      </Button>
    </Group>
  );
}
