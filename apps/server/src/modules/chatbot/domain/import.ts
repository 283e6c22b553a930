/**
 * Importing a Nightbot or StreamElements command export. Both bots' APIs answer with JSON we map
 * here: Nightbot `GET /1/commands` → `{ commands: [{ name, message, userLevel, coolDown, alias, count }] }`;
 * StreamElements `GET /kappa/v2/bot/commands/{channel}` → `[{ command, response, accessLevel,
 * cooldown: { user, global }, aliases, enabled, type }]`. Every command gets a preview line saying
 * what maps and what does not, before anything is saved.
 */
import { AccessLevel } from '@greenroom/contracts/access';
import { MAX_COMMAND_NAME, normaliseName, type ReplyMode } from './commands';
import { parseTemplate } from './template';
import { variables } from './variables';

export type ImportSource = 'nightbot' | 'streamelements';

export interface ImportedCommand {
  name: string;
  aliases: string[];
  responses: string[];
  level: number;
  global_cooldown_seconds: number;
  user_cooldown_seconds: number;
  reply_mode: ReplyMode;
  enabled: boolean;
}

export interface ImportPreviewItem {
  /** The name in the export. */
  source_name: string;
  /** ok: maps fully; partial: imported with the notes' caveats; skipped: not imported. */
  status: 'ok' | 'partial' | 'skipped';
  command: ImportedCommand | null;
  notes: string[];
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const num = (v: unknown): number =>
  typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : 0;

/** Finds the command list in a pasted export (the API's body, or its `commands` array). */
function commandList(data: unknown): unknown[] | null {
  if (Array.isArray(data)) return data as unknown[];
  if (isObject(data) && Array.isArray(data.commands)) return data.commands as unknown[];
  return null;
}

/** Which bot an export comes from, by its fields; null when it is neither. */
export function detectSource(data: unknown): ImportSource | null {
  const list = commandList(data);
  const first = list?.find(isObject);
  if (!first) return null;
  if ('message' in first && 'name' in first) return 'nightbot';
  if ('command' in first && ('response' in first || 'reply' in first)) return 'streamelements';
  return null;
}

const nightbotLevels: Record<string, { level: number; note?: string }> = {
  everyone: { level: AccessLevel.PUBLIC },
  subscriber: { level: AccessLevel.SUB },
  regular: { level: AccessLevel.SUB, note: 'Nightbot regulars have no equivalent: level set to Sub' },
  twitch_vip: { level: AccessLevel.VIP },
  vip: { level: AccessLevel.VIP },
  moderator: { level: AccessLevel.MOD },
  admin: { level: AccessLevel.OWNER },
  owner: { level: AccessLevel.OWNER },
};

/** StreamElements access levels: 100 everyone, 250 subscriber, 300 regular, 400 VIP, 500 moderator, 1000 super moderator, 1500 broadcaster. */
function streamElementsLevel(value: number): { level: number; note?: string } {
  if (value >= 1500) return { level: AccessLevel.OWNER };
  if (value >= 1000) return { level: AccessLevel.MOD, note: 'StreamElements super moderators map to Mod' };
  if (value >= 500) return { level: AccessLevel.MOD };
  if (value >= 400) return { level: AccessLevel.VIP };
  if (value >= 300) return { level: AccessLevel.SUB, note: 'StreamElements regulars have no equivalent: level set to Sub' };
  if (value >= 250) return { level: AccessLevel.SUB };
  return { level: AccessLevel.PUBLIC };
}

/** Rewrites a Nightbot response into our variables; notes what cannot be kept. */
export function convertNightbot(message: string, notes: string[]): string {
  let out = message;
  // $(twitch $(channel) "{{uptimeLength}}") and friends: the platform-neutral variables.
  out = out.replace(/\$\(twitch\s+[^)"]*?(?:\$\([^)]*\))?\s*"\{\{(\w+)\}\}"\s*\)/gi, (whole, field: string) => {
    const map: Record<string, string> = { uptimeLength: 'uptime', title: 'title', game: 'game', viewers: 'viewers' };
    const name = map[field];
    if (name) return `$(${name})`;
    notes.push(`${whole} has no equivalent`);
    return whole;
  });
  // $(time TZ "format"): the zone is kept, the custom format is not.
  out = out.replace(/\$\(time\s+([^\s)"]+)\s+"[^"]*"\s*\)/gi, (_w, zone: string) => {
    notes.push('$(time) custom formats are not kept: times show as HH:mm:ss');
    return `$(time ${zone})`;
  });
  return out;
}

/** Rewrites a StreamElements response (`${…}` is kept: both forms work). */
export function convertStreamElements(response: string, notes: string[]): string {
  let out = response;
  out = out.replace(/\$\{customapi\.([^}\s]+)\}/gi, (_w, url: string) => `$(urlfetch ${url})`);
  out = out.replace(/\$\{random\.pick\s+([^}]*)\}/gi, (_w, args: string) => `\${random.pick ${args.replace(/'([^']*)'/g, '"$1"')}}`);
  out = out.replace(/\$\{random\.(\d+)-(\d+)\}/gi, (_w, a: string, b: string) => `\${random ${a}-${b}}`);
  out = out.replace(/\$\{(\d)\|[^}]*\}/g, (_w, n: string) => {
    notes.push(`\${${n}|default} defaults are not kept`);
    return `\${${n}}`;
  });
  return out;
}

/** Variables of the other bots already explained by their own note. */
const explained = new Set(['eval', 'countdown', 'countup']);

/** Notes for variables the bot does not know (they would render a marker). */
function unknownVariables(responses: string[]): string[] {
  const unknown = new Set<string>();
  for (const r of responses) for (const name of parseTemplate(r).names) if (!variables.has(name) && !explained.has(name)) unknown.add(name);
  return [...unknown].map((n) => `Variable ${n} is not supported and would show [unknown: ${n}]`);
}

