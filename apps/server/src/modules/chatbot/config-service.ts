/**
 * A channel's whole chatbot configuration — commands, timers, spam filters, quotes — as one versioned JSON document
 * (`chatbotConfigSchema` in contracts): exported, imported into any channel after a preview, and kept as a version
 * after every change so an Editor can restore one.
 *
 * - Export: every command (built-ins by key: their code comes with the channel, their name, level, cooldowns,
 *   platforms and switch are in the document), timer, filter (in order) and quote (by number). Use counts and timer
 *   schedules are state, not configuration: they are not exported and an import keeps the channel's.
 * - Import (merge): each item is checked alone; an invalid one (bad field, unknown built-in, a name that clashes, a
 *   response over the platforms' limit, a regular expression RE2 refuses, twice in the document) is shown and left
 *   out. The others are matched to the channel's — commands by name (built-ins by key), timers and filters by name,
 *   quotes by number — and replace them, or are added. Everything applies in one transaction under the channel's
 *   lock, planned again inside it, so the preview's items are what applies unless the channel changed meanwhile.
 * - Restore (replace): the same with the version's document, and what is not in it is removed (built-ins stay:
 *   they cannot be deleted, only disabled).
 * - Versions: `record` stores the document after a change when it differs from the newest version (a digest), the
 *   newest `CONFIG_VERSIONS_KEPT` are kept.
 */
import { createHash } from 'node:crypto';
import { and, asc, desc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  CHATBOT_CONFIG_FORMAT,
  CHATBOT_CONFIG_VERSION,
  CONFIG_VERSIONS_KEPT,
  chatbotConfigEnvelopeSchema,
  configCommandSchema,
  configQuoteSchema,
  filterBodySchema,
  timerBodySchema,
  type ChatbotConfig,
  type ConfigChange,
  type ConfigPlan,
  type ConfigPlanItem,
  type ConfigSection,
  type ConfigVersion,
  type FilterType,
} from '@greenroom/contracts/api/chatbot';
import type { AccessLevelValue } from '@greenroom/contracts/access';
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import type { Db } from '../../db/client';
import { chatbotChannels, chatbotConfigVersions, chatCommands, chatFilters, chatTimers, quotes } from '../../db/schema';
import { AppError, badRequest, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { BuiltinRegistry } from './builtins';
import type { ChatbotState } from './chatbot-state';
import { lockChannel, type CommandService } from './command-service';
import { normaliseName } from './domain/commands';
import { filterValues, validateFilter } from './filter-service';
import type { Tx } from './reply-outcomes';
import { staggered } from './timer-service';

type Exec = Db | Tx;
type CommandRow = typeof chatCommands.$inferSelect;
type TimerRow = typeof chatTimers.$inferSelect;
type FilterRow = typeof chatFilters.$inferSelect;
type QuoteRow = typeof quotes.$inferSelect;

/** Who changed the configuration: a Greenroom user, someone in chat (by name), or Greenroom itself. */
export interface ConfigActor {
  userId: string | null;
  name: string | null;
}

/** One checked item of a document: what it would do and the value to write. */
interface Planned<T, R> {
  key: string;
  change: ConfigChange;
  error: string | null;
  value: T | null;
  target: R | null;
}

interface Plan {
  commands: Planned<z.output<typeof configCommandSchema>, CommandRow>[];
  timers: Planned<z.output<typeof timerBodySchema>, TimerRow>[];
  filters: Planned<z.output<typeof filterBodySchema>, FilterRow>[];
  quotes: Planned<z.output<typeof configQuoteSchema>, QuoteRow>[];
}

/** The first problem zod found, with where (`responses.2: At most 2000 characters`). */
function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0]!;
  return issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message;
}

const keyOf = (raw: unknown, field: string, fallback: string): string => {
  const v = raw && typeof raw === 'object' ? (raw as Record<string, unknown>)[field] : undefined;
  return typeof v === 'string' && v.trim() ? v.trim().slice(0, 100) : typeof v === 'number' ? `#${v}` : fallback;
};

