/**
 * Chat commands: the editor's CRUD with field errors (name taken, alias clash, response over the
 * platform's limit), the defaults of a new channel (built-ins and enabled templates), templates added
 * from the gallery, imports, chat's `!addcom` / `!editcom` / `!delcom`, and the atomic use count.
 * Names and aliases are unique per channel: every write checks them under the channel's row lock.
 * Every change rebuilds the channel's compiled matcher.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { ChatCommand, CommandTemplate, commandBodySchema } from '@greenroom/contracts/api/chatbot';
import type { AccessLevelValue } from '@greenroom/contracts/access';
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import type { Db } from '../../db/client';
import { channels, chatCommands, commandTemplates } from '../../db/schema';
import { AppError, badRequest, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { BuiltinRegistry } from './builtins';
import type { ChatbotState } from './chatbot-state';
import { messageLimitOf, normaliseName } from './domain/commands';
import type { ImportedCommand } from './domain/import';

export type CommandInput = z.output<typeof commandBodySchema>;
type Row = typeof chatCommands.$inferSelect;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Default commands that answer with responses (the built-ins come from the registry). */
export const defaultResponseCommands: Omit<CommandInput, 'platforms' | 'enabled'>[] = [
  {
    name: '!uptime',
    aliases: [],
    responses: ['$(channel) has been live for $(uptime).'],
    response_mode: 'random',
    level: 0,
    global_cooldown_seconds: 10,
    user_cooldown_seconds: 0,
    reply_mode: 'say',
  },
  {
    name: '!title',
    aliases: [],
    responses: ['$(title)'],
    response_mode: 'random',
    level: 0,
    global_cooldown_seconds: 10,
    user_cooldown_seconds: 0,
    reply_mode: 'say',
  },
  {
    name: '!game',
    aliases: ['!category'],
    responses: ['$(channel) is playing $(game).'],
    response_mode: 'random',
    level: 0,
    global_cooldown_seconds: 10,
    user_cooldown_seconds: 0,
    reply_mode: 'say',
  },
];

export class CommandService {
  constructor(
    private readonly deps: {
      db: Db;
      state: ChatbotState;
      builtins: BuiltinRegistry;
      /** Platforms connected to the channel (the response limit is the smallest of theirs). */
      connectedProviders: (channelId: string, exec?: Db | Tx) => Promise<ChannelProviderId[]>;
    },
  ) {}

  toDto(row: Row): ChatCommand {
    return {
      id: row.id,
      name: row.name,
      aliases: row.aliases,
      builtin: row.builtin,
      description: row.builtin ? (this.deps.builtins.get(row.builtin)?.description ?? null) : null,
      responses: row.responses,
      response_mode: row.responseMode,
      level: row.level as AccessLevelValue,
      global_cooldown_seconds: row.globalCooldownSeconds,
      user_cooldown_seconds: row.userCooldownSeconds,
      platforms: row.platforms as ChannelProviderId[],
      reply_mode: row.replyMode,
      enabled: row.enabled,
      use_count: row.useCount,
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
    };
  }

  async list(channelId: string): Promise<ChatCommand[]> {
    const rows = await this.deps.db
      .select()
      .from(chatCommands)
      .where(eq(chatCommands.channelId, channelId))
      .orderBy(asc(chatCommands.name));
    return rows.map((r) => this.toDto(r));
  }

  async get(channelId: string, id: string): Promise<ChatCommand> {
    return this.toDto(await this.row(this.deps.db, channelId, id));
  }

  private async row(db: Db | Tx, channelId: string, id: string): Promise<Row> {
    const [row] = await db
      .select()
      .from(chatCommands)
      .where(and(eq(chatCommands.channelId, channelId), eq(chatCommands.id, id)));
    if (!row) throw notFound('This command does not exist.');
    return row;
  }

  /**
   * `exec`: a transaction of the caller (a chat command's side effect, see `BuiltinRun.once`); the caller then
   * reloads the channel's matcher after its commit. So for `update`, `remove` and the chat variants.
   */
  async create(channelId: string, input: CommandInput, exec: Db | Tx = this.deps.db): Promise<ChatCommand> {
    await this.checkResponses(channelId, input, exec);
    const row = await exec.transaction(async (tx) => {
      await lockChannel(tx, channelId);
      await this.checkNames(tx, channelId, input.name, input.aliases, null);
      const [created] = await tx.insert(chatCommands).values(this.values(channelId, input)).returning();
      return created!;
    });
    if (exec === this.deps.db) await this.deps.state.reloadCommands(channelId);
    return this.toDto(row);
  }

