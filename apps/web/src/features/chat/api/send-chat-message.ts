import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { sendChatResultSchema, type sendChatBodySchema } from '@greenroom/contracts/api/chat';
import { api } from '../../../lib/api-client';

export type SendChatBody = z.input<typeof sendChatBodySchema>;
export type SendChatResult = z.infer<typeof sendChatResultSchema>;

/** Sends one chat message to the chosen platforms (empty = every connected platform with chat write). */
export function sendChatMessage(channelId: string, body: SendChatBody): Promise<SendChatResult> {
  return api.post(`/api/2/channels/${encodeURIComponent(channelId)}/chat/messages`, body, { schema: sendChatResultSchema });
}

export function useSendChatMessage(channelId: string) {
  // The composer shows the error (a toast, or on the message field).
  return useMutation({ mutationFn: (body: SendChatBody) => sendChatMessage(channelId, body), meta: { errorToast: false } });
}
