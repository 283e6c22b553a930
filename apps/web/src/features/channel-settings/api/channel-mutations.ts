import { useMutation, useQueryClient } from '@tanstack/react-query';
import { channelSchema, type Channel, type ChannelChatSettingsBody, type UpdateChannelBody } from '@greenroom/contracts/api/channels';
import { api } from '../../../lib/api-client';
import { getChannelQueryOptions } from '../../../api/get-channel';
import { channelListsKey } from '../../../api/get-channels';

const path = (channelId: string) => `/api/2/channels/${encodeURIComponent(channelId)}`;

/** Renames the channel (Admin); the answer replaces the cached channel, lists refresh. */
export function useRenameChannel(channelId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateChannelBody): Promise<Channel> => api.patch(path(channelId), body, { schema: channelSchema }),
    meta: { errorToast: false }, // the form shows the error
    onSuccess: async (channel) => {
      queryClient.setQueryData(getChannelQueryOptions(channelId).queryKey, channel);
      await queryClient.invalidateQueries({ queryKey: channelListsKey });
    },
  });
}

/** Deletes the channel (Owner) after the typed confirmation; every cached channel query is dropped. */
export function useDeleteChannel(channelId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (typedName: string) => api.delete(path(channelId), { query: { name: typedName } }),
    meta: { errorToast: false }, // the dialog shows the error
    onSuccess: () => queryClient.removeQueries({ queryKey: ['channels'] }),
  });
}

/** The chat settings only the Owner changes (whether Editors post as the streamer); the answer replaces the cached channel. */
export function useUpdateChatSettings(channelId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ChannelChatSettingsBody): Promise<Channel> =>
      api.put(`${path(channelId)}/chat-settings`, body, { schema: channelSchema }),
    onSuccess: (channel) => queryClient.setQueryData(getChannelQueryOptions(channelId).queryKey, channel),
  });
}
