/**
 * Wallets, identities and the ledger in the database. Every balance change here is a conditional
 * atomic UPDATE (`balance = balance - $1 WHERE balance >= $1`) and a ledger row with an idempotency
 * key, in one transaction: a change delivered twice is applied once, a change the balance cannot
 * cover is refused whole, and a wallet's ledger rows always sum to its balance. Nothing reads a
 * balance and writes it back.
 *
 * Transactions that touch two wallets lock them in id order; a deadlock or serialization failure
 * (possible on PostgreSQL between a batch and a single change) is retried.
 */
import { createHash } from 'node:crypto';
import { and, asc, desc, eq, gt, inArray, isNotNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { LedgerKind, PointSettings } from '@greenroom/contracts/api/points';
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { jsonParam } from '../../db/json-param';
import {
  pointGambleLosses,
  pointIdentities,
  pointLedger,
  pointLinkCodes,
  pointSettings,
  pointWallets,
  pointWatchTicks,
} from '../../db/schema';
import { newId } from '../../lib/ids';

export interface IdentityInput {
  provider: ChannelProviderId;
  providerUserId: string;
  login: string;
  displayName: string;
}

export interface WalletRow {
  id: string;
  channelId: string;
  balance: number;
  displayName: string;
  updatedAt: Date;
}

export interface IdentityRow {
  walletId: string;
  provider: ChannelProviderId;
  providerUserId: string;
  login: string;
  displayName: string;
  banned: boolean;
  linkedAt: Date;
}

/** A credit earned by a viewer (chat, an activity, watch time), applied in batches. */
export interface EarnEntry {
  channelId: string;
  identity: IdentityInput;
  amount: number;
  kind: LedgerKind;
  /** Idempotency key: the effect id, or `watch:<tick>:<identity>`. */
  key: string;
}

export interface LedgerRow {
  seq: number;
  at: Date;
  kind: LedgerKind;
  delta: number;
  /** The balance after this row (the running sum of the wallet's rows). */
  balance: number;
  note: string | null;
}

export type ChangeResult =
  | { status: 'applied'; delta: number; balance: number }
  | { status: 'duplicate'; delta: number; balance: number; data: Record<string, unknown> | null }
  | { status: 'insufficient'; balance: number };

export type PlayResult =
  | { status: 'applied'; balance: number }
  | { status: 'duplicate'; balance: number; data: Record<string, unknown> | null }
  | { status: 'insufficient'; balance: number }
  /** The loss cap: `remaining` is what the viewer may still lose this stream. */
  | { status: 'capped'; remaining: number };

export interface PlayInput {
  channelId: string;
  walletId: string;
  stake: number;
  payout: number;
  kind: LedgerKind;
  key: string;
  note: string;
  /** The outcome, answered again when the play is delivered again. */
  data: Record<string, unknown>;
  lossCap: { streamKey: string; cap: number } | null;
}

export type JoinResult =
  | { status: 'joined'; walletId: string; balance: number; moved: number }
  | { status: 'same_wallet' }
  | { status: 'same_platform'; provider: ChannelProviderId };

export interface LinkCodeRow {
  code: string;
  provider: ChannelProviderId;
  providerUserId: string;
  displayName: string;
  expiresAt: Date;
  used: IdentityInput | null;
  usedAt: Date | null;
}

/** Work another feature does when two wallets become one (move its rows from `from` to `to`), in the same transaction. */
export type WalletsMergedHook = (tx: Db, merge: { channelId: string; from: string; to: string }) => Promise<void>;

/** A refusal inside a transaction: rolls it back and becomes the operation's answer. */
class Refusal<T> extends Error {
  constructor(readonly result: T) {
    super('refused');
  }
}

/** The wallet a new identity gets: derived from the identity, so two racing creations make one wallet. */
export function walletIdFor(channelId: string, provider: string, providerUserId: string): string {
  return `w_${createHash('sha256').update(`${channelId}\u0000${provider}\u0000${providerUserId}`).digest('base64url').slice(0, 24)}`;
}

/** `walletIdFor` in SQL, of the columns `channel_id`, `provider`, `provider_user_id` of `row` (a test pins that they agree). */
export const walletIdSql = (row: string): string =>
  `'w_' || left(translate(encode(sha256(convert_to(${row}.channel_id, 'UTF8') || '\\x00'::bytea || convert_to(${row}.provider, 'UTF8')
    || '\\x00'::bytea || convert_to(${row}.provider_user_id, 'UTF8')), 'base64'), '+/=', '-_'), 24)`;

/**
 * A batch of earnings credited as CTEs of ONE statement (so they can ride in the statement that
 * stores the chat messages that earned them, see `createEarnHandler`): `input` names a relation with
 * the columns `channel_id`, `provider`, `provider_user_id`, `login`, `display_name`, `amount`,
 * `kind`, `key` (the ledger's idempotency key) and `ord` (the batch's order). The CTEs are named
 * `earn_*`; `earn_ledger` returns the ledger rows inserted (the entries applied).
 *
 * - Each entry's identity is looked up (a primary-key probe); a missing one gets its derived wallet
 *   (`walletIdFor`), and missing or renamed identities are upserted (latest names of the batch).
 * - ONE insert of every ledger row in key order (a key seen before — a retried or duplicated
 *   event, also within the batch — is skipped by the unique key); wallets with a banned identity and
 *   entries of 0 or less earn nothing. Key order, not the batch's: two batches carrying the same
 *   redelivered events would otherwise each wait on the other's uncommitted key (a deadlock, found
 *   only after PostgreSQL's `deadlock_timeout`, a second, then retried).
 * - ONE upsert of the wallets: the new identities' wallets are inserted, and each wallet's balance
 *   is raised by the sum of its new ledger rows, in id order (the order every other writer locks
 *   wallets in, so two transactions do not wait on each other in a circle; a deadlock is retried by
 *   `earn`). An upsert, not an UPDATE, because the sub-statements of one statement share one snapshot:
 *   an UPDATE would not see a wallet inserted beside it.
 * The foreign keys (ledger and identity → wallet) are checked at the end of the statement, when the
 * wallets are there. The identity's wallet is read from the statement's snapshot: on PostgreSQL an
 * identity made by another transaction after it began is found by the identity upsert (its conflict),
 * and as every new identity gets its derived wallet, both name the same one.
 */
export function earnCtes(input: string): string {
  return `earn_target AS (
    SELECT t.channel_id, t.provider, t.provider_user_id, t.login, t.display_name, t.amount, t.kind, t.key, t.ord,
      i.wallet_id IS NULL AS is_new, coalesce(i.wallet_id, ${walletIdSql('t')}) AS wallet_id,
      i.login IS DISTINCT FROM t.login OR i.display_name IS DISTINCT FROM t.display_name AS renamed,
      EXISTS (SELECT 1 FROM point_identities b WHERE b.wallet_id = i.wallet_id AND b.banned) AS banned
    FROM ${input} t
    -- A primary-key probe per credit (LIMIT keeps the planner from turning it into a join that scans every
    -- identity of a large channel per batch, as it does without statistics on PGlite).
    LEFT JOIN LATERAL (SELECT wallet_id, login, display_name FROM point_identities
      WHERE channel_id = t.channel_id AND provider = t.provider AND provider_user_id = t.provider_user_id LIMIT 1) i ON true
    WHERE t.amount > 0
  ), earn_identities AS (
    INSERT INTO point_identities AS i (channel_id, provider, provider_user_id, wallet_id, login, display_name)
    SELECT channel_id, provider, provider_user_id, wallet_id, login, display_name FROM (
      SELECT DISTINCT ON (channel_id, provider, provider_user_id) * FROM earn_target
      ORDER BY channel_id, provider, provider_user_id, ord DESC
    ) latest WHERE renamed
    ON CONFLICT (channel_id, provider, provider_user_id) DO UPDATE SET login = excluded.login, display_name = excluded.display_name
    WHERE i.login IS DISTINCT FROM excluded.login OR i.display_name IS DISTINCT FROM excluded.display_name
  ), earn_ledger AS (
    INSERT INTO point_ledger (channel_id, wallet_id, delta, kind, idempotency_key)
    SELECT channel_id, wallet_id, amount, kind, key FROM earn_target WHERE NOT banned ORDER BY channel_id, key, ord
    ON CONFLICT (channel_id, idempotency_key) DO NOTHING
    RETURNING channel_id, wallet_id, delta
  ), earn_wallets AS (
    INSERT INTO point_wallets AS w (id, channel_id, display_name, balance)
    SELECT wallet_id, min(channel_id), coalesce((array_agg(display_name ORDER BY ord DESC) FILTER (WHERE display_name IS NOT NULL))[1], ''),
      sum(delta)
    FROM (
      SELECT wallet_id, channel_id, display_name, ord, 0 AS delta FROM earn_target WHERE is_new
      UNION ALL SELECT wallet_id, channel_id, NULL, NULL, delta FROM earn_ledger
    ) c GROUP BY wallet_id ORDER BY wallet_id
    ON CONFLICT (id) DO UPDATE SET balance = w.balance + excluded.balance, updated_at = now()
    WHERE excluded.balance <> 0
  )`;
}

/** Wallets after `after` in leaderboard order (balance descending, then id): a range on `point_wallets_rank`. */
function afterWallet(after: { balance: number; id: string }): SQL[] {
  return [sql`${pointWallets.balance} <= ${after.balance}`, or(lt(pointWallets.balance, after.balance), gt(pointWallets.id, after.id))!];
}

const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

/** Identities looked up per statement. */
const LOOKUP_CHUNK = 100;

const RETRYABLE = new Set(['40P01', '40001']);
function isRetryable(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && RETRYABLE.has(code)) return true;
  }
  return false;
}

