/**
 * Song requests in the database. Every status change is a conditional update (`WHERE status = …`), so a request
 * changes once however many instances or clicks race; a payment or refund is a ledger row in the same transaction.
 */
import { and, asc, desc, eq, inArray, lt, or, sql } from 'drizzle-orm';
import {
  defaultSongRequestSettings,
  type SongRequestSettings,
  type SongRequestStatus,
  type SpotifyTrackDto,
} from '@greenroom/contracts/api/spotify';
import type { Db } from '../../db/client';
import { songRequests, songRequestSettings } from '../../db/schema';
import { newId } from '../../lib/ids';
import { InsufficientPoints, type PointsLedger } from '../points';

export type SongRequestRow = typeof songRequests.$inferSelect;

/** Requests that still count against a viewer's limit and take part in following the player. */
export const WAITING: SongRequestStatus[] = ['pending', 'queued', 'playing'];

export interface NewRequest {
  channelId: string;
  effectKey: string;
  /** The wallet paying `cost`; null when the request is free. */
  walletId: string | null;
  cost: number;
  provider: string;
  providerUserId: string;
  displayName: string;
  track: SpotifyTrackDto;
  maxPerUser: number;
  now: Date;
}

export type CreateResult =
  | { status: 'created'; row: SongRequestRow }
  | { status: 'duplicate'; row: SongRequestRow }
  | { status: 'limit'; waiting: number }
  | { status: 'insufficient'; balance: number };

class Refused extends Error {
  constructor(readonly result: CreateResult) {
    super('refused');
  }
}

export class SongRequestRepository {
  constructor(
    private readonly db: Db,
    private readonly ledger: PointsLedger,
  ) {}

  async settings(channelId: string): Promise<SongRequestSettings> {
    const [row] = await this.db.select().from(songRequestSettings).where(eq(songRequestSettings.channelId, channelId));
    if (!row) return defaultSongRequestSettings;
    return {
      enabled: row.enabled,
      level: row.level as SongRequestSettings['level'],
      cost: row.cost,
      max_duration_seconds: row.maxDurationSeconds,
      max_per_user: row.maxPerUser,
      blocked: row.blocked,
    };
  }

  async saveSettings(channelId: string, s: SongRequestSettings): Promise<void> {
    const values = {
      enabled: s.enabled,
      level: s.level,
      cost: s.cost,
      maxDurationSeconds: s.max_duration_seconds,
      maxPerUser: s.max_per_user,
      blocked: s.blocked,
      updatedAt: new Date(),
    };
    await this.db
      .insert(songRequestSettings)
      .values({ channelId, ...values })
      .onConflictDoUpdate({ target: songRequestSettings.channelId, set: values });
  }

  async byEffect(channelId: string, effectKey: string): Promise<SongRequestRow | null> {
    const [row] = await this.db
      .select()
      .from(songRequests)
      .where(and(eq(songRequests.channelId, channelId), eq(songRequests.effectKey, effectKey)));
    return row ?? null;
  }

  async get(channelId: string, id: string): Promise<SongRequestRow | null> {
    const [row] = await this.db
      .select()
      .from(songRequests)
      .where(and(eq(songRequests.channelId, channelId), eq(songRequests.id, id)));
    return row ?? null;
  }

  /**
   * Records an accepted request as `pending` and takes its cost in the same transaction (the viewer's waiting
   * requests are counted under a lock on the viewer, so two requests typed at once cannot both pass the limit).
   */
  async create(input: NewRequest): Promise<CreateResult> {
    try {
      return await this.db.transaction(async (t) => {
        const tx = t as unknown as Db;
        // The viewer's lock first: a retry of the same command (same effect key, same viewer) running at once waits
        // here and then sees the first one's committed row.
        await tx.execute(
          sql`select pg_advisory_xact_lock(hashtext(${`song_requests:${input.channelId}:${input.provider}:${input.providerUserId}`}))`,
        );
        const existing = await tx
          .select()
          .from(songRequests)
          .where(and(eq(songRequests.channelId, input.channelId), eq(songRequests.effectKey, input.effectKey)));
        if (existing[0]) return { status: 'duplicate', row: existing[0] };
        if (input.maxPerUser > 0) {
          const [{ waiting } = { waiting: 0 }] = await tx
            .select({ waiting: sql<number>`count(*)::int` })
            .from(songRequests)
            .where(
              and(
                eq(songRequests.channelId, input.channelId),
                eq(songRequests.provider, input.provider),
                eq(songRequests.providerUserId, input.providerUserId),
                inArray(songRequests.status, WAITING),
              ),
            );
          if (Number(waiting) >= input.maxPerUser) throw new Refused({ status: 'limit', waiting: Number(waiting) });
        }
        const id = newId(input.now.getTime());
        if (input.walletId && input.cost > 0) {
          try {
            await this.ledger.debit(tx, {
              channelId: input.channelId,
              walletId: input.walletId,
              amount: input.cost,
              kind: 'song_request',
              key: `song_request:${id}`,
              note: `Song request: ${input.track.name}`,
            });
          } catch (error) {
            if (error instanceof InsufficientPoints) throw new Refused({ status: 'insufficient', balance: error.balance });
            throw error;
          }
        }
        const [row] = await tx
          .insert(songRequests)
          .values({
            id,
            channelId: input.channelId,
            effectKey: input.effectKey,
            walletId: input.cost > 0 ? input.walletId : null,
            provider: input.provider,
            providerUserId: input.providerUserId,
            displayName: input.displayName,
            trackId: input.track.id,
            track: input.track,
            cost: input.walletId ? input.cost : 0,
            status: 'pending',
            requestedAt: input.now,
            updatedAt: input.now,
          })
          .returning();
        return { status: 'created', row: row! };
      });
    } catch (error) {
      if (error instanceof Refused) return error.result;
      throw error;
    }
  }