/** The document without its export time: what a version's digest covers. */
function digestOf(doc: ChatbotConfig): string {
  const { exported_at: _at, ...rest } = doc;
  return createHash('sha256').update(JSON.stringify(rest)).digest('hex');
}

export class ChatbotConfigService {
  constructor(
    private readonly deps: {
      db: Db;
      state: ChatbotState;
      builtins: BuiltinRegistry;
      commands: Pick<CommandService, 'checkResponses'>;
      clock?: () => number;
      log: { warn(obj: object, msg?: string): void };
    },
  ) {}

  private now(): number {
    return (this.deps.clock ?? Date.now)();
  }

  async export(channelId: string, exec: Exec = this.deps.db): Promise<ChatbotConfig> {
    const [commands, timers, filters, quoteRows] = [
      await exec.select().from(chatCommands).where(eq(chatCommands.channelId, channelId)).orderBy(asc(chatCommands.name)),
      await exec.select().from(chatTimers).where(eq(chatTimers.channelId, channelId)).orderBy(asc(chatTimers.name), asc(chatTimers.id)),
      await exec
        .select()
        .from(chatFilters)
        .where(eq(chatFilters.channelId, channelId))
        .orderBy(asc(chatFilters.position), asc(chatFilters.id)),
      await exec.select().from(quotes).where(eq(quotes.channelId, channelId)).orderBy(asc(quotes.number)),
    ];
    return {
      format: CHATBOT_CONFIG_FORMAT,
      version: CHATBOT_CONFIG_VERSION,
      exported_at: new Date(this.now()).toISOString(),
      commands: commands.map((c) => ({
        name: c.name,
        aliases: c.aliases,
        builtin: c.builtin,
        responses: c.builtin ? [] : c.responses,
        response_mode: c.responseMode,
        level: c.level as AccessLevelValue,
        global_cooldown_seconds: c.globalCooldownSeconds,
        user_cooldown_seconds: c.userCooldownSeconds,
        platforms: c.platforms as ChannelProviderId[],
        reply_mode: c.replyMode,
        enabled: c.enabled,
      })),
      timers: timers.map((t) => ({
        name: t.name,
        messages: t.messages,
        interval_minutes: t.intervalMinutes,
        min_lines: t.minLines,
        online_only: t.onlineOnly,
        platforms: t.platforms as ChannelProviderId[],
        enabled: t.enabled,
      })),
      filters: filters.map(
        (f) =>
          ({
            name: f.name,
            type: f.type as FilterType,
            settings: f.settings,
            exempt_level: f.exemptLevel as AccessLevelValue,
            action: f.action,
            duration_seconds: f.durationSeconds,
            warn_first: f.warnFirst,
            message: f.message,
            enabled: f.enabled,
          }) as ChatbotConfig['filters'][number],
      ),
      quotes: quoteRows.map((q) => ({ number: q.number, text: q.text, game: q.game, quoted_on: q.quotedOn, added_by: q.addedBy })),
    };
  }