  async update(channelId: string, id: string, input: CommandInput, exec: Db | Tx = this.deps.db): Promise<ChatCommand> {
    const current = await this.row(exec, channelId, id);
    if (!current.builtin) await this.checkResponses(channelId, input, exec);
    const row = await exec.transaction(async (tx) => {
      await lockChannel(tx, channelId);
      await this.checkNames(tx, channelId, input.name, input.aliases, id);
      const values = this.values(channelId, input);
      const [updated] = await tx
        .update(chatCommands)
        .set({
          ...values,
          id: undefined,
          channelId: undefined,
          // A built-in's behaviour is code: its responses are not used and stay as they are.
          responses: current.builtin ? current.responses : values.responses,
          updatedAt: new Date(),
        })
        .where(and(eq(chatCommands.channelId, channelId), eq(chatCommands.id, id)))
        .returning();
      return updated!;
    });
    this.deps.state.get(channelId)?.cooldowns.reset(id);
    if (exec === this.deps.db) await this.deps.state.reloadCommands(channelId);
    return this.toDto(row);
  }

  async remove(channelId: string, id: string, exec: Db | Tx = this.deps.db): Promise<void> {
    const deleted = await exec
      .delete(chatCommands)
      .where(and(eq(chatCommands.channelId, channelId), eq(chatCommands.id, id)))
      .returning({ id: chatCommands.id });
    if (deleted.length === 0) throw notFound('This command does not exist.');
    if (exec === this.deps.db) await this.deps.state.reloadCommands(channelId);
  }

  /** `$(count)`: one more use, atomically; the new count. */
  async countUse(commandId: string): Promise<number> {
    const [row] = await this.deps.db
      .update(chatCommands)
      .set({ useCount: sql`${chatCommands.useCount} + 1` })
      .where(eq(chatCommands.id, commandId))
      .returning({ useCount: chatCommands.useCount });
    return row?.useCount ?? 0;
  }

  /** Adds a template to a channel (the gallery); its name may not clash with the channel's commands. */
  async addTemplate(channelId: string, template: CommandTemplate): Promise<ChatCommand> {
    return this.create(channelId, {
      name: template.name,
      aliases: template.aliases,
      responses: template.responses,
      response_mode: template.response_mode,
      level: template.level,
      global_cooldown_seconds: template.global_cooldown_seconds,
      user_cooldown_seconds: template.user_cooldown_seconds,
      reply_mode: template.reply_mode,
      platforms: [],
      enabled: true,
    });
  }

  /** Saves imported commands one by one; each result says whether it was saved or why not. */
  async importCommands(channelId: string, commands: ImportedCommand[]): Promise<{ ok: boolean; error: string | null }[]> {
    const results: { ok: boolean; error: string | null }[] = [];
    for (const c of commands) {
      try {
        await this.create(channelId, { ...c, level: c.level as AccessLevelValue, response_mode: 'random', platforms: [] });
        results.push({ ok: true, error: null });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        results.push({ ok: false, error: error.message });
      }
    }
    return results;
  }

  /** A built-in's default row. */
  private builtinInput(b: ReturnType<BuiltinRegistry['all']>[number]): CommandInput {
    return {
      name: b.defaults.name,
      aliases: [...(b.defaults.aliases ?? [])],
      responses: [],
      response_mode: 'random',
      level: b.defaults.level,
      global_cooldown_seconds: b.defaults.globalCooldownSeconds ?? 0,
      user_cooldown_seconds: b.defaults.userCooldownSeconds ?? 0,
      reply_mode: 'say',
      platforms: [],
      enabled: true,
    };
  }

