/**
 * Spam filters: the editor's CRUD (an invalid regular expression is a field error), their order, and
 * the log of what they did. Every change rebuilds the channel's compiled filter set.
 */
import { and, asc, desc, eq, lt, max, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { ChatFilter, FilterLogEntry, filterBodySchema, FilterType } from '@greenroom/contracts/api/chatbot';
import type { AccessLevelValue } from '@greenroom/contracts/access';
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import type { Db } from '../../db/client';
import { chatFilterLog, chatFilters } from '../../db/schema';
import { badRequest, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { ChatbotState } from './chatbot-state';
import { compileRegex, RegexError } from './domain/filters';

export type FilterInput = z.output<typeof filterBodySchema>;
type Row = typeof chatFilters.$inferSelect;

export function toFilterDto(row: Row): ChatFilter {
  return {
    id: row.id,
    name: row.name,
    type: row.type as FilterType,
    settings: row.settings,
    exempt_level: row.exemptLevel as AccessLevelValue,
    action: row.action,
    duration_seconds: row.durationSeconds,
    warn_first: row.warnFirst,
    message: row.message,
    enabled: row.enabled,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export interface FilterLogInput {
  channelId: string;
  effectId: string | null;
  filterId: string;
  filterName: string;
  filterType: FilterType;
  provider: ChannelProviderId;
  channelProviderId: string;
  viewerId: string;
  viewerName: string;
  messageText: string;
  reason: string;
  requested: 'warn' | 'delete' | 'timeout' | 'ban';
  action: 'delete' | 'timeout' | 'ban' | null;
  durationSeconds: number | null;
  note: string | null;
  ok: boolean;
}

export class FilterService {
  constructor(
    private readonly db: Db,
    private readonly state: ChatbotState,
  ) {}

  async list(channelId: string): Promise<ChatFilter[]> {
    const rows = await this.db
      .select()
      .from(chatFilters)
      .where(eq(chatFilters.channelId, channelId))
      .orderBy(asc(chatFilters.position), asc(chatFilters.id));
    return rows.map(toFilterDto);
  }

  async get(channelId: string, id: string): Promise<ChatFilter> {
    const [row] = await this.db
      .select()
      .from(chatFilters)
      .where(and(eq(chatFilters.channelId, channelId), eq(chatFilters.id, id)));
    if (!row) throw notFound('This filter does not exist.');
    return toFilterDto(row);
  }

  async create(channelId: string, input: FilterInput): Promise<ChatFilter> {
    validateFilter(input);
    const [last] = await this.db
      .select({ position: max(chatFilters.position) })
      .from(chatFilters)
      .where(eq(chatFilters.channelId, channelId));
    const [row] = await this.db
      .insert(chatFilters)
      .values({ id: newId(), channelId, ...filterValues(input), position: (last?.position ?? -1) + 1 })
      .returning();
    await this.state.reloadFilters(channelId);
    return toFilterDto(row!);
  }

  async update(channelId: string, id: string, input: FilterInput): Promise<ChatFilter> {
    validateFilter(input);
    const [row] = await this.db
      .update(chatFilters)
      .set({ ...filterValues(input), updatedAt: new Date() })
      .where(and(eq(chatFilters.channelId, channelId), eq(chatFilters.id, id)))
      .returning();
    if (!row) throw notFound('This filter does not exist.');
    await this.state.reloadFilters(channelId);
    return toFilterDto(row);
  }

  async remove(channelId: string, id: string): Promise<void> {
    const deleted = await this.db
      .delete(chatFilters)
      .where(and(eq(chatFilters.channelId, channelId), eq(chatFilters.id, id)))
      .returning({ id: chatFilters.id });
    if (deleted.length === 0) throw notFound('This filter does not exist.');
    await this.state.reloadFilters(channelId);
  }

  /** Writes one log entry; an effect retried after it was written is not logged twice. */
  async log(entry: FilterLogInput): Promise<void> {
    await this.db
      .insert(chatFilterLog)
      .values({ ...entry, messageText: entry.messageText.slice(0, 1000) })
      .onConflictDoNothing();
  }

  async logPage(
    channelId: string,
    q: { filter_id?: string | undefined; cursor?: number | undefined; per_page: number },
  ): Promise<{ records: FilterLogEntry[]; cursor: string | null }> {
    const where: SQL[] = [eq(chatFilterLog.channelId, channelId)];
    if (q.filter_id) where.push(eq(chatFilterLog.filterId, q.filter_id));
    if (q.cursor) where.push(lt(chatFilterLog.id, q.cursor));
    const rows = await this.db
      .select()
      .from(chatFilterLog)
      .where(and(...where))
      .orderBy(desc(chatFilterLog.id))
      .limit(q.per_page + 1);
    const page = rows.slice(0, q.per_page);
    return {
      records: page.map((r) => ({
        id: r.id,
        filter_id: r.filterId,
        filter_name: r.filterName,
        filter_type: r.filterType as FilterType,
        provider: r.provider as ChannelProviderId,
        viewer_id: r.viewerId,
        viewer_name: r.viewerName,
        message_text: r.messageText,
        reason: r.reason,
        requested: r.requested as FilterLogEntry['requested'],
        action: r.action as FilterLogEntry['action'],
        duration_seconds: r.durationSeconds,
        note: r.note,
        ok: r.ok,
        created_at: r.createdAt.toISOString(),
      })),
      cursor: rows.length > q.per_page ? String(page.at(-1)!.id) : null,
    };
  }
}

export function filterValues(input: FilterInput) {
  return {
    name: input.name,
    type: input.type,
    settings: input.settings as Record<string, unknown>,
    exemptLevel: input.exempt_level,
    action: input.action,
    durationSeconds: input.duration_seconds,
    warnFirst: input.warn_first,
    message: input.message,
    enabled: input.enabled,
  };
}

/** Regular expressions must compile on RE2 (linear time); each bad one is a field error. */
export function validateFilter(input: FilterInput): void {
  if (input.type !== 'regex') return;
  for (const [i, pattern] of input.settings.patterns.entries()) {
    try {
      compileRegex(pattern);
    } catch (error) {
      if (!(error instanceof RegexError)) throw error;
      throw badRequest(error.message, { [`settings.patterns.${i}`]: error.message });
    }
  }
}
