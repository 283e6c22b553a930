import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  chatCommandListSchema,
  chatCommandSchema,
  commandTemplateListSchema,
  importResultSchema,
  type ChatCommand,
  type CommandBody,
  type ImportBody,
} from '@greenroom/contracts/api/chatbot';
import { api } from '../../../lib/api-client';

const base = (channelId: string) => `/api/2/channels/${encodeURIComponent(channelId)}/chat-commands`;

export function getChatCommandsQueryOptions(channelId: string) {
  return queryOptions({
    queryKey: ['channels', channelId, 'chat-commands'],
    queryFn: ({ signal }) => api.get(base(channelId), { schema: chatCommandListSchema, signal }),
    meta: { errorToast: false },
  });
}

/** The channel's commands, by name. */
export function useChatCommands(channelId: string) {
  return useQuery(getChatCommandsQueryOptions(channelId));
}

export function getChatCommandQueryOptions(channelId: string, commandId: string) {
  return queryOptions({
    queryKey: ['channels', channelId, 'chat-commands', commandId],
    queryFn: ({ signal }) => api.get(`${base(channelId)}/${encodeURIComponent(commandId)}`, { schema: chatCommandSchema, signal }),
    meta: { errorToast: false },
  });
}

export function useChatCommand(channelId: string, commandId: string, enabled = true) {
  return useQuery({ ...getChatCommandQueryOptions(channelId, commandId), enabled });
}

/** Creates (no id) or replaces a command; the list and the command's own entry are refreshed. */
export function useSaveChatCommand(channelId: string, commandId: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CommandBody): Promise<ChatCommand> =>
      commandId
        ? api.put(`${base(channelId)}/${encodeURIComponent(commandId)}`, body, { schema: chatCommandSchema })
        : api.post(base(channelId), body, { schema: chatCommandSchema }),
    meta: { errorToast: false }, // the form shows it
    onSuccess: async (saved) => {
      queryClient.setQueryData(getChatCommandQueryOptions(channelId, saved.id).queryKey, saved);
      await queryClient.invalidateQueries({ queryKey: getChatCommandsQueryOptions(channelId).queryKey, exact: true });
    },
  });
}

/** Switches a command on or off from the list (the whole command is sent back with `enabled` changed). */
export function useToggleChatCommand(channelId: string) {
  const queryClient = useQueryClient();
  const { queryKey } = getChatCommandsQueryOptions(channelId);
  return useMutation({
    mutationFn: (c: ChatCommand) =>
      api.put(
        `${base(channelId)}/${encodeURIComponent(c.id)}`,
        { ...toCommandBody(c), enabled: !c.enabled },
        { schema: chatCommandSchema },
      ),
    onSuccess: async (saved) => {
      queryClient.setQueryData<ChatCommand[]>(queryKey, (list) => list?.map((c) => (c.id === saved.id ? saved : c)));
      await queryClient.invalidateQueries({ queryKey, exact: true });
    },
  });
}

export function useDeleteChatCommand(channelId: string) {
  const queryClient = useQueryClient();
  const { queryKey } = getChatCommandsQueryOptions(channelId);
  return useMutation({
    mutationFn: (commandId: string) => api.delete(`${base(channelId)}/${encodeURIComponent(commandId)}`),
    onSuccess: async (_r, commandId) => {
      queryClient.setQueryData<ChatCommand[]>(queryKey, (list) => list?.filter((c) => c.id !== commandId));
      await queryClient.invalidateQueries({ queryKey, exact: true });
    },
  });
}

/** Previews (apply: false) or saves (apply: true) a Nightbot / StreamElements export. */
export function useImportChatCommands(channelId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ImportBody) => api.post(`${base(channelId)}/import`, body, { schema: importResultSchema }),
    meta: { errorToast: false },
    onSuccess: async (result) => {
      if (result.saved > 0) await queryClient.invalidateQueries({ queryKey: getChatCommandsQueryOptions(channelId).queryKey, exact: true });
    },
  });
}

/** The operators' command templates, as the channel's gallery. */
export function useTemplateGallery(channelId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['channels', channelId, 'command-templates'],
    queryFn: ({ signal }) =>
      api.get(`/api/2/channels/${encodeURIComponent(channelId)}/command-templates`, { schema: commandTemplateListSchema, signal }),
    meta: { errorToast: false },
    enabled,
  });
}

export function useAddTemplate(channelId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (templateId: string) =>
      api.post(`/api/2/channels/${encodeURIComponent(channelId)}/command-templates/${encodeURIComponent(templateId)}/add`, undefined, {
        schema: chatCommandSchema,
      }),
    meta: { errorToast: false },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: getChatCommandsQueryOptions(channelId).queryKey, exact: true }),
  });
}

/** The editable body of a command (what the editor and the list's switch send). */
export function toCommandBody(c: ChatCommand): CommandBody {
  return {
    name: c.name,
    aliases: c.aliases,
    responses: c.responses,
    response_mode: c.response_mode,
    level: c.level,
    global_cooldown_seconds: c.global_cooldown_seconds,
    user_cooldown_seconds: c.user_cooldown_seconds,
    platforms: c.platforms,
    reply_mode: c.reply_mode,
    enabled: c.enabled,
  };
}