  /**
   * Gives existing channels the rows of built-ins registered after they were created (a feature
   * added to the server), where the names are free; run at start. Returns the rows added.
   */
  async addMissingBuiltins(): Promise<number> {
    const all = this.deps.builtins.all();
    if (all.length === 0) return 0;
    const have = await this.deps.db
      .select({ channelId: chatCommands.channelId, builtin: chatCommands.builtin })
      .from(chatCommands)
      .where(sql`${chatCommands.builtin} IS NOT NULL`);
    const byChannel = new Map<string, Set<string>>();
    for (const r of have) byChannel.set(r.channelId, (byChannel.get(r.channelId) ?? new Set()).add(r.builtin!));
    const channelIds = (await this.deps.db.select({ id: channels.id }).from(channels)).map((c) => c.id);
    let added = 0;
    for (const channelId of channelIds) {
      const missing = all.filter((b) => !byChannel.get(channelId)?.has(b.key));
      if (missing.length === 0) continue;
      added += await this.deps.db.transaction(async (tx) => {
        await lockChannel(tx, channelId);
        const rows = await tx
          .select({ name: chatCommands.name, aliases: chatCommands.aliases })
          .from(chatCommands)
          .where(eq(chatCommands.channelId, channelId));
        const taken = new Set(rows.flatMap((r) => [r.name, ...r.aliases]));
        const values: (typeof chatCommands.$inferInsert)[] = [];
        for (const b of missing) {
          const input = this.builtinInput(b);
          const names = [input.name, ...input.aliases].map(normaliseName);
          if (names.some((n) => taken.has(n))) continue;
          names.forEach((n) => taken.add(n));
          values.push({ ...this.values(channelId, input), builtin: b.key });
        }
        if (values.length > 0) await tx.insert(chatCommands).values(values);
        return values.length;
      });
    }
    return added;
  }

  /**
   * The default commands of a new channel, inside the channel's creation transaction: the built-ins,
   * the response commands above, then the operators' enabled templates whose names are still free.
   */
  async seed(tx: Tx, channelId: string): Promise<void> {
    const taken = new Set<string>();
    const rows: (typeof chatCommands.$inferInsert)[] = [];
    const add = (input: CommandInput, builtin: string | null) => {
      const names = [input.name, ...input.aliases].map(normaliseName);
      if (names.some((n) => taken.has(n))) return;
      names.forEach((n) => taken.add(n));
      rows.push({ ...this.values(channelId, input), builtin });
    };
    for (const b of this.deps.builtins.all()) add(this.builtinInput(b), b.key);
    for (const c of defaultResponseCommands) add({ ...c, platforms: [], enabled: true }, null);
    const templates = await tx
      .select()
      .from(commandTemplates)
      .where(eq(commandTemplates.enabled, true))
      .orderBy(asc(commandTemplates.name));
    for (const t of templates) {
      add(
        {
          name: t.name,
          aliases: t.aliases,
          responses: t.responses,
          response_mode: t.responseMode,
          level: t.level as AccessLevelValue,
          global_cooldown_seconds: t.globalCooldownSeconds,
          user_cooldown_seconds: t.userCooldownSeconds,
          reply_mode: t.replyMode,
          platforms: [],
          enabled: true,
        },
        null,
      );
    }
    if (rows.length > 0) await tx.insert(chatCommands).values(rows);
  }

  /** Chat's `!addcom !name text` / `!editcom !name text`: a reply for chat (errors are said, not thrown). */
  async setFromChat(channelId: string, mode: 'add' | 'edit', rawName: string, text: string, exec: Db | Tx = this.deps.db): Promise<string> {
    const name = normaliseName(rawName);
    if (!name || !text.trim()) return `Usage: !${mode === 'add' ? 'addcom' : 'editcom'} !name response`;
    const [existing] = await exec
      .select()
      .from(chatCommands)
      .where(and(eq(chatCommands.channelId, channelId), eq(chatCommands.name, name)));
    try {
      if (mode === 'add') {
        if (existing) return `${name} already exists; use !editcom to change it.`;
        await this.create(
          channelId,
          {
            name,
            aliases: [],
            responses: [text.trim()],
            response_mode: 'random',
            level: 0,
            global_cooldown_seconds: 5,
            user_cooldown_seconds: 0,
            reply_mode: 'say',
            platforms: [],
            enabled: true,
          },
          exec,
        );
        return `${name} added.`;
      }
      if (!existing) return `${name} does not exist; use !addcom to add it.`;
      if (existing.builtin) return `${name} is built in; edit it on the Chat Commands page.`;
      await this.update(channelId, existing.id, { ...this.inputOf(existing), responses: [text.trim()] }, exec);
      return `${name} updated.`;
    } catch (error) {
      if (error instanceof AppError) return error.message;
      throw error;
    }
  }