  /** The JSON text of an import: its envelope (400 with what is wrong), items still unchecked. */
  parse(data: string): z.output<typeof chatbotConfigEnvelopeSchema> {
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      const message = 'This is not JSON: choose the file Greenroom exported, unchanged.';
      throw badRequest(message, { data: message });
    }
    const envelope = chatbotConfigEnvelopeSchema.safeParse(json);
    if (!envelope.success) {
      const message = firstIssue(envelope.error);
      throw badRequest(message, { data: message });
    }
    if (envelope.data.version > CHATBOT_CONFIG_VERSION || envelope.data.version < 1) {
      const message = `This export is format version ${envelope.data.version}; this Greenroom reads version ${CHATBOT_CONFIG_VERSION}.`;
      throw badRequest(message, { data: message });
    }
    return envelope.data;
  }

  /** What importing `data` would do (nothing is written). */
  async preview(channelId: string, data: string): Promise<ConfigPlan> {
    const doc = this.parse(data);
    return summary(await this.plan(this.deps.db, channelId, doc, 'merge'), null);
  }

  /** Imports `data` (merge) in one transaction; records a version and returns what was done. */
  async import(channelId: string, data: string, actor: ConfigActor): Promise<ConfigPlan> {
    return this.apply(channelId, this.parse(data), 'merge', actor, 'Imported an export');
  }

  /** Makes the configuration what version `versionId` was (replace); records that as a new version. */
  async restore(channelId: string, versionId: string, actor: ConfigActor): Promise<ConfigPlan> {
    const [row] = await this.deps.db
      .select({ number: chatbotConfigVersions.number, document: chatbotConfigVersions.document })
      .from(chatbotConfigVersions)
      .where(and(eq(chatbotConfigVersions.channelId, channelId), eq(chatbotConfigVersions.id, versionId)));
    if (!row) throw notFound('This version does not exist (the oldest are not kept).');
    const doc = chatbotConfigEnvelopeSchema.parse(row.document);
    return this.apply(channelId, doc, 'replace', actor, `Restored version ${row.number}`);
  }

  private async apply(
    channelId: string,
    doc: z.output<typeof chatbotConfigEnvelopeSchema>,
    mode: 'merge' | 'replace',
    actor: ConfigActor,
    reason: string,
  ): Promise<ConfigPlan> {
    const plan = await this.deps.db.transaction(async (tx) => {
      await lockChannel(tx, channelId);
      const p = await this.plan(tx, channelId, doc, mode);
      await this.write(tx, channelId, p);
      return p;
    });
    await this.deps.state.reloadCommands(channelId);
    await this.deps.state.reloadFilters(channelId);
    const versionId = await this.record(channelId, actor, reason);
    return summary(plan, versionId);
  }

  /** Checks every item against the channel's rows (read through `exec`). */
  private async plan(
    exec: Exec,
    channelId: string,
    doc: z.output<typeof chatbotConfigEnvelopeSchema>,
    mode: 'merge' | 'replace',
  ): Promise<Plan> {
    const [commandRows, timerRows, filterRows, quoteRows] = [
      await exec.select().from(chatCommands).where(eq(chatCommands.channelId, channelId)),
      await exec.select().from(chatTimers).where(eq(chatTimers.channelId, channelId)),
      await exec.select().from(chatFilters).where(eq(chatFilters.channelId, channelId)),
      await exec.select().from(quotes).where(eq(quotes.channelId, channelId)),
    ];
    const plan: Plan = { commands: [], timers: [], filters: [], quotes: [] };
    const invalid = <T, R>(key: string, error: string): Planned<T, R> => ({ key, change: 'invalid', error, value: null, target: null });

    // Commands: parse, find each one's row, then check names against what stays and what was taken before it.
    const parsed: Planned<z.output<typeof configCommandSchema>, CommandRow>[] = [];
    const seen = new Set<string>();
    for (const [i, raw] of doc.commands.entries()) {
      const key = keyOf(raw, 'name', `Command ${i + 1}`);
      const r = configCommandSchema.safeParse(raw);
      if (!r.success) {
        parsed.push(invalid(key, firstIssue(r.error)));
        continue;
      }
      const c = r.data;
      const name = normaliseName(c.name);
      let target: CommandRow | null;
      if (c.builtin !== null) {
        if (!this.deps.builtins.get(c.builtin)) {
          parsed.push(invalid(name, `Greenroom has no built-in command "${c.builtin}".`));
          continue;
        }
        target = commandRows.find((row) => row.builtin === c.builtin) ?? null;
      } else {
        target = commandRows.find((row) => row.name === name) ?? null;
        if (target?.builtin) {
          parsed.push(invalid(name, `${name} is a built-in command of this channel.`));
          continue;
        }
      }
      const self = c.builtin ?? name;
      if (seen.has(self)) {
        parsed.push(invalid(name, `${name} is in the export twice; the first is used.`));
        continue;
      }
      seen.add(self);
      if (c.builtin === null) {
        try {
          await this.deps.commands.checkResponses(channelId, c, exec);
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          parsed.push(invalid(name, error.message));
          continue;
        }
      }
      parsed.push({
        key: name,
        change: target ? (sameCommand(target, c) ? 'unchanged' : 'replace') : 'add',
        error: null,
        value: c,
        target,
      });
    }
    const targeted = new Set(parsed.map((p) => p.target?.id).filter(Boolean));
    const staying = commandRows.filter((row) => !targeted.has(row.id) && (mode === 'merge' || row.builtin !== null));
    const taken = new Map<string, string>();
    for (const row of staying) for (const n of [row.name, ...row.aliases]) taken.set(n, row.name);
    for (const p of parsed) {
      if (p.change === 'invalid' || !p.value) {
        plan.commands.push(p);
        continue;
      }
      const names = [p.value.name, ...p.value.aliases].map(normaliseName);
      const clash = names.find((n) => taken.has(n));
      if (clash !== undefined || new Set(names).size !== names.length) {
        const owner = clash !== undefined ? taken.get(clash)! : p.key;
        plan.commands.push(invalid(p.key, clash !== undefined ? `${clash} is already used by ${owner}.` : 'An alias repeats the name.'));
        continue;
      }
      for (const n of names) taken.set(n, p.key);
      plan.commands.push(p);
    }
    if (mode === 'replace')
      for (const row of commandRows)
        if (!row.builtin && !targeted.has(row.id))
          plan.commands.push({ key: row.name, change: 'remove', error: null, value: null, target: row });

    // Timers and filters by name, quotes by number.
    const byName = <T extends { name: string }, R extends { name: string; id: string }>(
      items: unknown[],
      schema: z.ZodType<T>,
      rows: R[],
      label: string,
      same: (row: R, value: T) => boolean,
      check?: (value: T) => void,
    ): Planned<T, R>[] => {
      const out: Planned<T, R>[] = [];
      const names = new Set<string>();
      for (const [i, raw] of items.entries()) {
        const key = keyOf(raw, 'name', `${label} ${i + 1}`);
        const r = schema.safeParse(raw);
        if (!r.success) {
          out.push(invalid(key, firstIssue(r.error)));
          continue;
        }
        if (names.has(r.data.name)) {
          out.push(invalid(r.data.name, `${r.data.name} is in the export twice; the first is used.`));
          continue;
        }
        try {
          check?.(r.data);
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          out.push(invalid(r.data.name, error.message));
          continue;
        }
        names.add(r.data.name);
        const target = rows.find((row) => row.name === r.data.name) ?? null;
        out.push({
          key: r.data.name,
          change: target ? (same(target, r.data) ? 'unchanged' : 'replace') : 'add',
          error: null,
          value: r.data,
          target,
        });
      }
      if (mode === 'replace')
        for (const row of rows)
          if (!names.has(row.name)) out.push({ key: row.name, change: 'remove', error: null, value: null, target: row });
      return out;
    };
    plan.timers = byName(doc.timers, timerBodySchema, timerRows, 'Timer', sameTimer);
    plan.filters = byName(doc.filters, filterBodySchema, filterRows, 'Filter', sameFilter, validateFilter);

    const numbers = new Set<number>();
    for (const [i, raw] of doc.quotes.entries()) {
      const key = keyOf(raw, 'number', `Quote ${i + 1}`);
      const r = configQuoteSchema.safeParse(raw);
      if (!r.success) {
        plan.quotes.push(invalid(key, firstIssue(r.error)));
        continue;
      }
      if (numbers.has(r.data.number)) {
        plan.quotes.push(invalid(`#${r.data.number}`, `Quote #${r.data.number} is in the export twice; the first is used.`));
        continue;
      }
      numbers.add(r.data.number);
      const target = quoteRows.find((q) => q.number === r.data.number) ?? null;
      const change = target ? (sameQuote(target, r.data) ? 'unchanged' : 'replace') : 'add';
      plan.quotes.push({ key: `#${r.data.number}`, change, error: null, value: r.data, target });
    }
    if (mode === 'replace')
      for (const q of quoteRows)
        if (!numbers.has(q.number)) plan.quotes.push({ key: `#${q.number}`, change: 'remove', error: null, value: null, target: q });
    return plan;
  }

  /** Writes a plan (inside the transaction that planned it). */
  private async write(tx: Tx, channelId: string, plan: Plan): Promise<void> {
    const now = new Date(this.now());
    // Commands: removals first, so a name a removed command had is free for an added one.
    const removeCommands = plan.commands.filter((p) => p.change === 'remove').map((p) => p.target!.id);
    if (removeCommands.length) await tx.delete(chatCommands).where(inArray(chatCommands.id, removeCommands));
    for (const p of plan.commands) {
      if (!p.value || (p.change !== 'add' && p.change !== 'replace')) continue;
      const c = p.value;
      const fields = {
        name: normaliseName(c.name),
        aliases: [...new Set(c.aliases.map(normaliseName))],
        level: c.level,
        globalCooldownSeconds: c.global_cooldown_seconds,
        userCooldownSeconds: c.user_cooldown_seconds,
        platforms: [...new Set(c.platforms)],
        replyMode: c.reply_mode,
        responseMode: c.response_mode,
        enabled: c.enabled,
      };
      if (p.target) {
        await tx
          .update(chatCommands)
          .set({ ...fields, ...(c.builtin ? {} : { responses: c.responses }), updatedAt: now })
          .where(eq(chatCommands.id, p.target.id));
      } else {
        await tx
          .insert(chatCommands)
          .values({ id: newId(), channelId, ...fields, builtin: c.builtin, responses: c.builtin ? [] : c.responses });
      }
    }

    // Timers: a changed interval or a timer switched on is scheduled again, staggered from the others.
    const removeTimers = plan.timers.filter((p) => p.change === 'remove').map((p) => p.target!.id);
    if (removeTimers.length) await tx.delete(chatTimers).where(inArray(chatTimers.id, removeTimers));
    const kept = await tx
      .select({ id: chatTimers.id, at: chatTimers.nextRunAt })
      .from(chatTimers)
      .where(and(eq(chatTimers.channelId, channelId), eq(chatTimers.enabled, true)));
    const runTimes = new Map(kept.filter((k) => k.at).map((k) => [k.id, k.at!.getTime()]));
    for (const p of plan.timers) {
      if (!p.value || (p.change !== 'add' && p.change !== 'replace')) continue;
      const t = p.value;
      const id = p.target?.id ?? newId();
      const keep = p.target && p.target.enabled && t.enabled && p.target.intervalMinutes === t.interval_minutes && p.target.nextRunAt;
      let nextRunAt: Date | null = null;
      if (keep) nextRunAt = p.target!.nextRunAt;
      else if (t.enabled) {
        runTimes.delete(id);
        nextRunAt = new Date(staggered(now.getTime() + t.interval_minutes * 60_000, [...runTimes.values()]));
      }
      if (nextRunAt) runTimes.set(id, nextRunAt.getTime());
      else runTimes.delete(id);
      const fields = {
        name: t.name,
        messages: t.messages,
        intervalMinutes: t.interval_minutes,
        minLines: t.min_lines,
        onlineOnly: t.online_only,
        platforms: [...new Set(t.platforms)],
        enabled: t.enabled,
        nextRunAt,
      };
      if (p.target) {
        const reset = p.target.messages.length !== t.messages.length ? { nextIndex: 0 } : {};
        await tx
          .update(chatTimers)
          .set({ ...fields, ...reset, updatedAt: now })
          .where(eq(chatTimers.id, id));
      } else await tx.insert(chatTimers).values({ id, channelId, ...fields });
    }

    // Filters: the document's order first, then the channel's others in theirs.
    const removeFilters = plan.filters.filter((p) => p.change === 'remove').map((p) => p.target!.id);
    if (removeFilters.length) await tx.delete(chatFilters).where(inArray(chatFilters.id, removeFilters));
    let position = 0;
    const placed = new Set<string>();
    for (const p of plan.filters) {
      if (!p.value || (p.change !== 'add' && p.change !== 'replace')) continue;
      const values = { ...filterValues(p.value), position: position++ };
      if (p.target) {
        placed.add(p.target.id);
        await tx
          .update(chatFilters)
          .set({ ...values, updatedAt: now })
          .where(eq(chatFilters.id, p.target.id));
      } else {
        const id = newId();
        placed.add(id);
        await tx.insert(chatFilters).values({ id, channelId, ...values });
      }
    }
    const others = await tx
      .select({ id: chatFilters.id, position: chatFilters.position })
      .from(chatFilters)
      .where(eq(chatFilters.channelId, channelId))
      .orderBy(asc(chatFilters.position), asc(chatFilters.id));
    for (const f of others) {
      if (placed.has(f.id)) continue;
      await tx.update(chatFilters).set({ position: position++ }).where(eq(chatFilters.id, f.id));
    }

    // Quotes keep their numbers; the channel's next number moves past the highest.
    const removeQuotes = plan.quotes.filter((p) => p.change === 'remove').map((p) => p.target!.id);
    if (removeQuotes.length) await tx.delete(quotes).where(inArray(quotes.id, removeQuotes));
    let highest = 0;
    for (const p of plan.quotes) {
      if (!p.value || (p.change !== 'add' && p.change !== 'replace')) continue;
      const q = p.value;
      highest = Math.max(highest, q.number);
      const fields = { text: q.text, game: q.game, quotedOn: q.quoted_on, addedBy: q.added_by };
      if (p.target)
        await tx
          .update(quotes)
          .set({ ...fields, updatedAt: now })
          .where(eq(quotes.id, p.target.id));
      else await tx.insert(quotes).values({ id: newId(), channelId, number: q.number, addedOnProvider: null, ...fields });
    }
    if (highest > 0)
      await tx
        .insert(chatbotChannels)
        .values({ channelId, nextQuoteNumber: highest + 1 })
        .onConflictDoUpdate({
          target: chatbotChannels.channelId,
          set: { nextQuoteNumber: sql`GREATEST(${chatbotChannels.nextQuoteNumber}, ${highest + 1})` },
        });
  }

  /**
   * Stores the configuration as a new version after a change, unless it is the same as the newest version. Never
   * throws (the change itself is done): a failure is logged. Returns the new version's id, else null.
   */
  async record(channelId: string, actor: ConfigActor, reason: string): Promise<string | null> {
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        const doc = await this.export(channelId);
        const digest = digestOf(doc);
        const [newest] = await this.deps.db
          .select({ number: chatbotConfigVersions.number, digest: chatbotConfigVersions.digest })
          .from(chatbotConfigVersions)
          .where(eq(chatbotConfigVersions.channelId, channelId))
          .orderBy(desc(chatbotConfigVersions.number))
          .limit(1);
        if (newest?.digest === digest) return null;
        const number = (newest?.number ?? 0) + 1;
        const id = newId();
        const inserted = await this.deps.db
          .insert(chatbotConfigVersions)
          .values({
            id,
            channelId,
            number,
            document: doc,
            digest,
            counts: { commands: doc.commands.length, timers: doc.timers.length, filters: doc.filters.length, quotes: doc.quotes.length },
            reason: reason.slice(0, 200),
            actorUserId: actor.userId,
            actorName: actor.name?.slice(0, 100) ?? null,
          })
          .onConflictDoNothing()
          .returning({ id: chatbotConfigVersions.id });
        if (inserted.length === 0) continue; // another change took this number at the same time: look again
        await this.deps.db
          .delete(chatbotConfigVersions)
          .where(and(eq(chatbotConfigVersions.channelId, channelId), lte(chatbotConfigVersions.number, number - CONFIG_VERSIONS_KEPT)));
        return id;
      }
      return null;
    } catch (error) {
      this.deps.log.warn({ err: error, channelId }, 'recording a chatbot configuration version failed');
      return null;
    }
  }

  async versions(channelId: string): Promise<ConfigVersion[]> {
    const rows = await this.deps.db
      .select({
        id: chatbotConfigVersions.id,
        number: chatbotConfigVersions.number,
        createdAt: chatbotConfigVersions.createdAt,
        actorName: chatbotConfigVersions.actorName,
        reason: chatbotConfigVersions.reason,
        counts: chatbotConfigVersions.counts,
      })
      .from(chatbotConfigVersions)
      .where(eq(chatbotConfigVersions.channelId, channelId))
      .orderBy(desc(chatbotConfigVersions.number));
    return rows.map((r) => ({
      id: r.id,
      number: r.number,
      created_at: r.createdAt.toISOString(),
      actor_name: r.actorName,
      reason: r.reason,
      counts: r.counts,
    }));
  }

  /** A version's document (to download it). */
  async version(channelId: string, versionId: string): Promise<ChatbotConfig> {
    const [row] = await this.deps.db
      .select({ document: chatbotConfigVersions.document })
      .from(chatbotConfigVersions)
      .where(and(eq(chatbotConfigVersions.channelId, channelId), eq(chatbotConfigVersions.id, versionId)));
    if (!row) throw notFound('This version does not exist (the oldest are not kept).');
    return row.document as unknown as ChatbotConfig;
  }
}

