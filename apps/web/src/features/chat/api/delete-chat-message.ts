import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { moderationBase, type ModerationTarget } from './ban-viewer';

/** Deletes one chat message on its platform. */
export function deleteChatMessage(target: ModerationTarget, providerMessageId: string): Promise<void> {
  return api.delete(`${moderationBase(target)}/chat-messages/${encodeURIComponent(providerMessageId)}`);
}

export function useDeleteChatMessage() {
  return useMutation({
    mutationFn: ({ target, providerMessageId }: { target: ModerationTarget; providerMessageId: string }) =>
      deleteChatMessage(target, providerMessageId),
    meta: { errorToast: false }, // useModeration shows the error once
  });
}
