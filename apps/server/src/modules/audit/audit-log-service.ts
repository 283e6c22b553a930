import { and, asc, desc, eq, like, lt, or, type SQL } from 'drizzle-orm';
import type { AuditLogEntry, UserRef } from '@greenroom/contracts/api/staff';
import type { Paginated } from '@greenroom/contracts/api/common';
import type { Db } from '../../db/client';
import { auditLog, users } from '../../db/schema';
import { parseSeqCursor } from '../../lib/pagination';
import { storableJson } from '../../lib/text';

/**
 * A row to append to a channel's audit log. `action` is a feature-owned name such as `staff.removed`
 * or `moderation.ban`. The actor is a user (`actorUserId`), the channel's bot or Greenroom itself
 * (`actorKind` 'bot' / 'system', `actorUserId` null); without `actorKind` it is 'user' when a user
 * id is given, else 'system'.
 */
export interface AuditEntryInput {
  channelId: string;
  actorUserId: string | null;
  actorKind?: 'user' | 'bot' | 'system';
  action: string;
  data?: Record<string, unknown>;
}

/** Appends audit rows; what other features take (AuditLogService implements it, unit tests pass a fake). */
export interface AuditRecorder {
  record(entry: AuditEntryInput, db?: Db): Promise<void>;
}

/**
 * The per-channel audit log: features append rows (inside their own transaction, by passing the
 * transaction as `db`), Admins read them newest first. The reader is generic: it never interprets
 * `action` or `data`.
 */
export class AuditLogService implements AuditRecorder {
  constructor(private readonly db: Db) {}

  /**
   * Appends a row. What was done is recorded even when its details hold text PostgreSQL cannot store (a
   * platform's name with NUL, a broken surrogate): such characters become U+FFFD rather than losing the row.
   */
  async record(entry: AuditEntryInput, db: Db = this.db): Promise<void> {
    await db.insert(auditLog).values({
      channelId: entry.channelId,
      actorUserId: entry.actorUserId,
      actorKind: entry.actorKind ?? (entry.actorUserId ? 'user' : 'system'),
      action: entry.action,
      data: storableJson(entry.data ?? {}) as Record<string, unknown>,
    });
  }

  async list(
    channelId: string,
    query: { cursor?: string; per_page: number; action?: string; actor_user_id?: string },
  ): Promise<Paginated<AuditLogEntry>> {
    const where: SQL[] = [eq(auditLog.channelId, channelId)];
    const before = parseSeqCursor(query.cursor);
    if (before !== null) where.push(lt(auditLog.id, before));
    // `moderation` is the whole area (every `moderation.*`), `moderation.ban` one action.
    if (query.action) where.push(or(eq(auditLog.action, query.action), like(auditLog.action, `${query.action.replace(/_/g, '\\_')}.%`))!);
    if (query.actor_user_id) where.push(eq(auditLog.actorUserId, query.actor_user_id));
    const rows = await this.db
      .select({
        id: auditLog.id,
        action: auditLog.action,
        actorKind: auditLog.actorKind,
        data: auditLog.data,
        createdAt: auditLog.createdAt,
        actorId: users.id,
        actorName: users.displayName,
      })
      .from(auditLog)
      .leftJoin(users, eq(users.id, auditLog.actorUserId))
      .where(and(...where))
      .orderBy(desc(auditLog.id))
      .limit(query.per_page + 1);
    const records = rows.slice(0, query.per_page);
    const last = records.at(-1);
    return {
      records: records.map((r) => ({
        id: String(r.id),
        action: r.action,
        actor_kind: r.actorKind,
        actor: r.actorId != null && r.actorName != null ? { id: r.actorId, display_name: r.actorName } : null,
        data: r.data,
        created_at: r.createdAt.toISOString(),
      })),
      cursor: rows.length > query.per_page && last ? String(last.id) : null,
    };
  }

  /** Everyone who did something in the channel (still a user), by name: the audit log's "person" filter. */
  async actors(channelId: string): Promise<UserRef[]> {
    const rows = await this.db
      .selectDistinct({ id: users.id, displayName: users.displayName })
      .from(auditLog)
      .innerJoin(users, eq(users.id, auditLog.actorUserId))
      .where(eq(auditLog.channelId, channelId))
      .orderBy(asc(users.displayName), asc(users.id));
    return rows.map((r) => ({ id: r.id, display_name: r.displayName }));
  }
}
