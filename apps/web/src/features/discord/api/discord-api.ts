import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  discordSettingsSchema,
  type DiscordSettings,
  type DiscordSettingsBody,
  type DiscordTestBody,
} from '@greenroom/contracts/api/discord';
import { api } from '../../../lib/api-client';

const path = (channelId: string) => `/api/2/channels/${encodeURIComponent(channelId)}/discord`;
const key = (channelId: string) => ['channels', channelId, 'discord'] as const;

/** The channel's Discord announcement settings (the webhook's token is never sent back). */
export function useDiscordSettings(channelId: string) {
  return useQuery({
    queryKey: key(channelId),
    queryFn: ({ signal }) => api.get(path(channelId), { schema: discordSettingsSchema, signal }),
    meta: { errorToast: false },
  });
}

export function useSaveDiscordSettings(channelId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DiscordSettingsBody): Promise<DiscordSettings> => api.put(path(channelId), body, { schema: discordSettingsSchema }),
    meta: { errorToast: false }, // the form shows the error
    onSuccess: (settings) => queryClient.setQueryData(key(channelId), settings),
  });
}

/** Posts a sample announcement with the settings as typed. */
export function useSendDiscordTest(channelId: string) {
  return useMutation({
    mutationFn: (body: DiscordTestBody) => api.post(`${path(channelId)}/test`, body),
    meta: { errorToast: false },
  });
}

export function useRemoveDiscordSettings(channelId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete(path(channelId)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key(channelId) }),
  });
}
