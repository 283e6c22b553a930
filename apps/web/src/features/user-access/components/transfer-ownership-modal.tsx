import { Select, Text } from '@mantine/core';
import { AccessLevel, accessLevelLabels } from '@greenroom/contracts/access';
import type { Channel } from '@greenroom/contracts/api/channels';
import { transferOwnershipBodySchema, type StaffMember } from '@greenroom/contracts/api/staff';
import { TypedConfirmModal } from '../../../components/typed-confirm-modal';
import { useFormSubmit, useSchemaForm } from '../../../lib/form';
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
  const transfer = useTransferOwnership(channel.id);
  const form = useSchemaForm(transferOwnershipBodySchema, { initialValues: { user_id: '', confirm_channel_name: '' } });
  const candidates = staff.filter((m) => m.user_id !== currentUserId && m.level >= AccessLevel.MOD && m.level < AccessLevel.OWNER);
  const target = candidates.find((m) => m.user_id === form.values.user_id);
  const close = () => {
    form.reset();
    transfer.reset();
    onClose();
  };
  const submit = useFormSubmit(form, transfer.mutateAsync, {
    onSuccess: (_result, body) => {
      const owner = candidates.find((m) => m.user_id === body.user_id);
      notifySuccess(`${owner?.display_name ?? 'The new Owner'} is now the Owner of ${channel.display_name}`);
      close();
    },
  });

  return (
    <TypedConfirmModal
      opened={opened}
      onClose={close}
      title="Transfer ownership"
      form={form}
      submit={submit}
      field="confirm_channel_name"
      label="Channel name"
      expected={channel.display_name}
      confirmLabel="Transfer ownership"
      ready={target !== undefined}
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
          {...form.getInputProps('user_id')}
          value={form.values.user_id || null}
          onChange={(value: string | null) => form.setFieldValue('user_id', value ?? '')}
          searchable
          comboboxProps={{ withinPortal: true }}
        />
      )}
    </TypedConfirmModal>
  );
}
