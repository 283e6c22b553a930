/**
 * Commands in memory: the per-channel compiled matcher (one map from every name and alias to its
 * command, built when the channel's commands change, never per message), chat input parsing and
 * cooldowns (audience levels from platform roles: audienceOf in pipeline/ingest.ts).
 */
import { providers, type ChannelProviderId } from '@greenroom/contracts/providers';
import { parseTemplate, type Template } from './template';

export type ResponseMode = 'random' | 'in_turn';
export type ReplyMode = 'say' | 'mention' | 'reply';

/** The platform whose chat messages are shortest, and its limit. */
export interface MessageLimit {
  max: number;
  name: string;
}

/**
 * The smallest message limit of the platforms a command or timer speaks on: the ones it is limited to, else the
 * channel's connected ones, else every platform with chat write. Null when none has a limit.
 */
export function messageLimitOf(platforms: readonly ChannelProviderId[], connected: readonly ChannelProviderId[]): MessageLimit | null {
  const candidates = (platforms.length > 0 ? platforms : connected).filter((p) => providers[p].chatWrite);
  const pool =
    candidates.length > 0
      ? candidates
      : (Object.values(providers)
          .filter((p) => p.chatWrite)
          .map((p) => p.id) as ChannelProviderId[]);
  let limit: MessageLimit | null = null;
  for (const p of pool) {
    const max = providers[p].chatMessageMaxLength;
    if (max !== null && (!limit || max < limit.max)) limit = { max, name: providers[p].name };
  }
  return limit;
}

/** A command as the matcher needs it (from the database row). */
export interface CommandDefinition {
  readonly id: string;
  /** Lower case, with its prefix (`!hello`). */
  readonly name: string;
  readonly aliases: readonly string[];
  /** The built-in handler's key, or null for a command that answers with its responses. */
  readonly builtin: string | null;
  readonly responses: readonly string[];
  readonly responseMode: ResponseMode;
  readonly level: number;
  readonly globalCooldownSeconds: number;
  readonly userCooldownSeconds: number;
  /** Platforms it answers on; empty = every platform. */
  readonly platforms: readonly ChannelProviderId[];
  readonly replyMode: ReplyMode;
  readonly enabled: boolean;
}

export interface CompiledCommand {
  readonly def: CommandDefinition;
  readonly templates: readonly Template[];
}

/** The first word of a message and the rest: `!so @bob hi` → { word: '!so', query: '@bob hi', args: ['@bob', 'hi'] }. */
export interface ParsedInput {
  readonly word: string;
  readonly query: string;
  readonly args: string[];
}

/** Longest command name or alias. */
export const MAX_COMMAND_NAME = 50;

export function parseInput(text: string): ParsedInput | null {
  let i = 0;
  const n = text.length;
  while (i < n && isSpace(text.charCodeAt(i))) i++;
  const start = i;
  while (i < n && !isSpace(text.charCodeAt(i))) i++;
  if (i === start || i - start > MAX_COMMAND_NAME) return null;
  const word = text.slice(start, i).toLowerCase();
  const query = text.slice(i).trim();
  return { word, query, args: query ? query.split(/\s+/u) : [] };
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 0xa0 || c === 0x3000 || (c >= 0x2000 && c <= 0x200b);
}

/** Canonical form of a name or alias: trimmed, lower case. */
export function normaliseName(name: string): string {
  return name.trim().toLowerCase();
}

/**
 * The per-channel matcher: every enabled command by name and alias. The first character of every
 * name is kept in a set, so most chat lines (which are not commands) are rejected with one lookup.
 */
export class CommandMatcher {
  private readonly byName = new Map<string, CompiledCommand>();
  private readonly firstChars = new Set<number>();
  readonly commands: readonly CompiledCommand[];

  constructor(defs: readonly CommandDefinition[]) {
    const compiled: CompiledCommand[] = [];
    for (const def of defs) {
      if (!def.enabled) continue;
      const c: CompiledCommand = { def, templates: def.responses.map((r) => parseTemplate(r)) };
      compiled.push(c);
      for (const key of [def.name, ...def.aliases]) {
        const k = normaliseName(key);
        if (!k || this.byName.has(k)) continue;
        this.byName.set(k, c);
        this.firstChars.add(k.charCodeAt(0));
      }
    }
    this.commands = compiled;
  }

  /** The command a chat line invokes, with its parsed input; null for ordinary chat. */
  match(text: string): { command: CompiledCommand; input: ParsedInput } | null {
    let i = 0;
    while (i < text.length && isSpace(text.charCodeAt(i))) i++;
    if (i >= text.length) return null;
    const first = text.charCodeAt(i);
    if (!this.firstChars.has(first) && !this.firstChars.has(lowerAscii(first))) return null;
    const input = parseInput(text);
    if (!input) return null;
    const command = this.byName.get(input.word);
    return command ? { command, input } : null;
  }

  get size(): number {
    return this.byName.size;
  }
}

function lowerAscii(c: number): number {
  return c >= 65 && c <= 90 ? c + 32 : c;
}

/**
 * Global and per-user cooldowns of one channel, in memory. `take` checks and starts both windows at
 * once, so a burst of identical commands answers exactly once per window. Expired per-user entries
 * are swept when the map grows, so memory stays bounded by the users of one window.
 */
export class Cooldowns {
  private readonly global = new Map<string, number>();
  private readonly perUser = new Map<string, number>();
  private sweepAt = 1024;

  /** True (and the cooldowns start) when the command may run now for this user. */
  take(def: Pick<CommandDefinition, 'id' | 'globalCooldownSeconds' | 'userCooldownSeconds'>, userKey: string, now: number): boolean {
    const g = this.global.get(def.id);
    if (g !== undefined && g > now) return false;
    const key = def.userCooldownSeconds > 0 ? `${def.id}\u0000${userKey}` : null;
    if (key) {
      const u = this.perUser.get(key);
      if (u !== undefined && u > now) return false;
    }
    if (def.globalCooldownSeconds > 0) this.global.set(def.id, now + def.globalCooldownSeconds * 1000);
    if (key) {
      this.perUser.set(key, now + def.userCooldownSeconds * 1000);
      if (this.perUser.size > this.sweepAt) this.sweep(now);
    }
    return true;
  }

  /** Forgets a command's windows (edited or deleted). */
  reset(commandId: string): void {
    this.global.delete(commandId);
    for (const key of this.perUser.keys()) if (key.startsWith(`${commandId}\u0000`)) this.perUser.delete(key);
  }

  private sweep(now: number): void {
    for (const [key, until] of this.perUser) if (until <= now) this.perUser.delete(key);
    this.sweepAt = Math.max(1024, this.perUser.size * 2);
  }
}

/** Picks the response to use: at random, or the next in turn (the turn counter is the caller's). */
export function pickResponse(count: number, mode: ResponseMode, turn: number, random: () => number): number {
  if (count <= 1) return 0;
  if (mode === 'in_turn') return turn % count;
  return Math.floor(random() * count) % count;
}
