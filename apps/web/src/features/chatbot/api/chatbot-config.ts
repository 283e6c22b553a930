import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { chatbotConfigSchema, configPlanSchema, configVersionListSchema, type ConfigImportBody } from '@greenroom/contracts/api/chatbot';
import { api } from '../../../lib/api-client';

const base = (channelId: string) => `/api/2/channels/${encodeURIComponent(channelId)}/chatbot-config`;

export function getConfigVersionsQueryOptions(channelId: string) {
  return queryOptions({
    queryKey: ['channels', channelId, 'chatbot-config', 'versions'],
    queryFn: ({ signal }) => api.get(`${base(channelId)}/versions`, { schema: configVersionListSchema, signal }),
    meta: { errorToast: false },
  });
}

/** The channel's configuration versions, newest first. */
export function useConfigVersions(channelId: string, enabled = true) {
  return useQuery({ ...getConfigVersionsQueryOptions(channelId), enabled });
}

/** The whole configuration (or one version of it) as the document to save in a file. */
export function useExportConfig(channelId: string) {
  return useMutation({
    mutationFn: (versionId: string | null) =>
      api.get(versionId ? `${base(channelId)}/versions/${encodeURIComponent(versionId)}` : base(channelId), {
        schema: chatbotConfigSchema,
      }),
  });
}

/** What importing a document would do: nothing is saved. */
export function usePreviewConfigImport(channelId: string) {
  return useMutation({
    mutationFn: (body: ConfigImportBody) => api.post(`${base(channelId)}/preview`, body, { schema: configPlanSchema }),
    meta: { errorToast: false }, // the form shows it
  });
}

/** Everything the chatbot pages show may change after an import or a restore. */
async function refreshAll(queryClient: ReturnType<typeof useQueryClient>, channelId: string) {
  await Promise.all(
    ['chat-commands', 'chat-timers', 'chat-filters', 'quotes', 'chatbot-config'].map((key) =>
      queryClient.invalidateQueries({ queryKey: ['channels', channelId, key] }),
    ),
  );
}

export function useImportConfig(channelId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ConfigImportBody) => api.post(`${base(channelId)}/import`, body, { schema: configPlanSchema }),
    meta: { errorToast: false },
    onSuccess: () => refreshAll(queryClient, channelId),
  });
}

export function useRestoreConfigVersion(channelId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (versionId: string) =>
      api.post(`${base(channelId)}/versions/${encodeURIComponent(versionId)}/restore`, {}, { schema: configPlanSchema }),
    onSuccess: () => refreshAll(queryClient, channelId),
  });
}
