import { z } from 'zod';
import { AccessLevel, accessLevelSchema } from '../access';
import { channelProviderIdSchema } from '../providers';

/**
 * The chatbot: commands, timers, spam filters, quotes and (admin) command templates. Limits here are
 * shared by the editor forms and the server.
 */

export const COMMAND_NAME_MAX = 50;
export const COMMAND_ALIASES_MAX = 10;
export const COMMAND_RESPONSES_MAX = 20;
/** Longest response kept; what a platform accepts is checked against its own limit. */
export const COMMAND_RESPONSE_MAX = 2_000;
export const COOLDOWN_MAX_SECONDS = 86_400;
export const TIMER_MESSAGES_MAX = 20;
export const TIMER_INTERVAL_MIN_MINUTES = 1;
export const TIMER_INTERVAL_MAX_MINUTES = 1_440;
export const TIMER_LINES_MAX = 1_000;
export const QUOTE_TEXT_MAX = 500;
export const FILTER_LIST_MAX = 500;
/** How long `!permit` lets one link through, in seconds. */
export const PERMIT_SECONDS = 60;

const trimmed = (max: number, label: string) =>
  z.string().trim().min(1, `${label} is required`).max(max, `${label} is at most ${max} characters`);

/** A command name or alias: one word, e.g. `!hello`. */
export const commandNameSchema = z
  .string()
  .trim()
  .min(1, 'Name is required')
  .max(COMMAND_NAME_MAX, `Names are at most ${COMMAND_NAME_MAX} characters`)
  .regex(/^\S+$/u, 'Names are one word, without spaces')
  .refine((v) => /[^!]/u.test(v), 'Type the name after the !')
  .transform((v) => v.toLowerCase());

export const responseModeSchema = z.enum(['random', 'in_turn']);
export type ResponseMode = z.infer<typeof responseModeSchema>;
export const replyModeSchema = z.enum(['say', 'mention', 'reply']);
export type ReplyMode = z.infer<typeof replyModeSchema>;
export const responseModeLabels: Record<ResponseMode, string> = { random: 'At random', in_turn: 'In turn' };
export const replyModeLabels: Record<ReplyMode, string> = { say: 'Say', mention: 'Mention', reply: 'Threaded reply' };

const cooldown = z.number().int().min(0, 'At least 0 seconds').max(COOLDOWN_MAX_SECONDS, 'At most one day (86400 s)');

/** The fields a command and a command template share. */
const commandFields = {
  name: commandNameSchema,
  aliases: z.array(commandNameSchema).max(COMMAND_ALIASES_MAX, `At most ${COMMAND_ALIASES_MAX} aliases`).default([]),
  responses: z
    .array(trimmed(COMMAND_RESPONSE_MAX, 'A response'))
    .max(COMMAND_RESPONSES_MAX, `At most ${COMMAND_RESPONSES_MAX} responses`)
    .default([]),
  response_mode: responseModeSchema.default('random'),
  level: accessLevelSchema.default(AccessLevel.PUBLIC),
  global_cooldown_seconds: cooldown.default(5),
  user_cooldown_seconds: cooldown.default(0),
  reply_mode: replyModeSchema.default('say'),
};

export const commandBodySchema = z.object({
  ...commandFields,
  /** Platforms it answers on; empty = every platform. */
  platforms: z.array(channelProviderIdSchema).default([]),
  enabled: z.boolean().default(true),
});
export type CommandBody = z.input<typeof commandBodySchema>;