const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v));

/**
 * Ledger primitives for use inside a caller's transaction (giveaway tickets and refunds use them
 * with their own rows, so a ticket and its payment commit together).
 */
export class PointsLedger {
  /** A change already recorded under this key, if any. */
  async existing(tx: Db, channelId: string, key: string): Promise<{ delta: number; data: Record<string, unknown> | null } | null> {
    const [row] = await tx
      .select({ delta: pointLedger.delta, data: pointLedger.data })
      .from(pointLedger)
      .where(and(eq(pointLedger.channelId, channelId), eq(pointLedger.idempotencyKey, key)))
      .limit(1);
    return row ? { delta: num(row.delta), data: row.data ?? null } : null;
  }

  /** Takes `amount` if the balance covers it; the new balance, or null (nothing changed). */
  async take(tx: Db, walletId: string, amount: number): Promise<number | null> {
    const [row] = await tx
      .update(pointWallets)
      .set({ balance: sql`${pointWallets.balance} - ${amount}`, updatedAt: sql`now()` })
      .where(and(eq(pointWallets.id, walletId), sql`${pointWallets.balance} >= ${amount}`))
      .returning({ balance: pointWallets.balance });
    return row ? num(row.balance) : null;
  }

  /** Adds `amount` (≥ 0) to the wallet a merged wallet now lives in; the wallet id and new balance. */
  async put(tx: Db, walletId: string, amount: number): Promise<{ walletId: string; balance: number }> {
    const [row] = await tx
      .update(pointWallets)
      .set({ balance: sql`${pointWallets.balance} + ${amount}`, updatedAt: sql`now()` })
      .where(eq(pointWallets.id, walletId))
      .returning({ id: pointWallets.id, balance: pointWallets.balance });
    if (!row) throw new Error(`wallet ${walletId} is gone`);
    return { walletId: row.id, balance: num(row.balance) };
  }

