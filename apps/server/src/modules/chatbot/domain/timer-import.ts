/**
 * Importing a Nightbot or StreamElements timer export, the way import.ts imports commands (shared parts in
 * import-common.ts). The exports, as their APIs answer:
 * - Nightbot `GET /1/timers` → `{ _total, status, timers: [{ _id, name, message, interval, lines, enabled,
 *   nextRunAt }] }`; `interval` is a cron expression (`*\/15 * * * *`), `lines` the minimum chat lines. Nightbot
 *   posts timers only while the channel is live, so they import as online-only.
 * - StreamElements `GET /kappa/v2/bot/timers/{channel}` → `[{ _id, name, enabled, chatLines, online: { enabled,
 *   interval }, offline: { enabled, interval }, messages: [...] }]`, intervals in minutes; older exports have one
 *   `message` and a top-level `interval`.
 * The parser is tolerant (a pasted list, the API body, a single timer; numbers as strings; messages as strings or
 * `{ message }` objects) and never throws on odd input: what it cannot use is a skipped line saying why.
 */
import {
  COMMAND_RESPONSE_MAX,
  TIMER_INTERVAL_MAX_MINUTES,
  TIMER_INTERVAL_MIN_MINUTES,
  TIMER_LINES_MAX,
  TIMER_MESSAGES_MAX,
} from '@greenroom/contracts/api/chatbot';
import type { MessageLimit } from './commands';
import { exportList, ImportError, isObject, mapped, num, skipped, str, type ImportSource, type PreviewItem } from './import-common';
import { convertNightbot, convertStreamElements } from './import';

export interface ImportedTimer {
  name: string;
  messages: string[];
  interval_minutes: number;
  min_lines: number;
  online_only: boolean;
  enabled: boolean;
}

export type TimerPreviewItem = PreviewItem<ImportedTimer>;

/** What the preview checks against the channel. */
export interface TimerImportContext {
  /** The names of the channel's timers (compared trimmed and case-blind). */
  takenNames: Iterable<string>;
  /** The shortest message limit of the platforms the timers will post to (null: no limit). */
  messageLimit: MessageLimit | null;
}

/** Longest timer name (the editor's limit). */
export const TIMER_NAME_MAX = 100;

/** A single interval value in minutes, or why not. */
export type IntervalResult = { minutes: number } | { error: string };

/** The value as the preview names it (never serialised whole: an export may nest deeper than the stack). */
const shown = (raw: unknown): string => {
  if (typeof raw !== 'string' && typeof raw !== 'number')
    return Array.isArray(raw) ? '(a list)' : `(${raw === null ? 'null' : typeof raw})`;
  const text = String(raw);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
};

/** Evenly spaced minutes of the hour (`0,15,30,45`), as a step; null otherwise. */
function minuteStep(field: string): number | null {
  const parts = field.split(',');
  if (parts.length < 2 || !parts.every((p) => /^\d{1,2}$/.test(p))) return null;
  const values = parts.map(Number).sort((a, b) => a - b);
  if (values.some((v) => v > 59)) return null;
  const step = values[1]! - values[0]!;
  if (step <= 0 || 60 % step !== 0 || values.length !== 60 / step) return null;
  return values.every((v, i) => i === 0 || v - values[i - 1]! === step) ? step : null;
}

/** A cron expression's period in minutes, for the shapes a "every N minutes/hours/day" timer uses. */
function cronMinutes(expr: string): number | null {
  const fields = expr.trim().split(/\s+/);
  if (fields.length !== 5) return null;
  const [m, h, dom, mon, dow] = fields as [string, string, string, string, string];
  if (![dom, mon, dow].every((f) => f === '*' || f === '?')) return null;
  const single = (f: string, max: number) => /^\d{1,2}$/.test(f) && Number(f) <= max;
  const step = (f: string) => /^(?:\*|0)\/(\d{1,4})$/.exec(f);
  if (h === '*') {
    if (m === '*') return 1;
    const s = step(m);
    if (s) return Number(s[1]);
    if (single(m, 59)) return 60;
    return minuteStep(m);
  }
  if (!single(m, 59)) return null;
  const hs = step(h);
  if (hs) return Number(hs[1]) * 60;
  if (single(h, 23)) return 1_440;
  return null;
}