export const chatCommandSchema = z.object({
  id: z.string(),
  name: z.string(),
  aliases: z.array(z.string()),
  /** A built-in command's key (its behaviour is the bot's); null for commands answering with their responses. */
  builtin: z.string().nullable(),
  /** What a built-in command does (for the editor). */
  description: z.string().nullable(),
  responses: z.array(z.string()),
  response_mode: responseModeSchema,
  level: accessLevelSchema,
  global_cooldown_seconds: z.number().int(),
  user_cooldown_seconds: z.number().int(),
  platforms: z.array(channelProviderIdSchema),
  reply_mode: replyModeSchema,
  enabled: z.boolean(),
  use_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ChatCommand = z.infer<typeof chatCommandSchema>;
export const chatCommandListSchema = z.array(chatCommandSchema);

export const commandParamsSchema = z.object({ channelId: z.string().max(64), commandId: z.string().max(64) });

// ---------------------------------------------------------------------------------------------
// Import
// ---------------------------------------------------------------------------------------------

export const importSourceSchema = z.enum(['nightbot', 'streamelements']);
export type ImportSource = z.infer<typeof importSourceSchema>;
export const importSourceLabels: Record<ImportSource, string> = { nightbot: 'Nightbot', streamelements: 'StreamElements' };

export const importBodySchema = z.object({
  /** The pasted export (JSON text). */
  data: z.string().min(1, 'Paste an export').max(2_000_000, 'The export is too large'),
  source: importSourceSchema.optional(),
  /** false: only preview; true: save what maps. */
  apply: z.boolean().default(false),
  /** With apply: the preview lines (their positions in `items`) to save; absent: every line that maps. */
  only: z.array(z.number().int().min(0)).max(5_000, 'At most 5000 lines').optional(),
});
export type ImportBody = z.input<typeof importBodySchema>;

/** What every import preview line has, commands or timers. */
const importItemBase = {
  source_name: z.string(),
  /** ok: maps fully; partial: maps with the notes' caveats; skipped: not imported (the notes say why). */
  status: z.enum(['ok', 'partial', 'skipped']),
  notes: z.array(z.string()),
  /** Set when applying: whether it was saved, else why not (e.g. the name exists). */
  saved: z.boolean(),
  error: z.string().nullable(),
};

export const importItemSchema = z.object({
  ...importItemBase,
  name: z.string().nullable(),
  responses: z.array(z.string()),
  level: accessLevelSchema.nullable(),
});
export type ImportItem = z.infer<typeof importItemSchema>;
export const importResultSchema = z.object({ source: importSourceSchema, items: z.array(importItemSchema), saved: z.number().int() });
export type ImportResult = z.infer<typeof importResultSchema>;

// ---------------------------------------------------------------------------------------------
// Command templates (admin)
// ---------------------------------------------------------------------------------------------

export const commandTemplateBodySchema = z.object({
  ...commandFields,
  description: z.string().trim().max(300, 'At most 300 characters').default(''),
  /** Enabled templates are added to new channels. */
  enabled: z.boolean().default(false),
});
export type CommandTemplateBody = z.input<typeof commandTemplateBodySchema>;

export const commandTemplateSchema = z.object({
  id: z.string(),
  name: z.string(),
  aliases: z.array(z.string()),
  description: z.string(),
  responses: z.array(z.string()),
  response_mode: responseModeSchema,
  level: accessLevelSchema,
  global_cooldown_seconds: z.number().int(),
  user_cooldown_seconds: z.number().int(),
  reply_mode: replyModeSchema,
  enabled: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type CommandTemplate = z.infer<typeof commandTemplateSchema>;
export const commandTemplateListSchema = z.array(commandTemplateSchema);
export const commandTemplateParamsSchema = z.object({ commandTemplateId: z.string().max(64) });
export const channelTemplateParamsSchema = z.object({ channelId: z.string().max(64), commandTemplateId: z.string().max(64) });

// ---------------------------------------------------------------------------------------------
// Timers
// ---------------------------------------------------------------------------------------------

export const timerBodySchema = z.object({
  name: trimmed(100, 'Name'),
  messages: z
    .array(trimmed(COMMAND_RESPONSE_MAX, 'A message'))
    .min(1, 'Add at least one message')
    .max(TIMER_MESSAGES_MAX, `At most ${TIMER_MESSAGES_MAX} messages`),
  interval_minutes: z
    .number()
    .int()
    .min(TIMER_INTERVAL_MIN_MINUTES, `At least ${TIMER_INTERVAL_MIN_MINUTES} minute`)
    .max(TIMER_INTERVAL_MAX_MINUTES, 'At most one day (1440 minutes)'),
  min_lines: z.number().int().min(0, 'At least 0').max(TIMER_LINES_MAX, `At most ${TIMER_LINES_MAX}`).default(5),
  online_only: z.boolean().default(true),
  platforms: z.array(channelProviderIdSchema).default([]),
  enabled: z.boolean().default(true),
});
export type TimerBody = z.input<typeof timerBodySchema>;

export const chatTimerSchema = z.object({
  id: z.string(),
  name: z.string(),
  messages: z.array(z.string()),
  interval_minutes: z.number().int(),
  min_lines: z.number().int(),
  online_only: z.boolean(),
  platforms: z.array(channelProviderIdSchema),
  enabled: z.boolean(),
  next_run_at: z.string().nullable(),
  last_run_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ChatTimer = z.infer<typeof chatTimerSchema>;
export const chatTimerListSchema = z.array(chatTimerSchema);
export const timerParamsSchema = z.object({ channelId: z.string().max(64), timerId: z.string().max(64) });

/**
 * Importing a Nightbot or StreamElements timer export (`POST …/chat-timers/import`, the body of the command import):
 * a preview line per timer; applying saves the chosen lines in one transaction, or none (400 with a field error
 * `items.{n}.name` / `items.{n}` for each line that clashes).
 */
export const timerImportItemSchema = z.object({
  ...importItemBase,
  name: z.string().nullable(),
  messages: z.array(z.string()),
  interval_minutes: z.number().int().nullable(),
  min_lines: z.number().int().nullable(),
  online_only: z.boolean().nullable(),
  enabled: z.boolean().nullable(),
});
export type TimerImportItem = z.infer<typeof timerImportItemSchema>;
export const timerImportResultSchema = z.object({
  source: importSourceSchema,
  items: z.array(timerImportItemSchema),
  saved: z.number().int(),
});
export type TimerImportResult = z.infer<typeof timerImportResultSchema>;

// ---------------------------------------------------------------------------------------------
// Spam filters
// ---------------------------------------------------------------------------------------------

export const filterTypes = ['links', 'caps', 'symbols', 'emotes', 'words', 'regex', 'repetition', 'length', 'zalgo'] as const;
export const filterTypeSchema = z.enum(filterTypes);
export type FilterType = z.infer<typeof filterTypeSchema>;
export const filterTypeLabels: Record<FilterType, string> = {
  links: 'Links',
  caps: 'Caps',
  symbols: 'Symbols',
  emotes: 'Emote count',
  words: 'Banned words',
  regex: 'Regular expressions',
  repetition: 'Repetition',
  length: 'Message length',
  zalgo: 'Zalgo',
};
export const filterTypeDescriptions: Record<FilterType, string> = {
  links: 'Links to sites outside the allow-list. Mods can let one link through with !permit @user.',
  caps: 'Messages mostly in capitals (emote names and @mentions do not count).',
  symbols: 'Messages mostly made of symbols.',
  emotes: 'Messages with too many emotes.',
  words: 'Words and phrases you ban (* matches within a word).',
  regex: 'Regular expressions, run in linear time.',
  repetition: 'Messages too similar to the same viewer’s recent ones, or repeating one word.',
  length: 'Messages that are too long.',
  zalgo: 'Text with stacked diacritics (zalgo).',
};

const percent = z.number().int().min(1, 'Between 1 and 100').max(100, 'Between 1 and 100');
const list = (label: string) => z.array(trimmed(200, label)).max(FILTER_LIST_MAX, `At most ${FILTER_LIST_MAX} entries`);

export const filterSettingsSchemas = {
  links: z.object({ allowed_domains: list('A domain').default([]) }),
  caps: z.object({ min_length: z.number().int().min(1).max(500).default(10), max_percent: percent.default(70) }),
  symbols: z.object({ min_length: z.number().int().min(1).max(500).default(10), max_percent: percent.default(50) }),
  emotes: z.object({ max_count: z.number().int().min(0).max(500).default(10) }),
  words: z.object({ words: list('A word').default([]) }),
  regex: z.object({ patterns: z.array(trimmed(500, 'A pattern')).max(50, 'At most 50 patterns').default([]) }),
  repetition: z.object({ similarity_percent: percent.default(80), min_length: z.number().int().min(1).max(500).default(15) }),
  length: z.object({ max_length: z.number().int().min(1).max(2000).default(300) }),
  zalgo: z.object({ max_marks: z.number().int().min(1).max(50).default(3) }),
} as const;
export type FilterSettingsOf<T extends FilterType> = z.infer<(typeof filterSettingsSchemas)[T]>;

export const filterActionSchema = z.enum(['delete', 'timeout', 'ban']);
export type FilterAction = z.infer<typeof filterActionSchema>;
export const filterActionLabels: Record<FilterAction, string> = { delete: 'Delete message', timeout: 'Time out', ban: 'Ban' };

const filterCommon = {
  name: trimmed(100, 'Name'),
  exempt_level: accessLevelSchema.default(AccessLevel.MOD),
  action: filterActionSchema.default('delete'),
  duration_seconds: z.number().int().min(1, 'At least 1 second').max(1_209_600, 'At most 14 days').default(600),
  warn_first: z.boolean().default(true),
  message: z.string().trim().max(COMMAND_RESPONSE_MAX, `At most ${COMMAND_RESPONSE_MAX} characters`).default(''),
  enabled: z.boolean().default(true),
};

export const filterBodySchema = z.discriminatedUnion('type', [
  z.object({ ...filterCommon, type: z.literal('links'), settings: filterSettingsSchemas.links }),
  z.object({ ...filterCommon, type: z.literal('caps'), settings: filterSettingsSchemas.caps }),
  z.object({ ...filterCommon, type: z.literal('symbols'), settings: filterSettingsSchemas.symbols }),
  z.object({ ...filterCommon, type: z.literal('emotes'), settings: filterSettingsSchemas.emotes }),
  z.object({ ...filterCommon, type: z.literal('words'), settings: filterSettingsSchemas.words }),
  z.object({ ...filterCommon, type: z.literal('regex'), settings: filterSettingsSchemas.regex }),
  z.object({ ...filterCommon, type: z.literal('repetition'), settings: filterSettingsSchemas.repetition }),
  z.object({ ...filterCommon, type: z.literal('length'), settings: filterSettingsSchemas.length }),
  z.object({ ...filterCommon, type: z.literal('zalgo'), settings: filterSettingsSchemas.zalgo }),
]);
export type FilterBody = z.input<typeof filterBodySchema>;

export const chatFilterSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: filterTypeSchema,
  settings: z.record(z.string(), z.unknown()),
  exempt_level: accessLevelSchema,
  action: filterActionSchema,
  duration_seconds: z.number().int(),
  warn_first: z.boolean(),
  message: z.string(),
  enabled: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ChatFilter = z.infer<typeof chatFilterSchema>;
export const chatFilterListSchema = z.array(chatFilterSchema);
export const filterParamsSchema = z.object({ channelId: z.string().max(64), filterId: z.string().max(64) });

/** One thing a filter did, and why. */
export const filterLogEntrySchema = z.object({
  id: z.number().int(),
  filter_id: z.string().nullable(),
  filter_name: z.string(),
  filter_type: filterTypeSchema,
  provider: channelProviderIdSchema,
  viewer_id: z.string(),
  viewer_name: z.string(),
  message_text: z.string(),
  reason: z.string(),
  /** What the filter asked for: `warn` on a first offence with warn-first. */
  requested: z.enum(['warn', 'delete', 'timeout', 'ban']),
  /** What was done; null when nothing could be done. */
  action: filterActionSchema.nullable(),
  duration_seconds: z.number().int().nullable(),
  /** Why the action differs from the request (the platform cannot…), or why it failed. */
  note: z.string().nullable(),
  ok: z.boolean(),
  created_at: z.string(),
});
export type FilterLogEntry = z.infer<typeof filterLogEntrySchema>;
export const filterLogQuerySchema = z.object({
  filter_id: z.string().max(64).optional(),
  cursor: z.coerce.number().int().positive().optional(),
  per_page: z.coerce.number().int().min(1).max(100).default(50),
});
export const filterLogPageSchema = z.object({ records: z.array(filterLogEntrySchema), cursor: z.string().nullable() });

// ---------------------------------------------------------------------------------------------
// Quotes
// ---------------------------------------------------------------------------------------------

export const quoteBodySchema = z.object({
  text: trimmed(QUOTE_TEXT_MAX, 'Text'),
  game: z.string().trim().max(200, 'At most 200 characters').nullable().default(null),
  /** The date it was said (YYYY-MM-DD). */
  quoted_on: z.iso.date('A date like 2026-01-31'),
  added_by: trimmed(100, 'Added by'),
});
export type QuoteBody = z.input<typeof quoteBodySchema>;
export const quoteCreateBodySchema = quoteBodySchema.extend({
  quoted_on: z.iso.date('A date like 2026-01-31').optional(),
  added_by: z.string().trim().max(100).optional(),
});
export type QuoteCreateBody = z.input<typeof quoteCreateBodySchema>;

export const quoteSchema = z.object({
  id: z.string(),
  number: z.number().int(),
  text: z.string(),
  added_by: z.string(),
  /** Where it was added: a platform, or null from the dashboard. */
  added_on_provider: channelProviderIdSchema.nullable(),
  game: z.string().nullable(),
  quoted_on: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Quote = z.infer<typeof quoteSchema>;
export const quoteListSchema = z.array(quoteSchema);
export const quoteParamsSchema = z.object({ channelId: z.string().max(64), channelQuoteId: z.string().max(64) });

// ---------------------------------------------------------------------------------------------
// Whole configuration: export, import, versions
// ---------------------------------------------------------------------------------------------

/** What a chatbot configuration document says it is; `version` moves when its shape changes. */
export const CHATBOT_CONFIG_FORMAT = 'greenroom.chatbot-config';
export const CHATBOT_CONFIG_VERSION = 1;
export const CONFIG_COMMANDS_MAX = 1_000;
export const CONFIG_TIMERS_MAX = 200;
export const CONFIG_FILTERS_MAX = 100;
export const CONFIG_QUOTES_MAX = 5_000;
/** Versions kept per channel (the oldest go first). */
export const CONFIG_VERSIONS_KEPT = 50;

/** A command in a document: a built-in (its key; the code comes with the channel) or one answering with responses. */
export const configCommandSchema = commandBodySchema.extend({ builtin: z.string().max(50).nullable().default(null) });
export type ConfigCommand = z.output<typeof configCommandSchema>;
export const configQuoteSchema = quoteBodySchema.extend({ number: z.number().int().min(1).max(999_999_999) });
export type ConfigQuote = z.output<typeof configQuoteSchema>;

/** A channel's whole chatbot configuration as exported (every item valid). */
export const chatbotConfigSchema = z.object({
  format: z.literal(CHATBOT_CONFIG_FORMAT),
  version: z.literal(CHATBOT_CONFIG_VERSION),
  exported_at: z.string(),
  commands: z.array(configCommandSchema).max(CONFIG_COMMANDS_MAX),
  timers: z.array(timerBodySchema).max(CONFIG_TIMERS_MAX),
  filters: z.array(filterBodySchema).max(CONFIG_FILTERS_MAX),
  quotes: z.array(configQuoteSchema).max(CONFIG_QUOTES_MAX),
});
export type ChatbotConfig = z.output<typeof chatbotConfigSchema>;

/**
 * A document to import, checked item by item (an invalid item is shown in the preview and left out; the others
 * apply): the envelope must be right, the items are anything until each is checked.
 */
export const chatbotConfigEnvelopeSchema = z.object({
  format: z.literal(CHATBOT_CONFIG_FORMAT, `This is not a Greenroom chatbot export (its "format" is not ${CHATBOT_CONFIG_FORMAT}).`),
  version: z.number().int(),
  commands: z.array(z.unknown()).max(CONFIG_COMMANDS_MAX, `At most ${CONFIG_COMMANDS_MAX} commands`).default([]),
  timers: z.array(z.unknown()).max(CONFIG_TIMERS_MAX, `At most ${CONFIG_TIMERS_MAX} timers`).default([]),
  filters: z.array(z.unknown()).max(CONFIG_FILTERS_MAX, `At most ${CONFIG_FILTERS_MAX} filters`).default([]),
  quotes: z.array(z.unknown()).max(CONFIG_QUOTES_MAX, `At most ${CONFIG_QUOTES_MAX} quotes`).default([]),
});

export const configImportBodySchema = z.object({
  /** The exported document (JSON text, as downloaded). */
  data: z.string().min(1, 'Choose or paste an export').max(5_000_000, 'The export is too large (5 MB at most)'),
});
export type ConfigImportBody = z.input<typeof configImportBodySchema>;

export const configSectionSchema = z.enum(['commands', 'timers', 'filters', 'quotes']);
export type ConfigSection = z.infer<typeof configSectionSchema>;
export const configSectionLabels: Record<ConfigSection, string> = {
  commands: 'Commands',
  timers: 'Timers',
  filters: 'Spam filters',
  quotes: 'Quotes',
};
export const configChangeSchema = z.enum(['add', 'replace', 'unchanged', 'remove', 'invalid']);
export type ConfigChange = z.infer<typeof configChangeSchema>;
export const configChangeLabels: Record<ConfigChange, string> = {
  add: 'Added',
  replace: 'Replaced',
  unchanged: 'Unchanged',
  remove: 'Removed',
  invalid: 'Invalid',
};

export const configPlanItemSchema = z.object({
  section: configSectionSchema,
  /** The command or timer or filter name, or the quote number (`#12`). */
  key: z.string(),
  change: configChangeSchema,
  /** Why it is invalid (left out). */
  error: z.string().nullable(),
});
export type ConfigPlanItem = z.infer<typeof configPlanItemSchema>;
export const configPlanSchema = z.object({
  items: z.array(configPlanItemSchema),
  counts: z.object({
    add: z.number().int(),
    replace: z.number().int(),
    unchanged: z.number().int(),
    remove: z.number().int(),
    invalid: z.number().int(),
  }),
  /** Set when applied: the version recorded after it (null for a preview, or when nothing changed). */
  version_id: z.string().nullable(),
});
export type ConfigPlan = z.infer<typeof configPlanSchema>;

export const configVersionSchema = z.object({
  id: z.string(),
  /** 1, 2, 3 … per channel. */
  number: z.number().int(),
  created_at: z.string(),
  /** Who made the change: a Greenroom user's name, a chat user's (`ModMary on Twitch`), or null (Greenroom). */
  actor_name: z.string().nullable(),
  /** What changed, in words (`Command !hello saved`, `Imported`, `Restored version 3`). */
  reason: z.string(),
  counts: z.object({ commands: z.number().int(), timers: z.number().int(), filters: z.number().int(), quotes: z.number().int() }),
});
export type ConfigVersion = z.infer<typeof configVersionSchema>;
export const configVersionListSchema = z.array(configVersionSchema);
export const configVersionParamsSchema = z.object({ channelId: z.string().max(64), versionId: z.string().max(64) });