  /** Records a change; false when its key was already used (the caller rolls back). */
  async record(
    tx: Db,
    row: {
      channelId: string;
      walletId: string;
      delta: number;
      kind: LedgerKind;
      key: string;
      note?: string | null;
      actorUserId?: string | null;
      data?: Record<string, unknown> | null;
    },
  ): Promise<boolean> {
    const inserted = await tx
      .insert(pointLedger)
      .values({
        channelId: row.channelId,
        walletId: row.walletId,
        delta: row.delta,
        kind: row.kind,
        idempotencyKey: row.key,
        note: row.note ?? null,
        actorUserId: row.actorUserId ?? null,
        data: row.data ?? null,
      })
      .onConflictDoNothing({ target: [pointLedger.channelId, pointLedger.idempotencyKey] })
      .returning({ seq: pointLedger.seq });
    return inserted.length > 0;
  }

  /**
   * Pays `amount` out of a wallet inside the caller's transaction, recorded under `key`. Throws
   * `InsufficientPoints` when the balance does not cover it (the caller's transaction rolls back).
   * A key already used answers `duplicate` without changing anything.
   */
  async debit(
    tx: Db,
    op: { channelId: string; walletId: string; amount: number; kind: LedgerKind; key: string; note?: string | null },
  ): Promise<'applied' | 'duplicate'> {
    if (await this.existing(tx, op.channelId, op.key)) return 'duplicate';
    const balance = await this.take(tx, op.walletId, op.amount);
    if (balance === null) throw new InsufficientPoints(await this.balance(tx, op.walletId));
    if (!(await this.record(tx, { ...op, delta: -op.amount }))) throw new DuplicateChange();
    return 'applied';
  }

  /** Pays `amount` into a wallet inside the caller's transaction, once per `key`. */
  async credit(
    tx: Db,
    op: { channelId: string; walletId: string; amount: number; kind: LedgerKind; key: string; note?: string | null },
  ): Promise<'applied' | 'duplicate'> {
    if (!(await this.record(tx, { ...op, delta: op.amount }))) return 'duplicate';
    await this.put(tx, op.walletId, op.amount);
    return 'applied';
  }

  async balance(tx: Db, walletId: string): Promise<number> {
    const [row] = await tx.select({ balance: pointWallets.balance }).from(pointWallets).where(eq(pointWallets.id, walletId));
    return row ? num(row.balance) : 0;
  }
}

export class InsufficientPoints extends Error {
  constructor(readonly balance: number) {
    super('insufficient points');
  }
}
/** The same key was recorded by a concurrent transaction; the caller rolls back and reads the outcome. */
export class DuplicateChange extends Error {
  constructor() {
    super('duplicate change');
  }
}

export class DbPointsRepository {
  readonly ledgerOps = new PointsLedger();
  private readonly mergedHooks: WalletsMergedHook[] = [];

  constructor(private readonly db: Db) {}

  /** Registers work to do in the transaction that merges two wallets (giveaway entries, queue places). */
  onWalletsMerged(hook: WalletsMergedHook): void {
    this.mergedHooks.push(hook);
  }