  /** Chat's `!delcom !name`. */
  async deleteFromChat(channelId: string, rawName: string, exec: Db | Tx = this.deps.db): Promise<string> {
    const name = normaliseName(rawName);
    if (!name) return 'Usage: !delcom !name';
    const [existing] = await exec
      .select()
      .from(chatCommands)
      .where(and(eq(chatCommands.channelId, channelId), eq(chatCommands.name, name)));
    if (!existing) return `${name} does not exist.`;
    if (existing.builtin) return `${name} is built in; disable it on the Chat Commands page.`;
    await this.remove(channelId, existing.id, exec);
    return `${name} deleted.`;
  }

  private inputOf(row: Row): CommandInput {
    return {
      name: row.name,
      aliases: row.aliases,
      responses: row.responses,
      response_mode: row.responseMode,
      level: row.level as AccessLevelValue,
      global_cooldown_seconds: row.globalCooldownSeconds,
      user_cooldown_seconds: row.userCooldownSeconds,
      platforms: row.platforms as ChannelProviderId[],
      reply_mode: row.replyMode,
      enabled: row.enabled,
    };
  }

  private values(channelId: string, input: CommandInput): typeof chatCommands.$inferInsert {
    return {
      id: newId(),
      channelId,
      name: normaliseName(input.name),
      aliases: [...new Set(input.aliases.map(normaliseName))],
      responses: input.responses,
      responseMode: input.response_mode,
      level: input.level,
      globalCooldownSeconds: input.global_cooldown_seconds,
      userCooldownSeconds: input.user_cooldown_seconds,
      platforms: [...new Set(input.platforms)],
      replyMode: input.reply_mode,
      enabled: input.enabled,
    };
  }

  /** Name taken / alias clash, as field errors. */
  private async checkNames(tx: Tx, channelId: string, rawName: string, rawAliases: string[], selfId: string | null): Promise<void> {
    const name = normaliseName(rawName);
    const aliases = rawAliases.map(normaliseName);
    if (aliases.includes(name)) {
      const message = `An alias cannot be the command's own name (${name}).`;
      throw badRequest(message, { [`aliases.${aliases.indexOf(name)}`]: message });
    }
    const others = (await tx.select().from(chatCommands).where(eq(chatCommands.channelId, channelId))).filter((r) => r.id !== selfId);
    const owner = (n: string) => others.find((r) => r.name === n || r.aliases.includes(n));
    const nameOwner = owner(name);
    if (nameOwner) {
      const message =
        nameOwner.name === name ? `There is already a command named ${name}.` : `${name} is already an alias of ${nameOwner.name}.`;
      throw badRequest(message, { name: message });
    }
    for (const [i, alias] of aliases.entries()) {
      const clash = owner(alias);
      if (clash) {
        const message =
          clash.name === alias ? `${alias} is the name of another command.` : `${alias} is already an alias of ${clash.name}.`;
        throw badRequest(message, { [`aliases.${i}`]: message });
      }
    }
  }

  /** Each response must fit the smallest message limit of the platforms it answers on. */
  async checkResponses(channelId: string, input: CommandInput, exec: Db | Tx = this.deps.db): Promise<void> {
    if (input.responses.length === 0) {
      const message = 'Add at least one response.';
      throw badRequest(message, { responses: message });
    }
    const limit = messageLimitOf(input.platforms, await this.deps.connectedProviders(channelId, exec));
    if (!limit) return;
    for (const [i, r] of input.responses.entries()) {
      const length = [...r].length;
      if (length > limit.max) {
        const message = `${limit.name} messages are limited to ${limit.max} characters (this response has ${length}).`;
        throw badRequest(message, { [`responses.${i}`]: message });
      }
    }
  }
}

/** Serialises writes to one channel's chatbot rows (name checks, numbering). */
export async function lockChannel(tx: Tx, channelId: string): Promise<void> {
  const [row] = await tx.select({ id: channels.id }).from(channels).where(eq(channels.id, channelId)).for('update');
  if (!row) throw notFound('Channel not found');
}
