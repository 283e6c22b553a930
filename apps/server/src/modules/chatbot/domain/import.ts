/**
 * Importing a Nightbot or StreamElements command export. Both bots' APIs answer with JSON we map
 * here: Nightbot `GET /1/commands` → `{ commands: [{ name, message, userLevel, coolDown, alias, count }] }`;
 * StreamElements `GET /kappa/v2/bot/commands/{channel}` → `[{ command, response, accessLevel,
 * cooldown: { user, global }, aliases, enabled, type }]`. Every command gets a preview line saying
 * what maps and what does not, before anything is saved.
 */
import { AccessLevel } from '@greenroom/contracts/access';
import { MAX_COMMAND_NAME, normaliseName, type ReplyMode } from './commands';
import { exportList, ImportError, isObject, mapped, num, skipped, str, type ImportSource, type PreviewItem } from './import-common';

export { ImportError, type ImportSource } from './import-common';

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

/** A command's preview line: `value` is the command to save, null when skipped. */
export type ImportPreviewItem = PreviewItem<ImportedCommand>;

/** Finds the command list in a pasted export (the API's body, or its `commands` array). */
const commandList = (data: unknown) => exportList(data, 'commands');

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
  if (/\$\(eval\b/i.test(message)) notes.push('$(eval) JavaScript is not run');
  if (/\$\(countdown\b|\$\(countup\b/i.test(message)) notes.push('$(countdown)/$(countup) are not supported');
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
      items.push(skipped<ImportedCommand>(sourceName, 'The name is empty, has spaces or is too long'));
      continue;
    }
    const alias = cleanName(str(raw.alias));
    if (alias) {
      if (aliasOf.get(alias)?.includes(name)) {
        items.push(skipped<ImportedCommand>(sourceName, `Imported as an alias of ${alias}`));
        continue;
      }
      items.push(skipped<ImportedCommand>(sourceName, `Forwards to ${alias} with arguments, which has no equivalent`));
      continue;
    }
    const notes: string[] = [];
    const levelKey = str(raw.userLevel).toLowerCase() || 'everyone';
    const level = nightbotLevels[levelKey] ?? { level: AccessLevel.PUBLIC, note: `User level ${levelKey} is unknown: set to Public` };
    if (level.note) notes.push(level.note);
    const message = str(raw.message);
    if (!message.trim()) {
      items.push(skipped<ImportedCommand>(sourceName, 'The response is empty'));
      continue;
    }
    const response = convertNightbot(message, notes);
    items.push(
      mapped(
        sourceName,
        {
          name,
          aliases: (aliasOf.get(name) ?? []).filter((a) => a !== name),
          responses: [response],
          level: level.level,
          global_cooldown_seconds: Math.min(86_400, Math.max(0, Math.round(num(raw.coolDown)))),
          user_cooldown_seconds: 0,
          reply_mode: 'say',
          enabled: true,
        },
        [response],
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
      items.push(skipped<ImportedCommand>(sourceName, 'The name is empty, has spaces or is too long'));
      continue;
    }
    // StreamElements names have no prefix; the bot's prefix is `!`.
    const name = bare.startsWith('!') ? bare : `!${bare}`;
    const response = str(raw.response ?? raw.reply);
    if (!response.trim()) {
      items.push(skipped<ImportedCommand>(sourceName, 'The response is empty'));
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
    const converted = convertStreamElements(response, notes);
    items.push(
      mapped(
        sourceName,
        {
          name,
          aliases: [...new Set(aliases)],
          responses: [converted],
          level: level.level,
          global_cooldown_seconds: Math.min(86_400, Math.max(0, Math.round(num(cooldown.global)))),
          user_cooldown_seconds: Math.min(86_400, Math.max(0, Math.round(num(cooldown.user)))),
          reply_mode: type === 'reply' ? 'reply' : 'say',
          enabled: raw.enabled !== false,
        },
        [converted],
        notes,
      ),
    );
  }
  return items;
}

/** Maps an export; throws `ImportError` when the data is not a command export of either bot. */
export function mapImport(data: unknown, source?: ImportSource): { source: ImportSource; items: ImportPreviewItem[] } {
  const list = commandList(data);
  const detected = source ?? detectSource(data);
  if (!list || !detected) throw new ImportError('This is not a Nightbot or StreamElements command export.');
  return { source: detected, items: detected === 'nightbot' ? mapNightbot(list) : mapStreamElements(list) };
}