const sameList = (a: readonly unknown[], b: readonly unknown[]) => JSON.stringify(a) === JSON.stringify(b);
const sameSet = (a: readonly string[], b: readonly string[]) => sameList([...new Set(a)].sort(), [...new Set(b)].sort());
/** JSON with keys in order, so two equal settings objects compare equal whatever order their keys came in. */
function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stable((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

function sameCommand(row: CommandRow, c: z.output<typeof configCommandSchema>): boolean {
  return (
    row.name === normaliseName(c.name) &&
    sameSet(row.aliases, c.aliases.map(normaliseName)) &&
    (row.builtin !== null || (sameList(row.responses, c.responses) && row.responseMode === c.response_mode)) &&
    row.level === c.level &&
    row.globalCooldownSeconds === c.global_cooldown_seconds &&
    row.userCooldownSeconds === c.user_cooldown_seconds &&
    sameSet(row.platforms, c.platforms) &&
    row.replyMode === c.reply_mode &&
    row.enabled === c.enabled
  );
}

function sameTimer(row: TimerRow, t: z.output<typeof timerBodySchema>): boolean {
  return (
    sameList(row.messages, t.messages) &&
    row.intervalMinutes === t.interval_minutes &&
    row.minLines === t.min_lines &&
    row.onlineOnly === t.online_only &&
    sameSet(row.platforms, t.platforms) &&
    row.enabled === t.enabled
  );
}

function sameFilter(row: FilterRow, f: z.output<typeof filterBodySchema>): boolean {
  const v = filterValues(f);
  return (
    row.type === v.type &&
    stable(row.settings) === stable(v.settings) &&
    row.exemptLevel === v.exemptLevel &&
    row.action === v.action &&
    row.durationSeconds === v.durationSeconds &&
    row.warnFirst === v.warnFirst &&
    row.message === v.message &&
    row.enabled === v.enabled
  );
}

function sameQuote(row: QuoteRow, q: z.output<typeof configQuoteSchema>): boolean {
  return row.text === q.text && row.game === q.game && row.quotedOn === q.quoted_on && row.addedBy === q.added_by;
}

function summary(plan: Plan, versionId: string | null): ConfigPlan {
  const items: ConfigPlanItem[] = [];
  const counts = { add: 0, replace: 0, unchanged: 0, remove: 0, invalid: 0 };
  for (const section of ['commands', 'timers', 'filters', 'quotes'] as ConfigSection[]) {
    for (const p of plan[section]) {
      counts[p.change]++;
      items.push({ section, key: p.key, change: p.change, error: p.error });
    }
  }
  return { items, counts, version_id: versionId };
}
