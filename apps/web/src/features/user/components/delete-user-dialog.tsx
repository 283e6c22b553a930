import { Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { deleteUserQuerySchema } from '@greenroom/contracts/api/user';
import { TypedConfirmModal } from '../../../components/typed-confirm-modal';
import { clearAccessToken } from '../../../lib/auth-token';
import { useFormSubmit, useSchemaForm } from '../../../lib/form';
import { notifySuccess } from '../../../lib/notify';
import { useDeleteUser } from '../api/delete-user';
import { useUser } from '../api/get-user';
import { LEAVE_WITHOUT_ASKING } from '../../../components/unsaved-changes';

export const ACCOUNT_DELETED_MESSAGE = 'Your user account has been deleted successfully, bye!';

/** Delete dialog: type your display name, then the red "Delete user profile" button. */
export function DeleteUserDialog({ opened, onClose, onDeleted }: { opened: boolean; onClose: () => void; onDeleted: () => void }) {
  const user = useUser();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const remove = useDeleteUser();
  const form = useSchemaForm(deleteUserQuerySchema, { initialValues: { username: '' } });
  const submit = useFormSubmit(form, ({ username }) => remove.mutateAsync(username), {
    onSuccess: () => {
      notifySuccess(ACCOUNT_DELETED_MESSAGE);
      clearAccessToken();
      onDeleted();
      void Promise.resolve(navigate('/', { replace: true, state: LEAVE_WITHOUT_ASKING })).then(() => queryClient.clear());
    },
  });

  return (
    <TypedConfirmModal
      opened={opened}
      onClose={onClose}
      title="Delete user profile"
      form={form}
      submit={submit}
      field="username"
      label="Display name"
      expected={user.data?.display_name ?? ''}
      confirmLabel="Delete user profile"
      requireMatch={false}
    >
      <Text size="sm">Are you sure you want to delete your user account?</Text>
      <Text size="sm" c="red.4" fw={500}>
        This is an irreversible action, please be sure.
      </Text>
    </TypedConfirmModal>
  );
}