  /** Runs `work` (a statement or a whole transaction) again on a deadlock or serialization failure, up to 5 times. */
  private async retried<T>(work: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await work();
      } catch (error) {
        if (attempt < 5 && isRetryable(error)) continue;
        throw error;
      }
    }
  }

  /** Runs `work` in a transaction, retried on deadlock or serialization failure; a Refusal rolls back and is the answer. */
  private async tx<T>(work: (tx: Db) => Promise<T>): Promise<T> {
    try {
      return await this.retried(() => this.db.transaction(async (tx) => work(tx as unknown as Db)));
    } catch (error) {
      if (error instanceof Refusal) return error.result as T;
      throw error;
    }
  }

  // Settings ---------------------------------------------------------------------------------

  async allSettings(): Promise<Map<string, PointSettings>> {
    const rows = await this.db.select().from(pointSettings);
    return new Map(rows.map((r) => [r.channelId, r.settings]));
  }

  async settings(channelId: string): Promise<PointSettings | null> {
    const [row] = await this.db.select().from(pointSettings).where(eq(pointSettings.channelId, channelId));
    return row?.settings ?? null;
  }

  async saveSettings(channelId: string, settings: PointSettings): Promise<void> {
    await this.db
      .insert(pointSettings)
      .values({ channelId, settings })
      .onConflictDoUpdate({ target: pointSettings.channelId, set: { settings, updatedAt: sql`now()` } });
  }

  // Wallets ----------------------------------------------------------------------------------

  /** The wallet of an identity, created (with the identity) on first sight; the stored names follow the platform's. */
  async wallet(channelId: string, identity: IdentityInput): Promise<WalletRow> {
    const ids = await this.resolve(this.db, [{ channelId, identity }]);
    const walletId = ids.get(keyOf(channelId, identity))!.walletId;
    const [row] = await this.db.select().from(pointWallets).where(eq(pointWallets.id, walletId));
    return toWallet(row!);
  }

  /** The wallet of an identity if it has one (nothing is created). */
  async findWallet(channelId: string, identity: Pick<IdentityInput, 'provider' | 'providerUserId'>): Promise<WalletRow | null> {
    const [row] = await this.db
      .select({ wallet: pointWallets })
      .from(pointIdentities)
      .innerJoin(pointWallets, eq(pointWallets.id, pointIdentities.walletId))
      .where(
        and(
          eq(pointIdentities.channelId, channelId),
          eq(pointIdentities.provider, identity.provider),
          eq(pointIdentities.providerUserId, identity.providerUserId),
        ),
      );
    return row ? toWallet(row.wallet) : null;
  }

  async walletById(channelId: string, walletId: string): Promise<WalletRow | null> {
    const [row] = await this.db
      .select()
      .from(pointWallets)
      .where(and(eq(pointWallets.channelId, channelId), eq(pointWallets.id, walletId)));
    return row ? toWallet(row) : null;
  }

  /** The wallet of a viewer named in chat (`@login`), preferring the given platform. */
  async walletByLogin(
    channelId: string,
    login: string,
    prefer: ChannelProviderId,
  ): Promise<{ wallet: WalletRow; identity: IdentityRow } | null> {
    const [row] = await this.db
      .select({ identity: pointIdentities, wallet: pointWallets })
      .from(pointIdentities)
      .innerJoin(pointWallets, eq(pointWallets.id, pointIdentities.walletId))
      .where(
        and(
          eq(pointIdentities.channelId, channelId),
          or(
            sql`lower(${pointIdentities.login}) = ${login.toLowerCase()}`,
            sql`lower(${pointIdentities.displayName}) = ${login.toLowerCase()}`,
          ),
        ),
      )
      .orderBy(sql`(${pointIdentities.provider} = ${prefer}) DESC`, desc(pointIdentities.linkedAt))
      .limit(1);
    return row ? { wallet: toWallet(row.wallet), identity: toIdentity(row.identity) } : null;
  }

  async identities(walletIds: string[]): Promise<Map<string, IdentityRow[]>> {
    const out = new Map<string, IdentityRow[]>();
    if (walletIds.length === 0) return out;
    const rows = await this.db
      .select()
      .from(pointIdentities)
      .where(inArray(pointIdentities.walletId, walletIds))
      .orderBy(asc(pointIdentities.linkedAt));
    for (const r of rows) {
      const list = out.get(r.walletId) ?? [];
      list.push(toIdentity(r));
      out.set(r.walletId, list);
    }
    return out;
  }

  async identity(channelId: string, provider: ChannelProviderId, providerUserId: string): Promise<IdentityRow | null> {
    const [row] = await this.db
      .select()
      .from(pointIdentities)
      .where(
        and(
          eq(pointIdentities.channelId, channelId),
          eq(pointIdentities.provider, provider),
          eq(pointIdentities.providerUserId, providerUserId),
        ),
      );
    return row ? toIdentity(row) : null;
  }

  /** 1 + wallets with a higher balance (equal balances share a rank). */
  async rank(channelId: string, balance: number): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`count(*)` })
      .from(pointWallets)
      .where(and(eq(pointWallets.channelId, channelId), gt(pointWallets.balance, balance)));
    return 1 + num(row?.n ?? 0);
  }

  /**
   * The leaderboard: wallets that still have an identity, highest balance first (ties by id), after
   * `after` (the last row of the previous page), optionally searched by name. A keyset page read in
   * the order of `point_wallets_rank`, however deep.
   */
  async list(channelId: string, q: { search?: string; after?: { balance: number; id: string }; limit: number }): Promise<WalletRow[]> {
    const rows = await this.db
      .select()
      .from(pointWallets)
      .where(and(...this.listConditions(channelId, q.search), ...(q.after ? afterWallet(q.after) : [])))
      .orderBy(desc(pointWallets.balance), asc(pointWallets.id))
      .limit(q.limit);
    return rows.map(toWallet);
  }

  /** How many wallets the leaderboard (or a search of it) holds, counted up to `max` (null: more than that). */
  async countUpTo(channelId: string, search: string | undefined, max: number): Promise<number | null> {
    const first = this.db
      .select({ one: sql`1`.as('one') })
      .from(pointWallets)
      .where(and(...this.listConditions(channelId, search)))
      .limit(max + 1)
      .as('capped');
    const [row] = await this.db.select({ n: sql<number>`count(*)::int` }).from(first);
    const n = num(row?.n ?? 0);
    return n <= max ? n : null;
  }

  private listConditions(channelId: string, search: string | undefined): SQL[] {
    const conditions: SQL[] = [
      eq(pointWallets.channelId, channelId),
      sql`EXISTS (SELECT 1 FROM ${pointIdentities} i WHERE i.wallet_id = ${pointWallets.id})`,
    ];
    if (search) {
      const pattern = `%${search.replace(/[\\%_]/gu, (c) => `\\${c}`)}%`;
      conditions.push(
        sql`EXISTS (SELECT 1 FROM ${pointIdentities} i WHERE i.wallet_id = ${pointWallets.id} AND (i.login ILIKE ${pattern} OR i.display_name ILIKE ${pattern}))`,
      );
    }
    return conditions;
  }

  /** A wallet's ledger, newest first, each row with the balance after it. */
  async ledger(walletId: string, q: { beforeSeq?: number; limit: number }): Promise<LedgerRow[]> {
    const running = sql<number>`sum(${pointLedger.delta}) OVER (ORDER BY ${pointLedger.seq})`;
    const inner = this.db
      .select({
        seq: pointLedger.seq,
        at: pointLedger.createdAt,
        kind: pointLedger.kind,
        delta: pointLedger.delta,
        note: pointLedger.note,
        balance: running.as('balance'),
      })
      .from(pointLedger)
      .where(eq(pointLedger.walletId, walletId))
      .as('l');
    const rows = await this.db
      .select()
      .from(inner)
      .where(q.beforeSeq !== undefined ? lt(inner.seq, q.beforeSeq) : undefined)
      .orderBy(desc(inner.seq))
      .limit(q.limit);
    return rows.map((r) => ({ seq: num(r.seq), at: r.at, kind: r.kind, delta: num(r.delta), balance: num(r.balance), note: r.note }));
  }

  /** The sum of a wallet's ledger rows (tests and the consistency check). */
  async ledgerSum(walletId: string): Promise<number> {
    const [row] = await this.db
      .select({ s: sql<number>`coalesce(sum(${pointLedger.delta}), 0)` })
      .from(pointLedger)
      .where(eq(pointLedger.walletId, walletId));
    return num(row?.s ?? 0);
  }

  async setBanned(channelId: string, identity: IdentityInput, banned: boolean): Promise<void> {
    await this.resolve(this.db, [{ channelId, identity }]);
    await this.db
      .update(pointIdentities)
      .set({ banned })
      .where(
        and(
          eq(pointIdentities.channelId, channelId),
          eq(pointIdentities.provider, identity.provider),
          eq(pointIdentities.providerUserId, identity.providerUserId),
        ),
      );
  }

  // Changes ----------------------------------------------------------------------------------

  /**
   * Credits a batch of earnings: ONE statement (`earnCtes`), a transaction of its own, retried on a
   * deadlock. Returns the entries applied.
   */
  async earn(entries: readonly EarnEntry[]): Promise<number> {
    const credits = entries.filter((e) => e.amount > 0);
    if (credits.length === 0) return 0;
    return this.retried(() => this.earnIn(this.db, credits));
  }

  /** `earn`'s statement in the caller's transaction (a deadlock is not retried here: the caller's transaction fails whole). */
  async earnIn(tx: Db, entries: readonly EarnEntry[]): Promise<number> {
    // One-letter names and the batch's order from WITH ORDINALITY: a third less JSON to build, send and parse a row.
    const records = entries.map((e) => ({
      c: e.channelId,
      p: e.identity.provider,
      u: e.identity.providerUserId,
      l: e.identity.login,
      d: e.identity.displayName,
      a: e.amount,
      k: e.kind,
      y: e.key,
    }));
    const [row] = rowsOf<{ applied: unknown }>(
      await tx.execute(sql`
        WITH earn_entries AS (
          SELECT t.c AS channel_id, t.p AS provider, t.u AS provider_user_id, t.l AS login, t.d AS display_name,
            t.a AS amount, t.k AS kind, t.y AS key, t.ord
          FROM ROWS FROM (json_to_recordset(${jsonParam(records)}) AS (c text, p text, u text, l text, d text, a bigint, k text, y text))
            WITH ORDINALITY AS t(c, p, u, l, d, a, k, y, ord)
        ), ${sql.raw(earnCtes('earn_entries'))}
        SELECT count(*) AS applied FROM earn_ledger`),
    );
    return num(row?.applied ?? 0);
  }

  /**
   * A single credit or debit (staff adjustments, `!addpoints`, `!removepoints`). A debit larger than
   * the balance is refused, or with `clamp` takes what there is.
   */
  async change(op: {
    channelId: string;
    walletId: string;
    delta: number;
    kind: LedgerKind;
    key: string;
    note?: string | null;
    actorUserId?: string | null;
    clamp?: boolean;
    /** Runs in the change's transaction once it is applied (the audit row of a staff adjustment). */
    also?: (tx: Db, applied: { delta: number; balance: number }) => Promise<void>;
  }): Promise<ChangeResult> {
    return this.tx(async (tx): Promise<ChangeResult> => {
      const seen = await this.ledgerOps.existing(tx, op.channelId, op.key);
      if (seen) return { status: 'duplicate', delta: seen.delta, balance: await this.ledgerOps.balance(tx, op.walletId), data: seen.data };
      let delta = op.delta;
      let balance: number;
      if (delta >= 0) balance = (await this.ledgerOps.put(tx, op.walletId, delta)).balance;
      else if (op.clamp) {
        const [row] = rowsOf<{ before: unknown; after: unknown }>(
          await tx.execute(sql`
            UPDATE ${pointWallets} AS w SET balance = w.balance - LEAST(w.balance, ${-delta}::bigint), updated_at = now()
            FROM (SELECT id, balance FROM ${pointWallets} WHERE id = ${op.walletId} FOR UPDATE) AS o
            WHERE w.id = o.id
            RETURNING o.balance AS before, w.balance AS after`),
        );
        if (!row) throw new Error(`wallet ${op.walletId} is gone`);
        balance = num(row.after);
        delta = balance - num(row.before);
      } else {
        const after = await this.ledgerOps.take(tx, op.walletId, -delta);
        if (after === null)
          throw new Refusal<ChangeResult>({ status: 'insufficient', balance: await this.ledgerOps.balance(tx, op.walletId) });
        balance = after;
      }
      if (!(await this.ledgerOps.record(tx, { ...op, delta }))) throw new DuplicateChange();
      await op.also?.(tx, { delta, balance });
      return { status: 'applied', delta, balance };
    }).catch((error: unknown) => (error instanceof DuplicateChange ? this.change(op) : Promise.reject(asError(error))));
  }

  /** Moves points from one wallet to another (`!give`): refused whole when the giver's balance does not cover it. */
  async give(op: {
    channelId: string;
    from: string;
    to: string;
    amount: number;
    key: string;
    noteOut: string;
    noteIn: string;
  }): Promise<ChangeResult> {
    return this.tx(async (tx): Promise<ChangeResult> => {
      const seen = await this.ledgerOps.existing(tx, op.channelId, `${op.key}:out`);
      if (seen) return { status: 'duplicate', delta: seen.delta, balance: await this.ledgerOps.balance(tx, op.from), data: seen.data };
      // Lock order by id: two gives between the same wallets in opposite directions cannot deadlock.
      let balance: number | null = null;
      if (op.from < op.to) {
        balance = await this.ledgerOps.take(tx, op.from, op.amount);
        if (balance !== null) await this.ledgerOps.put(tx, op.to, op.amount);
      } else {
        await this.ledgerOps.put(tx, op.to, op.amount);
        balance = await this.ledgerOps.take(tx, op.from, op.amount);
      }
      if (balance === null) throw new Refusal<ChangeResult>({ status: 'insufficient', balance: await this.ledgerOps.balance(tx, op.from) });
      const out = await this.ledgerOps.record(tx, {
        channelId: op.channelId,
        walletId: op.from,
        delta: -op.amount,
        kind: 'give',
        key: `${op.key}:out`,
        note: op.noteOut,
      });
      const into = await this.ledgerOps.record(tx, {
        channelId: op.channelId,
        walletId: op.to,
        delta: op.amount,
        kind: 'give',
        key: `${op.key}:in`,
        note: op.noteIn,
      });
      if (!out || !into) throw new DuplicateChange();
      return { status: 'applied', delta: -op.amount, balance };
    }).catch((error: unknown) => (error instanceof DuplicateChange ? this.give(op) : Promise.reject(asError(error))));
  }

  /**
   * One play of a game: the stake is taken and the payout added in one conditional update (refused
   * whole when the balance does not cover the stake), with one ledger row of the net change carrying
   * the outcome (`data`) so a re-delivered play answers the same outcome. With a loss cap, the
   * viewer's net loss this stream plus the stake must stay within it.
   */
  async play(op: PlayInput): Promise<PlayResult> {
    return this.tx(async (tx): Promise<PlayResult> => {
      const seen = await this.ledgerOps.existing(tx, op.channelId, op.key);
      if (seen) return { status: 'duplicate', balance: await this.ledgerOps.balance(tx, op.walletId), data: seen.data };
      if (op.lossCap) {
        const { streamKey, cap } = op.lossCap;
        const net = op.stake - op.payout;
        const counted = rowsOf<{ net_loss: unknown }>(
          await tx.execute(sql`
            INSERT INTO ${pointGambleLosses} (wallet_id, stream_key, net_loss)
            SELECT ${op.walletId}, ${streamKey}, ${net}::bigint WHERE ${op.stake}::bigint <= ${cap}::bigint
            ON CONFLICT (wallet_id, stream_key) DO UPDATE SET net_loss = ${pointGambleLosses}.net_loss + excluded.net_loss
            WHERE ${pointGambleLosses}.net_loss + ${op.stake}::bigint <= ${cap}::bigint
            RETURNING net_loss`),
        );
        if (counted.length === 0) {
          const [row] = await tx
            .select({ netLoss: pointGambleLosses.netLoss })
            .from(pointGambleLosses)
            .where(and(eq(pointGambleLosses.walletId, op.walletId), eq(pointGambleLosses.streamKey, streamKey)));
          throw new Refusal<PlayResult>({ status: 'capped', remaining: Math.max(0, cap - num(row?.netLoss ?? 0)) });
        }
      }
      const [row] = await tx
        .update(pointWallets)
        .set({ balance: sql`${pointWallets.balance} - ${op.stake} + ${op.payout}`, updatedAt: sql`now()` })
        .where(and(eq(pointWallets.id, op.walletId), sql`${pointWallets.balance} >= ${op.stake}`))
        .returning({ balance: pointWallets.balance });
      if (!row) throw new Refusal<PlayResult>({ status: 'insufficient', balance: await this.ledgerOps.balance(tx, op.walletId) });
      const recorded = await this.ledgerOps.record(tx, {
        channelId: op.channelId,
        walletId: op.walletId,
        delta: op.payout - op.stake,
        kind: op.kind,
        key: op.key,
        note: op.note,
        data: op.data,
      });
      if (!recorded) throw new DuplicateChange();
      return { status: 'applied', balance: num(row.balance) };
    }).catch((error: unknown) => (error instanceof DuplicateChange ? this.play(op) : Promise.reject(asError(error))));
  }

  /** What a viewer lost at the games this stream (negative: won). */
  async gambleNetLoss(walletId: string, streamKey: string): Promise<number> {
    const [row] = await this.db
      .select({ netLoss: pointGambleLosses.netLoss })
      .from(pointGambleLosses)
      .where(and(eq(pointGambleLosses.walletId, walletId), eq(pointGambleLosses.streamKey, streamKey)));
    return num(row?.netLoss ?? 0);
  }

  // Watch-time ticks -------------------------------------------------------------------------

  /**
   * Claims a channel's payout for one tick: true for exactly one claimer. A claim still running may
   * be taken again by its claimer (a retry after a failed payout) and by anyone after `staleMs` (a
   * process that stopped); the payout's ledger keys keep each viewer paid once. The claim's time is
   * the `created_at` column (`claimedAt` in the schema), renewed by each claim.
   */
  async claimTick(channelId: string, tickAt: Date, claimer: string, staleMs: number): Promise<boolean> {
    const rows = rowsOf<{ tick_at: unknown }>(
      await this.db.execute(sql`
        INSERT INTO ${pointWatchTicks} (channel_id, tick_at, status, claimed_by)
        VALUES (${channelId}, ${tickAt.toISOString()}::timestamptz, 'running', ${claimer})
        ON CONFLICT (channel_id, tick_at) DO UPDATE SET claimed_by = excluded.claimed_by, created_at = now()
        WHERE ${pointWatchTicks}.status = 'running' AND (${pointWatchTicks}.claimed_by = excluded.claimed_by
          OR ${pointWatchTicks}.created_at < now() - ${`${Math.round(staleMs)} milliseconds`}::interval)
        RETURNING tick_at`),
    );
    return rows.length > 0;
  }

  async finishTick(channelId: string, tickAt: Date, viewers: number): Promise<void> {
    await this.db
      .update(pointWatchTicks)
      .set({ status: 'done', viewers, finishedAt: sql`now()` })
      .where(and(eq(pointWatchTicks.channelId, channelId), eq(pointWatchTicks.tickAt, tickAt)));
  }

  // Linking ----------------------------------------------------------------------------------

  /** Stores a new code for an identity (its earlier codes go); false when the code is taken (try another). */
  async createLinkCode(channelId: string, identity: IdentityInput, code: string, expiresAt: Date): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      await tx
        .delete(pointLinkCodes)
        .where(
          and(
            eq(pointLinkCodes.channelId, channelId),
            or(
              and(eq(pointLinkCodes.provider, identity.provider), eq(pointLinkCodes.providerUserId, identity.providerUserId)),
              lt(pointLinkCodes.expiresAt, sql`now()`),
            ),
          ),
        );
      const inserted = await tx
        .insert(pointLinkCodes)
        .values({
          channelId,
          code,
          provider: identity.provider,
          providerUserId: identity.providerUserId,
          displayName: identity.displayName,
          expiresAt,
        })
        .onConflictDoNothing()
        .returning({ code: pointLinkCodes.code });
      return inserted.length > 0;
    });
  }

  async linkCode(channelId: string, code: string): Promise<LinkCodeRow | null> {
    const [row] = await this.db
      .select()
      .from(pointLinkCodes)
      .where(and(eq(pointLinkCodes.channelId, channelId), eq(pointLinkCodes.code, code)));
    return row ? toLinkCode(row) : null;
  }

  /** Marks a code used by `user` if it is still valid and unused; the code as it now is, or null. */
  async useLinkCode(channelId: string, code: string, user: IdentityInput, now: Date): Promise<LinkCodeRow | null> {
    const [row] = await this.db
      .update(pointLinkCodes)
      .set({
        usedProvider: user.provider,
        usedProviderUserId: user.providerUserId,
        usedLogin: user.login,
        usedDisplayName: user.displayName,
        usedAt: now,
      })
      .where(
        and(
          eq(pointLinkCodes.channelId, channelId),
          eq(pointLinkCodes.code, code),
          gt(pointLinkCodes.expiresAt, now),
          sql`${pointLinkCodes.usedAt} IS NULL`,
        ),
      )
      .returning();
    return row ? toLinkCode(row) : null;
  }

  /** The code an identity made that another identity used and that waits for its confirmation. */
  async pendingLink(
    channelId: string,
    owner: { provider: ChannelProviderId; providerUserId: string },
    now: Date,
  ): Promise<LinkCodeRow | null> {
    const [row] = await this.db
      .select()
      .from(pointLinkCodes)
      .where(
        and(
          eq(pointLinkCodes.channelId, channelId),
          eq(pointLinkCodes.provider, owner.provider),
          eq(pointLinkCodes.providerUserId, owner.providerUserId),
          isNotNull(pointLinkCodes.usedAt),
          gt(pointLinkCodes.expiresAt, now),
        ),
      )
      .orderBy(desc(pointLinkCodes.usedAt))
      .limit(1);
    return row ? toLinkCode(row) : null;
  }

  /**
   * Joins the wallet of `other` into the wallet of `owner` and consumes the code, in one transaction:
   * the other wallet's balance moves over as two ledger rows (`link`), its identities follow, and
   * other features move their rows (hooks). Refused when the two wallets already share a platform.
   */
  async join(channelId: string, code: string, owner: IdentityInput, other: IdentityInput): Promise<JoinResult> {
    return this.tx(async (tx): Promise<JoinResult> => {
      const wallets = await this.resolve(tx, [
        { channelId, identity: owner },
        { channelId, identity: other },
      ]);
      const keep = wallets.get(keyOf(channelId, owner))!.walletId;
      const merge = wallets.get(keyOf(channelId, other))!.walletId;
      await tx.delete(pointLinkCodes).where(and(eq(pointLinkCodes.channelId, channelId), eq(pointLinkCodes.code, code)));
      if (keep === merge) return { status: 'same_wallet' };
      // Lock both wallets in id order before reading their identities.
      await tx.execute(sql`SELECT id FROM ${pointWallets} WHERE id IN (${keep}, ${merge}) ORDER BY id FOR UPDATE`);
      const ids = await tx
        .select({ walletId: pointIdentities.walletId, provider: pointIdentities.provider })
        .from(pointIdentities)
        .where(inArray(pointIdentities.walletId, [keep, merge]));
      const keepProviders = new Set(ids.filter((i) => i.walletId === keep).map((i) => i.provider));
      const clash = ids.find((i) => i.walletId === merge && keepProviders.has(i.provider));
      if (clash) return { status: 'same_platform', provider: clash.provider as ChannelProviderId };
      const [moved] = rowsOf<{ before: unknown }>(
        await tx.execute(sql`
          UPDATE ${pointWallets} AS w SET balance = 0, updated_at = now()
          FROM (SELECT id, balance FROM ${pointWallets} WHERE id = ${merge} FOR UPDATE) AS o
          WHERE w.id = o.id
          RETURNING o.balance AS before`),
      );
      const amount = num(moved?.before ?? 0);
      const linkKey = `link:${newId()}`;
      await this.ledgerOps.record(tx, {
        channelId,
        walletId: merge,
        delta: -amount,
        kind: 'link',
        key: `${linkKey}:out`,
        note: `Joined with ${owner.displayName} (${owner.provider})`,
      });
      await this.ledgerOps.record(tx, {
        channelId,
        walletId: keep,
        delta: amount,
        kind: 'link',
        key: `${linkKey}:in`,
        note: `Joined with ${other.displayName} (${other.provider})`,
      });
      const balance = (await this.ledgerOps.put(tx, keep, amount)).balance;
      await tx
        .update(pointIdentities)
        .set({ walletId: keep, linkedAt: sql`now()` })
        .where(eq(pointIdentities.walletId, merge));
      for (const hook of this.mergedHooks) await hook(tx, { channelId, from: merge, to: keep });
      return { status: 'joined', walletId: keep, balance, moved: amount };
    });
  }

  /**
   * Takes one identity off a shared wallet: it gets a wallet of its own, empty (the points stay with
   * the viewer's other identities). Null when the identity is not linked to another.
   */
  async unlink(channelId: string, provider: ChannelProviderId, providerUserId: string): Promise<{ walletId: string } | null> {
    return this.tx(async (tx) => {
      const [identity] = await tx
        .select()
        .from(pointIdentities)
        .where(
          and(
            eq(pointIdentities.channelId, channelId),
            eq(pointIdentities.provider, provider),
            eq(pointIdentities.providerUserId, providerUserId),
          ),
        )
        .for('update');
      if (!identity) return null;
      const [count] = await tx
        .select({ n: sql<number>`count(*)` })
        .from(pointIdentities)
        .where(eq(pointIdentities.walletId, identity.walletId));
      if (num(count?.n ?? 0) < 2) return null;
      let walletId = walletIdFor(channelId, provider, providerUserId);
      if (walletId === identity.walletId) walletId = `w_${newId()}`;
      await tx
        .insert(pointWallets)
        .values({ id: walletId, channelId, displayName: identity.displayName })
        .onConflictDoUpdate({ target: pointWallets.id, set: { displayName: identity.displayName, updatedAt: sql`now()` } });
      await tx
        .update(pointIdentities)
        .set({ walletId, linkedAt: sql`now()` })
        .where(
          and(
            eq(pointIdentities.channelId, channelId),
            eq(pointIdentities.provider, provider),
            eq(pointIdentities.providerUserId, providerUserId),
          ),
        );
      // The shared wallet keeps the name of an identity still on it.
      await tx.execute(sql`
        UPDATE ${pointWallets} SET display_name = (
          SELECT display_name FROM ${pointIdentities} WHERE wallet_id = ${identity.walletId} ORDER BY linked_at LIMIT 1
        ) WHERE id = ${identity.walletId}`);
      return { walletId };
    });
  }

  // Identity resolution ----------------------------------------------------------------------

  /**
   * Wallet id and banned state for each identity, creating missing identities with their derived
   * wallet. Names are refreshed when they changed on the platform.
   */
  private async resolve(
    tx: Db,
    items: readonly { channelId: string; identity: IdentityInput }[],
  ): Promise<Map<string, { walletId: string; banned: boolean }>> {
    const unique = new Map<string, { channelId: string; identity: IdentityInput }>();
    for (const item of items) unique.set(keyOf(item.channelId, item.identity), item);
    const found = await this.lookup(tx, [...unique.values()]);
    const missing = [...unique.entries()].filter(([k]) => !found.has(k)).map(([, v]) => v);
    if (missing.length > 0) {
      await tx
        .insert(pointWallets)
        .values(
          missing.map((m) => ({
            id: walletIdFor(m.channelId, m.identity.provider, m.identity.providerUserId),
            channelId: m.channelId,
            displayName: m.identity.displayName,
          })),
        )
        .onConflictDoNothing();
      await tx
        .insert(pointIdentities)
        .values(
          missing.map((m) => ({
            channelId: m.channelId,
            provider: m.identity.provider,
            providerUserId: m.identity.providerUserId,
            walletId: walletIdFor(m.channelId, m.identity.provider, m.identity.providerUserId),
            login: m.identity.login,
            displayName: m.identity.displayName,
          })),
        )
        .onConflictDoNothing();
      for (const [k, v] of await this.lookup(tx, missing)) found.set(k, v);
    }
    // Renames on the platform: keep the stored names current (rare; one UPDATE per renamed identity).
    for (const [k, v] of found) {
      const item = unique.get(k)!;
      if (v.login !== item.identity.login || v.displayName !== item.identity.displayName) {
        await tx
          .update(pointIdentities)
          .set({ login: item.identity.login, displayName: item.identity.displayName })
          .where(
            and(
              eq(pointIdentities.channelId, item.channelId),
              eq(pointIdentities.provider, item.identity.provider),
              eq(pointIdentities.providerUserId, item.identity.providerUserId),
            ),
          );
      }
    }
    return new Map([...found].map(([k, v]) => [k, { walletId: v.walletId, banned: v.banned }]));
  }

  private async lookup(
    tx: Db,
    items: readonly { channelId: string; identity: IdentityInput }[],
  ): Promise<Map<string, { walletId: string; banned: boolean; login: string; displayName: string }>> {
    const out = new Map<string, { walletId: string; banned: boolean; login: string; displayName: string }>();
    // In chunks: PGlite fails on a few hundred row values in one IN list ("bad buffer ID", or rows missing).
    for (let at = 0; at < items.length; at += LOOKUP_CHUNK) await this.lookupChunk(tx, items.slice(at, at + LOOKUP_CHUNK), out);
    return out;
  }

  private async lookupChunk(
    tx: Db,
    items: readonly { channelId: string; identity: IdentityInput }[],
    out: Map<string, { walletId: string; banned: boolean; login: string; displayName: string }>,
  ): Promise<void> {
    const rows = rowsOf<{
      channel_id: string;
      provider: string;
      provider_user_id: string;
      wallet_id: string;
      login: string;
      display_name: string;
      banned: boolean;
    }>(
      await tx.execute(sql`
        SELECT i.channel_id, i.provider, i.provider_user_id, i.wallet_id, i.login, i.display_name,
          EXISTS (SELECT 1 FROM ${pointIdentities} b WHERE b.wallet_id = i.wallet_id AND b.banned) AS banned
        FROM ${pointIdentities} i
        WHERE (i.channel_id, i.provider, i.provider_user_id) IN (${sql.join(
          items.map((it) => sql`(${it.channelId}, ${it.identity.provider}, ${it.identity.providerUserId})`),
          sql`, `,
        )})`),
    );
    for (const r of rows) {
      out.set(`${r.channel_id}\u0000${r.provider}\u0000${r.provider_user_id}`, {
        walletId: r.wallet_id,
        banned: r.banned === true || (r.banned as unknown) === 't',
        login: r.login,
        displayName: r.display_name,
      });
    }
  }
}

