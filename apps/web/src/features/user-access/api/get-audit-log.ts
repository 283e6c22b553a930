import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import {
  AUDIT_LOG_PAGE_SIZE,
  auditLogActorsSchema,
  auditLogPageSchema,
  type AuditLogEntry,
  type UserRef,
} from '@greenroom/contracts/api/staff';
import type { Paginated } from '@greenroom/contracts/api/common';
import { api } from '../../../lib/api-client';

/** What the audit log is narrowed to: an action or a whole area (`moderation`), and a person. */
export interface AuditLogFilter {
  action?: string | null;
  actorUserId?: string | null;
}

export function getAuditLog(
  channelId: string,
  cursor: string | null,
  filter: AuditLogFilter = {},
  signal?: AbortSignal,
): Promise<Paginated<AuditLogEntry>> {
  return api.get(`/api/2/channels/${encodeURIComponent(channelId)}/audit-log`, {
    query: { cursor, per_page: AUDIT_LOG_PAGE_SIZE, action: filter.action ?? null, actor_user_id: filter.actorUserId ?? null },
    schema: auditLogPageSchema,
    signal,
  });
}

/** Without a filter: the key prefix of every audit log list of the channel (mutations invalidate them all). */
export function getAuditLogQueryOptions(channelId: string, filter?: AuditLogFilter) {
  const key = filter ? { action: filter.action ?? null, actor: filter.actorUserId ?? null } : undefined;
  return infiniteQueryOptions({
    queryKey: key ? (['channels', channelId, 'audit-log', key] as const) : (['channels', channelId, 'audit-log'] as const),
    queryFn: ({ pageParam, signal }) => getAuditLog(channelId, pageParam, filter, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.cursor,
    meta: { errorToast: false },
  });
}

/** The channel's audit log, newest first, a page at a time, narrowed by `filter`. */
export function useAuditLog(channelId: string, filter: AuditLogFilter = {}) {
  return useInfiniteQuery(getAuditLogQueryOptions(channelId, filter));
}

export function getAuditLogActors(channelId: string, signal?: AbortSignal): Promise<UserRef[]> {
  return api.get(`/api/2/channels/${encodeURIComponent(channelId)}/audit-log/actors`, { schema: auditLogActorsSchema, signal });
}

/** Everyone who appears in the channel's audit log (the "person" filter). */
export function useAuditLogActors(channelId: string) {
  return useQuery(
    queryOptions({
      queryKey: ['channels', channelId, 'audit-log', 'actors'],
      queryFn: ({ signal }) => getAuditLogActors(channelId, signal),
      meta: { errorToast: false },
    }),
  );
}
