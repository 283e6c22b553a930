import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  commandTemplateListSchema,
  commandTemplateSchema,
  type CommandTemplate,
  type CommandTemplateBody,
} from '@greenroom/contracts/api/chatbot';
import { api } from '../../../lib/api-client';

const base = '/api/2/admin/command-templates';

export function getCommandTemplatesQueryOptions() {
  return queryOptions({
    queryKey: ['admin', 'command-templates'],
    queryFn: ({ signal }) => api.get(base, { schema: commandTemplateListSchema, signal }),
    meta: { errorToast: false },
  });
}

/** Every command template (operators). */
export function useCommandTemplates() {
  return useQuery(getCommandTemplatesQueryOptions());
}

export function useCommandTemplate(templateId: string, enabled = true) {
  return useQuery({
    queryKey: ['admin', 'command-templates', templateId],
    queryFn: ({ signal }) => api.get(`${base}/${encodeURIComponent(templateId)}`, { schema: commandTemplateSchema, signal }),
    meta: { errorToast: false },
    enabled,
  });
}

export function toTemplateBody(t: CommandTemplate): CommandTemplateBody {
  return {
    name: t.name,
    aliases: t.aliases,
    description: t.description,
    responses: t.responses,
    response_mode: t.response_mode,
    level: t.level,
    global_cooldown_seconds: t.global_cooldown_seconds,
    user_cooldown_seconds: t.user_cooldown_seconds,
    reply_mode: t.reply_mode,
    enabled: t.enabled,
  };
}

export function useSaveCommandTemplate(templateId: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CommandTemplateBody): Promise<CommandTemplate> =>
      templateId
        ? api.put(`${base}/${encodeURIComponent(templateId)}`, body, { schema: commandTemplateSchema })
        : api.post(base, body, { schema: commandTemplateSchema }),
    meta: { errorToast: false },
    onSuccess: async (saved) => {
      queryClient.setQueryData(['admin', 'command-templates', saved.id], saved);
      await queryClient.invalidateQueries({ queryKey: getCommandTemplatesQueryOptions().queryKey, exact: true });
    },
  });
}

export function useDeleteCommandTemplate() {
  const queryClient = useQueryClient();
  const { queryKey } = getCommandTemplatesQueryOptions();
  return useMutation({
    mutationFn: (templateId: string) => api.delete(`${base}/${encodeURIComponent(templateId)}`),
    onSuccess: async (_r, templateId) => {
      queryClient.setQueryData<CommandTemplate[]>(queryKey, (list) => list?.filter((t) => t.id !== templateId));
      await queryClient.invalidateQueries({ queryKey, exact: true });
    },
  });
}
