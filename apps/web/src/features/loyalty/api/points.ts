import { keepPreviousData, queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ledgerPageSchema,
  pointSettingsSchema,
  walletListSchema,
  walletSchema,
  viewerWalletSchema,
  type AdjustBody,
  type PointSettings,
  type PointSettingsBody,
  type Wallet,
} from '@greenroom/contracts/api/points';
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import { api } from '../../../lib/api-client';

const base = (channelId: string) => `/api/2/channels/${encodeURIComponent(channelId)}/points`;
const walletPath = (channelId: string, walletId: string) => `${base(channelId)}/wallets/${encodeURIComponent(walletId)}`;

function settingsQueryOptions(channelId: string) {
  return queryOptions({
    queryKey: ['channels', channelId, 'points', 'settings'],
    queryFn: ({ signal }) => api.get(`${base(channelId)}/settings`, { schema: pointSettingsSchema, signal }),
    meta: { errorToast: false },
  });
}

export function usePointSettings(channelId: string) {
  return useQuery(settingsQueryOptions(channelId));
}

export function useSavePointSettings(channelId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PointSettingsBody): Promise<PointSettings> =>
      api.put(`${base(channelId)}/settings`, body, { schema: pointSettingsSchema }),
    meta: { errorToast: false },
    onSuccess: (saved) => queryClient.setQueryData(settingsQueryOptions(channelId).queryKey, saved),
  });
}

const walletsKey = (channelId: string) => ['channels', channelId, 'points', 'wallets'] as const;

/** The leaderboard (highest balance first), filtered by a name, 25 a page. */
export function useWallets(channelId: string, search: string) {
  return useInfiniteQuery({
    queryKey: [...walletsKey(channelId), { search }],
    queryFn: ({ signal, pageParam }) =>
      api.get(`${base(channelId)}/wallets`, {
        schema: walletListSchema,
        signal,
        query: { search: search || undefined, cursor: pageParam ?? undefined },
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.cursor,
    placeholderData: keepPreviousData,
    meta: { errorToast: false },
  });
}

/** One viewer's ledger, newest first. */
export function useLedger(channelId: string, walletId: string) {
  return useInfiniteQuery({
    queryKey: [...walletsKey(channelId), walletId, 'ledger'],
    queryFn: ({ signal, pageParam }) =>
      api.get(`${walletPath(channelId, walletId)}/ledger`, { schema: ledgerPageSchema, signal, query: { cursor: pageParam ?? undefined } }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.cursor,
    meta: { errorToast: false },
  });
}

/** The wallet of one platform account and the accounts linked to it (the viewer card; Mods). */
export function useViewerWallet(channelId: string, provider: ChannelProviderId, providerUserId: string) {
  return useQuery({
    // Under the wallets key: an adjustment or an unlink refreshes it.
    queryKey: [...walletsKey(channelId), 'viewer', provider, providerUserId],
    queryFn: ({ signal }) =>
      api.get(`${base(channelId)}/viewers/${provider}/${encodeURIComponent(providerUserId)}`, { schema: viewerWalletSchema, signal }),
    meta: { errorToast: false },
  });
}

export function useAdjustBalance(channelId: string, walletId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AdjustBody): Promise<Wallet> =>
      api.post(`${walletPath(channelId, walletId)}/adjust`, body, { schema: walletSchema }),
    meta: { errorToast: false },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: walletsKey(channelId) }),
  });
}

export function useUnlinkIdentity(channelId: string, walletId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (identity: { provider: ChannelProviderId; provider_user_id: string }): Promise<Wallet> =>
      api.delete(`${walletPath(channelId, walletId)}/identities/${identity.provider}/${encodeURIComponent(identity.provider_user_id)}`, {
        schema: walletSchema,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: walletsKey(channelId) }),
  });
}
