import { and, desc, eq, lt } from 'drizzle-orm';
import type { AuditLogEntry } from '@greenroom/contracts/api/staff';
import type { Paginated } from '@greenroom/contracts/api/common';
import type { Db } from '../../db/client';
import { auditLog, users } from '../../db/schema';
import { parseSeqCursor } from '../../lib/pagination';

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

  async record(entry: AuditEntryInput, db: Db = this.db): Promise<void> {
    await db.insert(auditLog).values({
      channelId: entry.channelId,
      actorUserId: entry.actorUserId,
      actorKind: entry.actorKind ?? (entry.actorUserId ? 'user' : 'system'),
      action: entry.action,
      data: entry.data ?? {},
    });
  }

  async list(channelId: string, query: { cursor?: string; per_page: number }): Promise<Paginated<AuditLogEntry>> {
    const before = parseSeqCursor(query.cursor);
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
      .where(before == null ? eq(auditLog.channelId, channelId) : and(eq(auditLog.channelId, channelId), lt(auditLog.id, before)))
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
}
