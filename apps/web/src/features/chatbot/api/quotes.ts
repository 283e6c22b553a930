import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { quoteListSchema, quoteSchema, type Quote, type QuoteBody, type QuoteCreateBody } from '@greenroom/contracts/api/chatbot';
import { api } from '../../../lib/api-client';

const base = (channelId: string) => `/api/2/channels/${encodeURIComponent(channelId)}/quotes`;

export function getQuotesQueryOptions(channelId: string) {
  return queryOptions({
    queryKey: ['channels', channelId, 'quotes'],
    queryFn: ({ signal }) => api.get(base(channelId), { schema: quoteListSchema, signal }),
    meta: { errorToast: false },
  });
}

export function useQuotes(channelId: string) {
  return useQuery(getQuotesQueryOptions(channelId));
}

export function useQuote(channelId: string, quoteId: string, enabled = true) {
  return useQuery({
    queryKey: ['channels', channelId, 'quotes', quoteId],
    queryFn: ({ signal }) => api.get(`${base(channelId)}/${encodeURIComponent(quoteId)}`, { schema: quoteSchema, signal }),
    meta: { errorToast: false },
    enabled,
  });
}

export function useCreateQuote(channelId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: QuoteCreateBody): Promise<Quote> => api.post(base(channelId), body, { schema: quoteSchema }),
    meta: { errorToast: false },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: getQuotesQueryOptions(channelId).queryKey, exact: true }),
  });
}

export function useUpdateQuote(channelId: string, quoteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: QuoteBody): Promise<Quote> =>
      api.put(`${base(channelId)}/${encodeURIComponent(quoteId)}`, body, { schema: quoteSchema }),
    meta: { errorToast: false },
    onSuccess: async (saved) => {
      queryClient.setQueryData(['channels', channelId, 'quotes', saved.id], saved);
      await queryClient.invalidateQueries({ queryKey: getQuotesQueryOptions(channelId).queryKey, exact: true });
    },
  });
}

export function useDeleteQuote(channelId: string) {
  const queryClient = useQueryClient();
  const { queryKey } = getQuotesQueryOptions(channelId);
  return useMutation({
    mutationFn: (quoteId: string) => api.delete(`${base(channelId)}/${encodeURIComponent(quoteId)}`),
    onSuccess: async (_r, quoteId) => {
      queryClient.setQueryData<Quote[]>(queryKey, (list) => list?.filter((q) => q.id !== quoteId));
      await queryClient.invalidateQueries({ queryKey, exact: true });
    },
  });
}