  /** `from` → `to` if the request is still in one of `from`; the changed row, or null. */
  async move(
    channelId: string,
    id: string,
    from: SongRequestStatus[],
    to: SongRequestStatus,
    extra: { reason?: string | null; skipWhenPlaying?: boolean } = {},
    tx: Db = this.db,
  ): Promise<SongRequestRow | null> {
    const [row] = await tx
      .update(songRequests)
      .set({ status: to, updatedAt: new Date(), ...extra })
      .where(and(eq(songRequests.channelId, channelId), eq(songRequests.id, id), inArray(songRequests.status, from)))
      .returning();
    return row ?? null;
  }

  /** Ends a request that never played (`refused` or `removed`) and gives its cost back, in one transaction. */
  async endWithRefund(
    channelId: string,
    id: string,
    from: SongRequestStatus[],
    to: 'refused' | 'removed',
    reason: string,
    skipWhenPlaying: boolean,
  ): Promise<SongRequestRow | null> {
    return this.db.transaction(async (t) => {
      const tx = t as unknown as Db;
      const row = await this.move(channelId, id, from, to, { reason, skipWhenPlaying }, tx);
      if (!row) return null;
      if (row.walletId && row.cost > 0)
        await this.ledger.credit(tx, {
          channelId,
          walletId: row.walletId,
          amount: row.cost,
          kind: 'song_refund',
          key: `song_refund:${row.id}`,
          note: `Refund: ${row.track.name} (${to})`,
        });
      return row;
    });
  }

  /** Clears the skip mark; true for the one caller that cleared it (that caller skips the track). */
  async claimSkip(id: string): Promise<boolean> {
    const rows = await this.db
      .update(songRequests)
      .set({ skipWhenPlaying: false })
      .where(and(eq(songRequests.id, id), eq(songRequests.skipWhenPlaying, true)))
      .returning({ id: songRequests.id });
    return rows.length > 0;
  }

  /** Waiting and playing requests, and removed ones still to skip, oldest first (following the player). */
  async followed(channelId: string): Promise<SongRequestRow[]> {
    return this.db
      .select()
      .from(songRequests)
      .where(
        and(
          eq(songRequests.channelId, channelId),
          or(inArray(songRequests.status, ['queued', 'playing']), eq(songRequests.skipWhenPlaying, true)),
        ),
      )
      .orderBy(asc(songRequests.requestedAt), asc(songRequests.id));
  }

  /** Channels with something to follow. */
  async followedChannels(): Promise<string[]> {
    const rows = await this.db
      .selectDistinct({ channelId: songRequests.channelId })
      .from(songRequests)
      .where(or(inArray(songRequests.status, ['pending', 'queued', 'playing']), eq(songRequests.skipWhenPlaying, true)));
    return rows.map((r) => r.channelId);
  }

  /** Requests still `pending` since before `before` (the chat effect that sent them gave up). */
  async stalePending(channelId: string, before: Date): Promise<SongRequestRow[]> {
    return this.db
      .select()
      .from(songRequests)
      .where(and(eq(songRequests.channelId, channelId), eq(songRequests.status, 'pending'), lt(songRequests.requestedAt, before)));
  }

  async active(channelId: string): Promise<SongRequestRow[]> {
    return this.db
      .select()
      .from(songRequests)
      .where(and(eq(songRequests.channelId, channelId), inArray(songRequests.status, WAITING)))
      .orderBy(asc(songRequests.requestedAt), asc(songRequests.id));
  }

  async recent(channelId: string, limit: number): Promise<SongRequestRow[]> {
    return this.db
      .select()
      .from(songRequests)
      .where(and(eq(songRequests.channelId, channelId), inArray(songRequests.status, ['played', 'skipped', 'removed', 'refused'])))
      .orderBy(desc(songRequests.updatedAt), desc(songRequests.id))
      .limit(limit);
  }

  /** The caller's newest request still waiting in the queue (`!wrongsong`). */
  async latestQueuedOf(channelId: string, provider: string, providerUserId: string): Promise<SongRequestRow | null> {
    const [row] = await this.db
      .select()
      .from(songRequests)
      .where(
        and(
          eq(songRequests.channelId, channelId),
          eq(songRequests.provider, provider),
          eq(songRequests.providerUserId, providerUserId),
          eq(songRequests.status, 'queued'),
        ),
      )
      .orderBy(desc(songRequests.requestedAt), desc(songRequests.id))
      .limit(1);
    return row ?? null;
  }

  /** Two wallets became one: requests paid from `from` are refunded to `to`. */
  async walletsMerged(tx: Db, m: { channelId: string; from: string; to: string }): Promise<void> {
    await tx
      .update(songRequests)
      .set({ walletId: m.to })
      .where(and(eq(songRequests.channelId, m.channelId), eq(songRequests.walletId, m.from)));
  }
}
