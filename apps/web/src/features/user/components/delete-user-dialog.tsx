import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { ErrorAlert } from '../../../components/error-alert';
import { clearAccessToken } from '../../../lib/auth-token';
import { notifySuccess } from '../../../lib/notify';
import { useDeleteUser } from '../api/delete-user';
import { useUser } from '../api/get-user';

export const ACCOUNT_DELETED_MESSAGE = 'Your user account has been deleted successfully, bye!';

/** Delete dialog (spec §2, §4): type your display name, then the red "Delete user profile" button. */
export function DeleteUserDialog({ opened, onClose, onDeleted }: { opened: boolean; onClose: () => void; onDeleted: () => void }) {
  const user = useUser();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [typed, setTyped] = useState('');
  const displayName = user.data?.display_name ?? '';
  const remove = useDeleteUser({
    onSuccess: () => {
      notifySuccess(ACCOUNT_DELETED_MESSAGE);
      clearAccessToken();
      onDeleted();
      void Promise.resolve(navigate('/', { replace: true })).then(() => queryClient.clear());
    },
  });
  const matches = typed.trim() === displayName && displayName !== '';

  const close = () => {
    setTyped('');
    remove.reset();
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (matches) remove.mutate(typed.trim());
  };

  return (
    <Modal opened={opened} onClose={close} title="Delete user profile" centered>
      <form onSubmit={submit}>
        <Stack gap="sm">
          <Text size="sm">Are you sure you want to delete your user account?</Text>
          <Text size="sm" c="red.4" fw={500}>
            This is an irreversible action, please be sure.
          </Text>
          <TextInput
            label="Display name"
            description={
              <>
                Type <b>{displayName}</b> to confirm.
              </>
            }
            value={typed}
            onChange={(event) => setTyped(event.currentTarget.value)}
            autoComplete="off"
            spellCheck={false}
            data-autofocus
          />
          {remove.isError && <ErrorAlert error={remove.error} />}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" color="red" disabled={!matches} loading={remove.isPending}>
              Delete user profile
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
