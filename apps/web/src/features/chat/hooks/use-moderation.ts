import { useCallback, useMemo } from 'react';
import type { ModerationEvent } from '@greenroom/contracts/api/events';
import { duration } from '../../../lib/format';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useBanViewer, type ModerationTarget } from '../api/ban-viewer';
import { useDeleteChatMessage } from '../api/delete-chat-message';
import { useUnbanViewer } from '../api/unban-viewer';

/** Success toast texts of the moderation actions. */
export const timeoutToast = (seconds: number) => `User timed out for ${duration(seconds)}`;
export const BAN_TOAST = 'User banned successfully';
export const UNBAN_TOAST = 'User unbanned successfully';
export const DELETE_TOAST = 'Message deleted successfully';

function localEvent(target: ModerationTarget, kind: ModerationEvent['kind'], extra: Partial<ModerationEvent> = {}): ModerationEvent {
  return {
    id: `local:${kind}:${target.provider}:${target.providerViewerId}:${Date.now()}`,
    channel_id: target.channelId,
    channel_provider_id: target.channelProviderId,
    provider: target.provider,
    kind,
    target: { provider_user_id: target.providerViewerId, display_name: target.displayName },
    provider_message_id: null,
    duration_seconds: null,
    reason: null,
    moderator: null,
    source: 'greenroom',
    occurred_at: new Date().toISOString(),
    ...extra,
  };
}

/**
 * Timeout, ban, unban and delete with the toasts (green on success, red with the server's
 * message on failure). `onApplied` gets the action as a moderation event, so a view can show it at once.
 */
export function useModeration(onApplied?: (event: ModerationEvent) => void) {
  const { mutateAsync: banAsync, isPending: banning } = useBanViewer();
  const { mutateAsync: unbanAsync, isPending: unbanning } = useUnbanViewer();
  const { mutateAsync: removeAsync, isPending: removing } = useDeleteChatMessage();

  /** Times out with the success toast; a failure is thrown (the custom-timeout form shows it). */
  const timeoutOrThrow = useCallback(
    async (target: ModerationTarget, seconds: number, reason?: string) => {
      await banAsync({ target, durationSeconds: seconds, reason });
      notifySuccess(timeoutToast(seconds));
      onApplied?.(localEvent(target, 'timeout', { duration_seconds: seconds, reason: reason ?? null }));
    },
    [banAsync, onApplied],
  );

  const timeout = useCallback(
    async (target: ModerationTarget, seconds: number, reason?: string) => {
      try {
        await timeoutOrThrow(target, seconds, reason);
        return true;
      } catch (error) {
        notifyError(error);
        return false;
      }
    },
    [timeoutOrThrow],
  );

  /** Bans with the success toast; a failure is thrown (the ban form shows it). */
  const banOrThrow = useCallback(
    async (target: ModerationTarget, reason?: string) => {
      await banAsync({ target, reason });
      notifySuccess(BAN_TOAST);
      onApplied?.(localEvent(target, 'ban', { reason: reason ?? null }));
    },
    [banAsync, onApplied],
  );

  const unbanUser = useCallback(
    async (target: ModerationTarget) => {
      try {
        await unbanAsync(target);
        notifySuccess(UNBAN_TOAST);
        onApplied?.(localEvent(target, 'unban'));
        return true;
      } catch (error) {
        notifyError(error);
        return false;
      }
    },
    [unbanAsync, onApplied],
  );

  const deleteMessage = useCallback(
    async (target: ModerationTarget, providerMessageId: string) => {
      try {
        await removeAsync({ target, providerMessageId });
        notifySuccess(DELETE_TOAST);
        onApplied?.(localEvent(target, 'delete', { provider_message_id: providerMessageId }));
        return true;
      } catch (error) {
        notifyError(error);
        return false;
      }
    },
    [removeAsync, onApplied],
  );

  const isPending = banning || unbanning || removing;
  return useMemo(
    () => ({ timeout, timeoutOrThrow, banOrThrow, unban: unbanUser, deleteMessage, isPending }),
    [timeout, timeoutOrThrow, banOrThrow, unbanUser, deleteMessage, isPending],
  );
}
