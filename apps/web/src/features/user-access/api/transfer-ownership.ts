import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TransferOwnershipBody } from '@greenroom/contracts/api/staff';
import { api } from '../../../lib/api-client';

export function transferOwnership(channelId: string, body: TransferOwnershipBody): Promise<void> {
  return api.post(`/api/2/channels/${encodeURIComponent(channelId)}/transfer-ownership`, body);
}

/** Hands the channel to another staff member; the caller becomes Admin, so the channel and its lists reload. */
export function useTransferOwnership(channelId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TransferOwnershipBody) => transferOwnership(channelId, body),
    // The dialog shows the error itself.
    meta: { errorToast: false },
    // The caller's own level changed: everything about channels (detail, list, staff) reloads. Not awaited, so the
    // dialog's own success handling runs before the page re-renders for the new (Admin) level.
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['channels'] });
    },
  });
}