function finish(sourceName: string, command: ImportedCommand, notes: string[]): ImportPreviewItem {
  notes.push(...unknownVariables(command.responses));
  return { source_name: sourceName, status: notes.length ? 'partial' : 'ok', command, notes };
}

function skipped(sourceName: string, reason: string): ImportPreviewItem {
  return { source_name: sourceName, status: 'skipped', command: null, notes: [reason] };
}

function cleanName(raw: string): string | null {
  const name = normaliseName(raw);
  if (!name || /\s/.test(name) || name.length > MAX_COMMAND_NAME) return null;
  return name;
}

function mapNightbot(list: unknown[]): ImportPreviewItem[] {
  const items: ImportPreviewItem[] = [];
  const aliasOf = new Map<string, string[]>();
  for (const raw of list) {
    if (!isObject(raw)) continue;
    const name = cleanName(str(raw.name));
    const alias = cleanName(str(raw.alias));
    if (name && alias && (!str(raw.message).trim() || /^\s*\$\(query\)\s*$/i.test(str(raw.message)))) {
      aliasOf.set(alias, [...(aliasOf.get(alias) ?? []), name]);
    }
  }
  for (const raw of list) {
    if (!isObject(raw)) continue;
    const sourceName = str(raw.name) || '(no name)';
    const name = cleanName(str(raw.name));
    if (!name) {
      items.push(skipped(sourceName, 'The name is empty, has spaces or is too long'));
      continue;
    }
    const alias = cleanName(str(raw.alias));
    if (alias) {
      if (aliasOf.get(alias)?.includes(name)) {
        items.push(skipped(sourceName, `Imported as an alias of ${alias}`));
        continue;
      }
      items.push(skipped(sourceName, `Forwards to ${alias} with arguments, which has no equivalent`));
      continue;
    }
    const notes: string[] = [];
    const levelKey = str(raw.userLevel).toLowerCase() || 'everyone';
    const level = nightbotLevels[levelKey] ?? { level: AccessLevel.PUBLIC, note: `User level ${levelKey} is unknown: set to Public` };
    if (level.note) notes.push(level.note);
    const message = str(raw.message);
    if (!message.trim()) {
      items.push(skipped(sourceName, 'The response is empty'));
      continue;
    }
    if (/\$\(eval\b/i.test(message)) notes.push('$(eval) JavaScript is not run');
    if (/\$\(countdown\b|\$\(countup\b/i.test(message)) notes.push('$(countdown)/$(countup) are not supported');
    items.push(
      finish(
        sourceName,
        {
          name,
          aliases: (aliasOf.get(name) ?? []).filter((a) => a !== name),
          responses: [convertNightbot(message, notes)],
          level: level.level,
          global_cooldown_seconds: Math.min(86_400, Math.max(0, Math.round(num(raw.coolDown)))),
          user_cooldown_seconds: 0,
          reply_mode: 'say',
          enabled: true,
        },
        notes,
      ),
    );
  }
  return items;
}

function mapStreamElements(list: unknown[]): ImportPreviewItem[] {
  const items: ImportPreviewItem[] = [];
  for (const raw of list) {
    if (!isObject(raw)) continue;
    const sourceName = str(raw.command) || '(no name)';
    const bare = cleanName(str(raw.command));
    if (!bare) {
      items.push(skipped(sourceName, 'The name is empty, has spaces or is too long'));
      continue;
    }
    // StreamElements names have no prefix; the bot's prefix is `!`.
    const name = bare.startsWith('!') ? bare : `!${bare}`;
    const response = str(raw.response ?? raw.reply);
    if (!response.trim()) {
      items.push(skipped(sourceName, 'The response is empty'));
      continue;
    }
    const notes: string[] = [];
    const level = streamElementsLevel(num(raw.accessLevel) || 100);
    if (level.note) notes.push(level.note);
    const cooldown = isObject(raw.cooldown) ? raw.cooldown : {};
    if (num(raw.cost) > 0) notes.push(`The cost of ${num(raw.cost)} points is not kept`);
    if (Array.isArray(raw.keywords) && raw.keywords.length > 0) notes.push('Keyword triggers are not kept');
    const type = str(raw.type).toLowerCase();
    if (type === 'whisper') notes.push('Whispers are sent as chat messages');
    const aliases = (Array.isArray(raw.aliases) ? raw.aliases : [])
      .map((a) => cleanName(str(a)))
      .filter((a): a is string => Boolean(a))
      .map((a) => (a.startsWith('!') ? a : `!${a}`))
      .filter((a) => a !== name);
    items.push(
      finish(
        sourceName,
        {
          name,
          aliases: [...new Set(aliases)],
          responses: [convertStreamElements(response, notes)],
          level: level.level,
          global_cooldown_seconds: Math.min(86_400, Math.max(0, Math.round(num(cooldown.global)))),
          user_cooldown_seconds: Math.min(86_400, Math.max(0, Math.round(num(cooldown.user)))),
          reply_mode: type === 'reply' ? 'reply' : 'say',
          enabled: raw.enabled !== false,
        },
        notes,
      ),
    );
  }
  return items;
}

/** Maps an export; throws `ImportError` when the data is not a command export of either bot. */
export class ImportError extends Error {}
export function mapImport(data: unknown, source?: ImportSource): { source: ImportSource; items: ImportPreviewItem[] } {
  const list = commandList(data);
  const detected = source ?? detectSource(data);
  if (!list || !detected) throw new ImportError('This is not a Nightbot or StreamElements command export.');
  return { source: detected, items: detected === 'nightbot' ? mapNightbot(list) : mapStreamElements(list) };
}