/**
 * An interval in minutes from a number of minutes, a string of minutes (`15`, `15m`, `2h`) or a cron
 * expression (`*\/15 * * * *`, `0 * * * *`, `0 *\/2 * * *`, `30 12 * * *`); checked against our limits.
 */
export function parseInterval(raw: unknown): IntervalResult {
  let minutes: number | null = null;
  if (typeof raw === 'number' && Number.isFinite(raw)) minutes = raw;
  else if (typeof raw === 'string') {
    const text = raw.trim().toLowerCase();
    const unit = /^(\d+(?:\.\d+)?)\s*(m|min|mins|minutes?|h|hrs?|hours?)?$/.exec(text);
    if (unit) minutes = Number(unit[1]) * (unit[2]?.startsWith('h') ? 60 : 1);
    else minutes = cronMinutes(text);
  }
  if (minutes === null || !Number.isFinite(minutes)) {
    return {
      error: raw === undefined || raw === null || raw === '' ? 'The timer has no interval' : `The interval ${shown(raw)} cannot be read`,
    };
  }
  if (minutes < TIMER_INTERVAL_MIN_MINUTES) {
    return { error: `The interval ${shown(raw)} is below the minimum of ${TIMER_INTERVAL_MIN_MINUTES} minute` };
  }
  if (minutes > TIMER_INTERVAL_MAX_MINUTES) {
    return { error: `The interval ${shown(raw)} is above the maximum of one day (${TIMER_INTERVAL_MAX_MINUTES} minutes)` };
  }
  return { minutes: Math.round(minutes) };
}

/** Which bot a timer export comes from, by its fields; null when it is neither. */
export function detectTimerSource(data: unknown): ImportSource | null {
  const first = timerList(data)?.find(isObject);
  if (!first) return null;
  if ('online' in first || 'offline' in first || 'chatLines' in first || Array.isArray(first.messages)) return 'streamelements';
  if ('message' in first && ('interval' in first || 'lines' in first)) return 'nightbot';
  return null;
}

/** The timer list of a pasted export: the API body, its `timers` array, or one timer on its own. */
function timerList(data: unknown): unknown[] | null {
  const list = exportList(data, 'timers');
  if (list) return list;
  if (isObject(data) && 'name' in data && ('message' in data || 'messages' in data)) return [data];
  return null;
}

/** Messages of an export item: strings, or objects with the text in `message`, `text` or `content`. */
function messagesOf(raw: Record<string, unknown>): string[] {
  const list = Array.isArray(raw.messages) ? (raw.messages as unknown[]) : [raw.message];
  return list.map((m) => (isObject(m) ? str(m.message ?? m.text ?? m.content) : str(m))).filter((m) => m.trim() !== '');
}

/** What both bots' items share once read: checks names, lines and messages, and makes the preview line. */
class TimerMapper {
  private readonly taken: Set<string>;
  private readonly seen = new Set<string>();

  constructor(private readonly context: TimerImportContext) {
    this.taken = new Set([...context.takenNames].map((n) => n.trim().toLowerCase()));
  }

