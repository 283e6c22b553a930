import { Select, Text } from '@mantine/core';
import { useState } from 'react';
import { AccessLevel, accessLevelLabels } from '@greenroom/contracts/access';
import type { Channel } from '@greenroom/contracts/api/channels';
import type { StaffMember } from '@greenroom/contracts/api/staff';
import { TypedConfirmModal } from '../../../components/typed-confirm-modal';
import { notifySuccess } from '../../../lib/notify';
import { useTransferOwnership } from '../api/transfer-ownership';

interface TransferOwnershipModalProps {
  channel: Channel;
  staff: StaffMember[];
  currentUserId: string;
  opened: boolean;
  onClose: () => void;
}

/** Owner only: hand the channel to another staff member, confirmed by typing the channel name. The Owner becomes Admin. */
export function TransferOwnershipModal({ channel, staff, currentUserId, opened, onClose }: TransferOwnershipModalProps) {
  const [userId, setUserId] = useState<string | null>(null);
  const transfer = useTransferOwnership(channel.id);
  const candidates = staff.filter((m) => m.user_id !== currentUserId && m.level >= AccessLevel.MOD && m.level < AccessLevel.OWNER);
  const target = candidates.find((m) => m.user_id === userId);

  const close = () => {
    setUserId(null);
    transfer.reset();
    onClose();
  };
  const confirm = (typed: string) => {
    if (!target) return;
    transfer.mutate(
      { user_id: target.user_id, confirm_channel_name: typed },
      {
        onSuccess: () => {
          notifySuccess(`${target.display_name} is now the Owner of ${channel.display_name}`);
          close();
        },
      },
    );
  };

  return (
    <TypedConfirmModal
      opened={opened}
      onClose={close}
      title="Transfer ownership"
      label="Channel name"
      expected={channel.display_name}
      confirmLabel="Transfer ownership"
      ready={target !== undefined}
      pending={transfer.isPending}
      error={transfer.error}
      onConfirm={confirm}
    >
      <Text size="sm">The new Owner gets full control of {channel.display_name}. You stay on the staff as Admin.</Text>
      {candidates.length === 0 ? (
        <Text size="sm" c="dimmed">
          Invite someone to the staff first: ownership can only go to a staff member.
        </Text>
      ) : (
        <Select
          label="New owner"
          placeholder="Pick a staff member"
          data={candidates.map((m) => ({ value: m.user_id, label: `${m.display_name} (${accessLevelLabels[m.level]})` }))}
          value={userId}
          onChange={setUserId}
          searchable
          comboboxProps={{ withinPortal: true }}
        />
      )}
    </TypedConfirmModal>
  );
}
