/**
 * Built-in commands: the extension point for commands whose behaviour is code (`!addcom`, `!quote`,
 * `!permit`, and later loyalty's `!points`, Spotify's `!sr` …). A feature registers a handler under a
 * key; a channel's command row with `builtin = key` invokes it (the row keeps name, aliases, level,
 * cooldowns, platforms and enabled editable like any command). The matcher consults the registry, so
 * adding a module is: write a `BuiltinCommand`, register it, and list its default row in `defaults`.
 *
 * A handler has two halves, like every chat stage: `onMatch` runs synchronously inside the command
 * stage (in-memory state only, e.g. `!permit` lets the next link through at once), and `run` runs
 * after the message is committed (database, platforms) and returns the reply, if any.
 */
import type { AccessLevelValue } from '@greenroom/contracts/access';
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import type { ReplyUser } from './domain/variables';
import type { Tx } from './reply-outcomes';

/** What a built-in's `run` gets: who typed what, where. */
export interface BuiltinInvocation {
  readonly channelId: string;
  readonly channelProviderId: string;
  readonly provider: ChannelProviderId;
  readonly user: ReplyUser;
  /** The caller's effective level (audience from platform roles, raised by a Greenroom staff role). */
  readonly level: number;
  /** The caller subscribes (or is a member) on that platform. */
  readonly subscriber: boolean;
  readonly args: readonly string[];
  readonly query: string;
  /** The longest reply the platform accepts. */
  readonly maxLength: number;
  readonly now: number;
}

/** What `run` gets beside the invocation. */
export interface BuiltinRun extends BuiltinInvocation {
  /**
   * The id of the stored effect running this command: the same on every retry of this one use, and
   * different for every use — the idempotency key of anything the command changes (points, bets).
   */
  readonly effectId: string;
  /**
   * Runs the command's side effect exactly once per use: `apply` gets a transaction (use only it — on embedded
   * PGlite another query would wait for this transaction) in which the use's outcome row is taken first and its
   * reply stored. A retried reply (its send failed) does not run `apply` again and gets the stored reply. Work that
   * must follow the commit (reloading the matcher) goes after `once` returns and must be harmless twice.
   * A built-in that does not call it has its reply stored after `run` returns: a retry then skips `run`, but a crash
   * between the two would run it again, so its writes must carry `effectId` as their key (as points do).
   */
  once(apply: (tx: Tx) => Promise<string | null>): Promise<string | null>;
}

/** What `onMatch` may touch synchronously. */
export interface BuiltinStageContext extends BuiltinInvocation {
  /** Lets one link of a viewer (`${provider}:${login}`) through the link filter until `until`. */
  permit(permitKey: string, until: number): void;
  /** Commands of the channel the caller may use (name, level), for listings. */
  commandsFor(level: number, provider: ChannelProviderId): { name: string; level: number }[];
}

export interface BuiltinCommand {
  readonly key: string;
  /** Shown in the editor: what the command does and how it is used. */
  readonly description: string;
  /** The row a new channel gets. */
  readonly defaults: {
    readonly name: string;
    readonly aliases?: readonly string[];
    readonly level: AccessLevelValue;
    readonly globalCooldownSeconds?: number;
    readonly userCooldownSeconds?: number;
  };
  /** Synchronous part in the command stage; may return a payload passed to `run`. */
  onMatch?(ctx: BuiltinStageContext): unknown;
  /** After commit: does the work and returns the reply (null: say nothing). Never throws for user errors: it says them. */
  run(invocation: BuiltinRun, matched: unknown): Promise<string | null>;
}

/** The registry of built-in commands (one per server, filled at start). */
export class BuiltinRegistry {
  private readonly byKey = new Map<string, BuiltinCommand>();

  register(command: BuiltinCommand): void {
    if (this.byKey.has(command.key)) throw new Error(`Built-in command ${command.key} is registered twice`);
    this.byKey.set(command.key, command);
  }

  get(key: string): BuiltinCommand | undefined {
    return this.byKey.get(key);
  }

  all(): BuiltinCommand[] {
    return [...this.byKey.values()];
  }
}