  item(
    raw: Record<string, unknown>,
    read: { interval: unknown; lines: unknown; onlineOnly: boolean; enabled: boolean; convert: (text: string, notes: string[]) => string },
    notes: string[],
  ): TimerPreviewItem {
    const sourceName = str(raw.name).trim() || '(no name)';
    let name = str(raw.name).trim().replace(/\s+/g, ' ');
    if (!name) return skipped(sourceName, 'The timer has no name', 'name');
    if ([...name].length > TIMER_NAME_MAX) {
      name = [...name].slice(0, TIMER_NAME_MAX).join('');
      notes.push(`The name is cut to ${TIMER_NAME_MAX} characters`);
    }
    const key = name.toLowerCase();
    if (this.taken.has(key)) return skipped(sourceName, `A timer named ${name} already exists`, 'name');
    if (this.seen.has(key)) return skipped(sourceName, `Another timer named ${name} is earlier in this export`, 'name');
    const interval = parseInterval(read.interval);
    if ('error' in interval) return skipped(sourceName, interval.error);

    let messages = messagesOf(raw).map((m) => read.convert(m.trim(), notes));
    if (messages.length === 0) return skipped(sourceName, 'The timer has no message');
    const limit = this.context.messageLimit;
    const max = limit ? Math.min(limit.max, COMMAND_RESPONSE_MAX) : COMMAND_RESPONSE_MAX;
    const tooLong = messages.filter((m) => [...m].length > max);
    if (tooLong.length > 0) {
      const longest = Math.max(...tooLong.map((m) => [...m].length));
      const why = limit
        ? `${limit.name} messages are limited to ${limit.max} characters`
        : `Messages are limited to ${COMMAND_RESPONSE_MAX} characters`;
      if (tooLong.length === messages.length) {
        return skipped(sourceName, `${why} (${messages.length === 1 ? 'the message has' : 'the longest has'} ${longest})`);
      }
      notes.push(`${tooLong.length} of ${messages.length} messages left out: ${why} (the longest has ${longest})`);
      messages = messages.filter((m) => !tooLong.includes(m));
    }
    if (messages.length > TIMER_MESSAGES_MAX) {
      notes.push(`Only the first ${TIMER_MESSAGES_MAX} of ${messages.length} messages are kept`);
      messages = messages.slice(0, TIMER_MESSAGES_MAX);
    }
    const lines = Math.round(num(read.lines));
    if (lines > TIMER_LINES_MAX) notes.push(`${lines} chat lines is above our maximum: set to ${TIMER_LINES_MAX}`);
    this.seen.add(key);
    return mapped(
      sourceName,
      {
        name,
        messages,
        interval_minutes: interval.minutes,
        min_lines: Math.min(TIMER_LINES_MAX, lines),
        online_only: read.onlineOnly,
        enabled: read.enabled,
      },
      messages,
      notes,
    );
  }
}

function mapNightbot(list: unknown[], context: TimerImportContext): TimerPreviewItem[] {
  const mapper = new TimerMapper(context);
  return list
    .filter(isObject)
    .map((raw) =>
      mapper.item(
        raw,
        { interval: raw.interval, lines: raw.lines, onlineOnly: true, enabled: raw.enabled !== false, convert: convertNightbot },
        [],
      ),
    );
}

function mapStreamElements(list: unknown[], context: TimerImportContext): TimerPreviewItem[] {
  const mapper = new TimerMapper(context);
  return list.filter(isObject).map((raw) => {
    const notes: string[] = [];
    const online = isObject(raw.online) ? raw.online : null;
    const offline = isObject(raw.offline) ? raw.offline : null;
    const onlineOn = online !== null && online.enabled !== false;
    const offlineOn = offline !== null && offline.enabled === true;
    let interval: unknown = raw.interval;
    let onlineOnly = true;
    let enabled = raw.enabled !== false;
    if (onlineOn) {
      interval = online.interval ?? raw.interval;
      onlineOnly = !offlineOn;
      if (offlineOn && offline.interval !== undefined && num(offline.interval) !== num(interval)) {
        notes.push(`The offline interval (${str(offline.interval)} min) is not kept: one interval, live or not`);
      }
    } else if (offlineOn) {
      interval = offline.interval ?? raw.interval;
      onlineOnly = false;
      notes.push('Offline-only has no equivalent: the timer runs always');
    } else if (online || offline) {
      interval = online?.interval ?? offline?.interval ?? raw.interval;
      if (enabled) notes.push('Neither online nor offline is on: imported switched off');
      enabled = false;
    }
    if (
      (Array.isArray(raw.conditions) && raw.conditions.length > 0) ||
      (isObject(raw.conditions) && Object.keys(raw.conditions).length > 0)
    ) {
      notes.push('Conditions (category, title) are not kept');
    }
    return mapper.item(raw, { interval, lines: raw.chatLines ?? raw.lines, onlineOnly, enabled, convert: convertStreamElements }, notes);
  });
}

/** Maps a timer export; throws `ImportError` when the data is not a timer export of either bot. */
export function mapTimerImport(
  data: unknown,
  context: TimerImportContext,
  source?: ImportSource,
): { source: ImportSource; items: TimerPreviewItem[] } {
  const list = timerList(data);
  const detected = source ?? detectTimerSource(data);
  if (!list || !detected) throw new ImportError('This is not a Nightbot or StreamElements timer export.');
  return { source: detected, items: detected === 'nightbot' ? mapNightbot(list, context) : mapStreamElements(list, context) };
}
