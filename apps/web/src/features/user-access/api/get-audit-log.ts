import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { AUDIT_LOG_PAGE_SIZE, auditLogPageSchema, type AuditLogEntry } from '@greenroom/contracts/api/staff';
import type { Paginated } from '@greenroom/contracts/api/common';
import { api } from '../../../lib/api-client';

export function getAuditLog(channelId: string, cursor: string | null, signal?: AbortSignal): Promise<Paginated<AuditLogEntry>> {
  return api.get(`/api/2/channels/${encodeURIComponent(channelId)}/audit-log`, {
    query: { cursor, per_page: AUDIT_LOG_PAGE_SIZE },
    schema: auditLogPageSchema,
    signal,
  });
}

export function getAuditLogQueryOptions(channelId: string) {
  return infiniteQueryOptions({
    queryKey: ['channels', channelId, 'audit-log'],
    queryFn: ({ pageParam, signal }) => getAuditLog(channelId, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.cursor,
    meta: { errorToast: false },
  });
}

/** The channel's audit log, newest first, a page at a time. */
export function useAuditLog(channelId: string) {
  return useInfiniteQuery(getAuditLogQueryOptions(channelId));
}