const keyOf = (channelId: string, i: { provider: string; providerUserId: string }) =>
  `${channelId}\u0000${i.provider}\u0000${i.providerUserId}`;

function toWallet(row: typeof pointWallets.$inferSelect): WalletRow {
  return { id: row.id, channelId: row.channelId, balance: num(row.balance), displayName: row.displayName, updatedAt: row.updatedAt };
}

function toIdentity(row: typeof pointIdentities.$inferSelect): IdentityRow {
  return {
    walletId: row.walletId,
    provider: row.provider as ChannelProviderId,
    providerUserId: row.providerUserId,
    login: row.login,
    displayName: row.displayName,
    banned: row.banned,
    linkedAt: row.linkedAt,
  };
}

function toLinkCode(row: typeof pointLinkCodes.$inferSelect): LinkCodeRow {
  return {
    code: row.code,
    provider: row.provider as ChannelProviderId,
    providerUserId: row.providerUserId,
    displayName: row.displayName,
    expiresAt: row.expiresAt,
    used:
      row.usedProvider && row.usedProviderUserId
        ? {
            provider: row.usedProvider as ChannelProviderId,
            providerUserId: row.usedProviderUserId,
            login: row.usedLogin ?? '',
            displayName: row.usedDisplayName ?? '',
          }
        : null,
    usedAt: row.usedAt,
  };
}
