import { Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { AccessLevel, accessLevelLabels } from '@greenroom/contracts/access';
import type { Channel } from '@greenroom/contracts/api/channels';
import type { StaffMember } from '@greenroom/contracts/api/staff';
import { ErrorAlert } from '../../../components/error-alert';
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
  const [typed, setTyped] = useState('');
  const transfer = useTransferOwnership(channel.id);
  const candidates = staff.filter((m) => m.user_id !== currentUserId && m.level >= AccessLevel.MOD && m.level < AccessLevel.OWNER);
  const target = candidates.find((m) => m.user_id === userId);
  const matches = typed.trim() === channel.display_name;

  const close = () => {
    setUserId(null);
    setTyped('');
    transfer.reset();
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!target || !matches) return;
    transfer.mutate(
      { user_id: target.user_id, confirm_channel_name: typed.trim() },
      {
        onSuccess: () => {
          notifySuccess(`${target.display_name} is now the Owner of ${channel.display_name}`);
          close();
        },
      },
    );
  };

  return (
    <Modal opened={opened} onClose={close} title="Transfer ownership" centered>
      <form onSubmit={submit}>
        <Stack gap="sm">
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
          <TextInput
            label="Channel name"
            description={
              <>
                Type <b>{channel.display_name}</b> to confirm.
              </>
            }
            value={typed}
            onChange={(event) => setTyped(event.currentTarget.value)}
            autoComplete="off"
            spellCheck={false}
          />
          {transfer.isError && <ErrorAlert error={transfer.error} />}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" color="red" disabled={!target || !matches} loading={transfer.isPending}>
              Transfer ownership
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
