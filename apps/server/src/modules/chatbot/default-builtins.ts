/**
 * The built-in commands every channel starts with: `!commands`, `!addcom` / `!editcom` / `!delcom`
 * (Mod), `!settitle` / `!setgame` (Editor, on every connected platform), `!quote` / `!addquote` /
 * `!delquote`, and `!permit` (Mod, the link filter). Each is a `BuiltinCommand` (see builtins.ts).
 */
import { AccessLevel } from '@greenroom/contracts/access';
import { PERMIT_SECONDS } from '@greenroom/contracts/api/chatbot';
import { providers } from '@greenroom/contracts/providers';
import type { BuiltinCommand, BuiltinRegistry, BuiltinRun } from './builtins';
import type { ChatbotPlatform, PlatformOutcome } from './chatbot-platform';
import type { ChatbotState } from './chatbot-state';
import type { CommandService } from './command-service';
import type { ChatbotConfigService } from './config-service';
import { formatQuote, type QuoteService } from './quote-service';
import type { Tx } from './reply-outcomes';

/** Joins names into one chat line within `max` characters ("…, and N more"). */
export function listWithin(prefix: string, names: string[], max: number): string {
  let out = prefix;
  for (const [i, name] of names.entries()) {
    const next = `${out}${i === 0 ? '' : ', '}${name}`;
    const rest = names.length - i - 1;
    const tail = rest > 0 ? `, and ${rest} more` : '';
    if ([...next].length + (rest > 0 ? tail.length : 0) > max) {
      return `${out}${i === 0 ? '' : ', '}and ${names.length - i} more`;
    }
    out = next;
  }
  return out;
}

function outcomes(what: string, results: PlatformOutcome[]): string {
  if (results.length === 0) return 'No connected platform can change that.';
  const ok = results.filter((r) => r.ok).map((r) => providers[r.provider].name);
  const failed = results.filter((r) => !r.ok).map((r) => `${providers[r.provider].name} (${r.detail ?? 'failed'})`);
  return [ok.length ? `${what} on ${ok.join(', ')}.` : '', failed.length ? `Not changed on ${failed.join(', ')}.` : '']
    .filter(Boolean)
    .join(' ');
}

const stripAt = (v: string) => v.replace(/^@+/, '').toLowerCase();

