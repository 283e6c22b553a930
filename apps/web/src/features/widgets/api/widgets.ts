import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  publicWidgetSchema,
  widgetEventSchema,
  widgetListSchema,
  widgetMediaListSchema,
  widgetMediaSchema,
  widgetSchema,
  type AlertType,
  type PublicWidget,
  type Widget,
  type WidgetCreateBody,
  type WidgetMedia,
  type WidgetUpdateBody,
} from '@greenroom/contracts/api/widgets';
import { api, apiRequest } from '../../../lib/api-client';

const base = (channelId: string) => `/api/2/channels/${encodeURIComponent(channelId)}/widgets`;
const one = (channelId: string, widgetId: string) => `${base(channelId)}/${encodeURIComponent(widgetId)}`;

export function getWidgetsQueryOptions(channelId: string) {
  return queryOptions({
    queryKey: ['channels', channelId, 'widgets'],
    queryFn: ({ signal }) => api.get(base(channelId), { schema: widgetListSchema, signal }),
    meta: { errorToast: false },
  });
}

export function useWidgets(channelId: string) {
  return useQuery(getWidgetsQueryOptions(channelId));
}

export function useWidget(channelId: string, widgetId: string) {
  return useQuery({
    queryKey: ['channels', channelId, 'widgets', widgetId],
    queryFn: ({ signal }) => api.get(one(channelId, widgetId), { schema: widgetSchema, signal }),
    meta: { errorToast: false },
  });
}

/** Keeps the list and the widget's own entry in step after a change. */
function useStoreWidget(channelId: string) {
  const queryClient = useQueryClient();
  return async (widget: Widget) => {
    queryClient.setQueryData(['channels', channelId, 'widgets', widget.id], widget);
    await queryClient.invalidateQueries({ queryKey: getWidgetsQueryOptions(channelId).queryKey, exact: true });
  };
}

export function useCreateWidget(channelId: string) {
  const store = useStoreWidget(channelId);
  return useMutation({
    mutationFn: (body: WidgetCreateBody) => api.post(base(channelId), body, { schema: widgetSchema }),
    onSuccess: store,
  });
}

export function useSaveWidget(channelId: string, widgetId: string) {
  const store = useStoreWidget(channelId);
  return useMutation({
    mutationFn: (body: WidgetUpdateBody) => api.put(one(channelId, widgetId), body, { schema: widgetSchema }),
    meta: { errorToast: false },
    onSuccess: store,
  });
}

export function useDuplicateWidget(channelId: string) {
  const store = useStoreWidget(channelId);
  return useMutation({
    mutationFn: (widgetId: string) => api.post(`${one(channelId, widgetId)}/duplicate`, undefined, { schema: widgetSchema }),
    onSuccess: store,
  });
}

export function useRotateWidgetUrl(channelId: string) {
  const store = useStoreWidget(channelId);
  return useMutation({
    mutationFn: (widgetId: string) => api.post(`${one(channelId, widgetId)}/rotate-url`, undefined, { schema: widgetSchema }),
    onSuccess: store,
  });
}

export function useResetGoal(channelId: string) {
  const store = useStoreWidget(channelId);
  return useMutation({
    mutationFn: (widgetId: string) => api.post(`${one(channelId, widgetId)}/reset-goal`, undefined, { schema: widgetSchema }),
    onSuccess: store,
  });
}

export function useSendTestEvent(channelId: string, widgetId: string) {
  return useMutation({
    mutationFn: (type: AlertType) => api.post(`${one(channelId, widgetId)}/test`, { type }, { schema: widgetEventSchema }),
  });
}

export function useDeleteWidget(channelId: string) {
  const queryClient = useQueryClient();
  const { queryKey } = getWidgetsQueryOptions(channelId);
  return useMutation({
    mutationFn: (widgetId: string) => api.delete(one(channelId, widgetId)),
    onSuccess: async (_r, widgetId) => {
      queryClient.setQueryData<Widget[]>(queryKey, (list) => list?.filter((w) => w.id !== widgetId));
      queryClient.removeQueries({ queryKey: ['channels', channelId, 'widgets', widgetId], exact: true });
      await queryClient.invalidateQueries({ queryKey, exact: true });
    },
  });
}

const mediaBase = (channelId: string) => `/api/2/channels/${encodeURIComponent(channelId)}/widget-media`;
const mediaKey = (channelId: string) => ['channels', channelId, 'widget-media'];

/** The channel's uploaded alert images, GIFs and sounds, newest first. */
export function useWidgetMedia(channelId: string) {
  return useQuery({
    queryKey: mediaKey(channelId),
    queryFn: ({ signal }) => api.get(mediaBase(channelId), { schema: widgetMediaListSchema, signal }),
    meta: { errorToast: false },
  });
}

export function useUploadWidgetMedia(channelId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) =>
      apiRequest(mediaBase(channelId), {
        method: 'POST',
        query: { name: file.name.slice(0, 100) || 'upload' },
        file,
        schema: widgetMediaSchema,
      }),
    meta: { errorToast: false },
    onSuccess: async (media) => {
      queryClient.setQueryData<WidgetMedia[]>(mediaKey(channelId), (list) =>
        list ? [media, ...list.filter((m) => m.id !== media.id)] : list,
      );
      await queryClient.invalidateQueries({ queryKey: mediaKey(channelId), exact: true });
    },
  });
}

/** What a widget page starts from (no sign-in; the token is the key). */
export function getPublicWidget(token: string, signal?: AbortSignal): Promise<PublicWidget> {
  return api.get(`/api/2/public/widgets/${encodeURIComponent(token)}`, { schema: publicWidgetSchema, signal });
}

/** The widget's URL for OBS on this origin. */
export function widgetUrl(token: string): string {
  return `${window.location.origin}/widget/${token}`;
}