export function registerDefaultBuiltins(
  registry: BuiltinRegistry,
  deps: { commands: CommandService; quotes: QuoteService; platform: ChatbotPlatform; state: ChatbotState; config: ChatbotConfigService },
): void {
  /** A change to the commands from chat: once per use (see `BuiltinRun.once`), then the matcher is rebuilt. */
  const changeCommands = async (inv: BuiltinRun, what: string, apply: (tx: Tx) => Promise<string>) => {
    const reply = await inv.once(apply);
    await deps.state.reloadCommands(inv.channelId);
    await versionAfter(inv, what);
    return reply;
  };
  /** A change from chat keeps a version of the configuration like one made on the pages (none when nothing changed). */
  const versionAfter = (inv: BuiltinRun, what: string) =>
    deps.config.record(
      inv.channelId,
      { userId: null, name: `${inv.user.displayName} on ${providers[inv.provider].name}` },
      `${what} in chat`,
    );
  const rest = (inv: BuiltinRun) => inv.query.slice((inv.args[0] ?? '').length);
  const builtins: BuiltinCommand[] = [
    {
      key: 'commands',
      description: 'Lists the commands the caller may use on this platform, within one chat message.',
      defaults: { name: '!commands', aliases: ['!cmds'], level: AccessLevel.PUBLIC, globalCooldownSeconds: 10 },
      onMatch: (ctx) =>
        ctx
          .commandsFor(ctx.level, ctx.provider)
          .map((c) => c.name)
          .sort(),
      run: async (inv, matched) => listWithin('Commands: ', (matched as string[] | null) ?? [], inv.maxLength),
    },
    {
      key: 'addcom',
      description: 'Adds a command from chat: !addcom !name response.',
      defaults: { name: '!addcom', level: AccessLevel.MOD },
      run: (inv) =>
        changeCommands(inv, '!addcom', (tx) => deps.commands.setFromChat(inv.channelId, 'add', inv.args[0] ?? '', rest(inv), tx)),
    },
    {
      key: 'editcom',
      description: 'Changes the response of a command from chat: !editcom !name response.',
      defaults: { name: '!editcom', level: AccessLevel.MOD },
      run: (inv) =>
        changeCommands(inv, '!editcom', (tx) => deps.commands.setFromChat(inv.channelId, 'edit', inv.args[0] ?? '', rest(inv), tx)),
    },
    {
      key: 'delcom',
      description: 'Deletes a command from chat: !delcom !name.',
      defaults: { name: '!delcom', level: AccessLevel.MOD },
      run: (inv) => changeCommands(inv, '!delcom', (tx) => deps.commands.deleteFromChat(inv.channelId, inv.args[0] ?? '', tx)),
    },
    {
      key: 'settitle',
      description: 'Changes the stream title on every connected platform: !settitle text.',
      defaults: { name: '!settitle', level: AccessLevel.EDITOR },
      run: async (inv) => {
        if (!inv.query) return 'Usage: !settitle new title';
        return outcomes('Title changed', await deps.platform.setTitle(inv.channelId, inv.query));
      },
    },
    {
      key: 'setgame',
      description: 'Changes the category on every connected platform: !setgame name.',
      defaults: { name: '!setgame', aliases: ['!setcategory'], level: AccessLevel.EDITOR },
      run: async (inv) => {
        if (!inv.query) return 'Usage: !setgame category name';
        const results = await deps.platform.setCategory(inv.channelId, inv.query);
        const names = [...new Set(results.filter((r) => r.ok && r.detail).map((r) => r.detail!))];
        return outcomes(`Category set to ${names.join(' / ') || inv.query}`, results);
      },
    },
    {
      key: 'quote',
      description: 'Says a quote: !quote (random), !quote 12 (by number), !quote word (search).',
      defaults: { name: '!quote', level: AccessLevel.PUBLIC, globalCooldownSeconds: 5 },
      run: async (inv) => {
        const found = await deps.quotes.find(inv.channelId, inv.query);
        if (found) return formatQuote(found);
        return inv.query ? `No quote matches "${inv.query.slice(0, 50)}".` : 'There are no quotes yet. Add one with !addquote.';
      },
    },
    {
      key: 'addquote',
      description: 'Adds a quote with the current game and date: !addquote text.',
      defaults: { name: '!addquote', level: AccessLevel.MOD },
      run: async (inv) => {
        const text = inv.query.trim();
        if (!text) return 'Usage: !addquote text';
        const bot = deps.state.get(inv.channelId);
        let game = bot?.streams.get(inv.channelProviderId)?.category ?? null;
        if (game === null)
          game = await deps.platform.streamInfo(inv.channelProviderId).then(
            (i) => i.category,
            () => null,
          );
        const reply = await inv.once(async (tx) => {
          const row = await deps.quotes.add(
            inv.channelId,
            { text: text.slice(0, 500), addedBy: inv.user.displayName, provider: inv.provider, game },
            tx,
          );
          return `Quote #${row.number} added.`;
        });
        await versionAfter(inv, '!addquote');
        return reply;
      },
    },
    {
      key: 'delquote',
      description: 'Deletes a quote by number: !delquote 12.',
      defaults: { name: '!delquote', level: AccessLevel.MOD },
      run: async (inv) => {
        const n = /^#?(\d{1,9})$/.exec(inv.args[0] ?? '');
        if (!n) return 'Usage: !delquote number';
        const reply = await inv.once(async (tx) =>
          (await deps.quotes.removeNumber(inv.channelId, Number(n[1]), tx)) ? `Quote #${n[1]} deleted.` : `There is no quote #${n[1]}.`,
        );
        await versionAfter(inv, '!delquote');
        return reply;
      },
    },
    {
      key: 'permit',
      description: `Lets one link of a viewer through the link filter for ${PERMIT_SECONDS} seconds: !permit @user.`,
      defaults: { name: '!permit', level: AccessLevel.MOD },
      onMatch: (ctx) => {
        const login = stripAt(ctx.args[0] ?? '');
        if (!login) return null;
        ctx.permit(`${ctx.provider}:${login}`, ctx.now + PERMIT_SECONDS * 1000);
        return login;
      },
      run: async (_inv, matched) =>
        typeof matched === 'string' ? `@${matched} may post one link in the next ${PERMIT_SECONDS} seconds.` : 'Usage: !permit @user',
    },
  ];
  for (const b of builtins) registry.register(b);
}
