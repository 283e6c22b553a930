/**
 * The spam filter engine. A channel's filters are compiled once when they change (banned-word and
 * link patterns, RE2 programs for user regular expressions) into a `FilterSet`; `check` runs on every
 * chat line and returns the first filter the line breaks, with a reason for the log. Everything here
 * is linear in the message length: user regular expressions run on RE2 (no backtracking), so a
 * pathological pattern cannot stall chat.
 */
import { RE2JS } from 're2js';
import type { FilterAction, FilterSettingsOf, FilterType } from '@greenroom/contracts/api/chatbot';
import type { ChatEmote } from '@greenroom/contracts/api/events';
import type { ChannelProviderId } from '@greenroom/contracts/providers';

/** Settings of each filter type (validated by the contracts' schemas). */
export type FilterSettings = { [T in FilterType]: FilterSettingsOf<T> };

export interface FilterDefinition<T extends FilterType = FilterType> {
  readonly id: string;
  readonly name: string;
  readonly type: T;
  readonly settings: FilterSettings[T];
  /** Authors at this audience level or above are not filtered. */
  readonly exemptLevel: number;
  readonly action: FilterAction;
  readonly durationSeconds: number;
  /** First offence in a stream: delete and warn; the action from the second on. */
  readonly warnFirst: boolean;
  /** Told in chat after the action (a template); empty = nothing said. */
  readonly message: string;
  readonly enabled: boolean;
}

/** What a filter sees of one chat line. */
export interface FilterInput {
  readonly text: string;
  readonly emotes: readonly ChatEmote[];
  readonly level: number;
  /** `${provider}:${provider_user_id}` — who wrote it (repetition memory, permits). */
  readonly userKey: string;
  /** `${provider}:${login}` (lower case) — the key `!permit @login` sets. */
  readonly permitKey: string;
  readonly provider: ChannelProviderId;
  readonly now: number;
}

export interface FilterHit {
  readonly filter: FilterDefinition;
  readonly reason: string;
}

/** Top-level domains that are also common words: only a link with a scheme, `www.` or a path counts. */
const WORDLIKE_TLDS = new Set(['me', 'is', 'it', 'at', 'in', 'to', 'be', 'us', 'so', 'no', 'my', 'am', 'as', 'do', 'go', 'hi', 'im', 'ok']);
const TLDS = [
  'com',
  'net',
  'org',
  'io',
  'gg',
  'tv',
  'co',
  'uk',
  'de',
  'fr',
  'ru',
  'xyz',
  'info',
  'biz',
  'app',
  'dev',
  'ly',
  'link',
  'live',
  'club',
  'site',
  'online',
  'store',
  'shop',
  'top',
  'cc',
  'ws',
  'gl',
  'gd',
  'tk',
  'ml',
  'ga',
  'cf',
  'pw',
  'su',
  'eu',
  'nl',
  'pl',
  'es',
  'br',
  'jp',
  'cn',
  'kr',
  'au',
  'ca',
  'ch',
  'se',
  'no',
  'fi',
  'dk',
  'cz',
  'sk',
  'hu',
  'ro',
  'ua',
  'tr',
  'in',
  'id',
  'vn',
  'th',
  'ph',
  'mx',
  'ar',
  'cl',
  'za',
  'ng',
  'ke',
  'ai',
  'fm',
  'am',
  'so',
  'sh',
  'to',
  'me',
  'is',
  'it',
  'at',
  'be',
  'us',
  'my',
  'ee',
  'lt',
  'lv',
  'gr',
  'pt',
  'ie',
  'nz',
  'sg',
  'hk',
  'tw',
  'blog',
  'news',
  'stream',
  'gay',
  'fun',
  'wtf',
  'lol',
  'vip',
  'win',
  'bet',
  'casino',
  'porn',
  'sex',
  'xxx',
  'onion',
  'page',
  'work',
  'tech',
  'space',
  'website',
  'email',
  'click',
  'download',
  'zip',
  'mov',
];
const tldSet = new Set(TLDS);
/** A candidate host: labels of letters/digits/hyphens joined by dots (also full-width and ideographic dots). */
const LINK_RE = /(?:(https?):\/\/)?((?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,62})?[.\u3002\uff0e])+)([\p{L}]{2,24})(?![\p{L}\p{N}])(\/\S*)?/giu;

/** The hosts of the links in a text (lower case), with the false positives of naive detectors removed. */
export function findLinks(text: string): string[] {
  if (!hasDotLike(text)) return [];
  const hosts: string[] = [];
  LINK_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = LINK_RE.exec(text)) !== null) {
    const scheme = m[1];
    const labels = m[2]!.toLowerCase().replace(/[\u3002\uff0e]/g, '.');
    const tld = m[3]!.toLowerCase();
    const path = m[4];
    const start = m.index;
    // Part of an e-mail-like or @mention token, or a decimal number (1.5k): not a link.
    const before = start > 0 ? text[start - 1] : '';
    if (before === '@') continue;
    if (!tldSet.has(tld)) continue;
    const host = labels + tld;
    const explicit = Boolean(scheme) || labels.startsWith('www.') || Boolean(path);
    if (!explicit && WORDLIKE_TLDS.has(tld)) continue;
    hosts.push(host);
  }
  return hosts;
}

function hasDotLike(text: string): boolean {
  return text.includes('.') || text.includes('\u3002') || text.includes('\uff0e');
}

export function domainAllowed(host: string, allowed: readonly string[]): boolean {
  for (const d of allowed) if (host === d || host.endsWith(`.${d}`)) return true;
  return false;
}

/** A mask of the UTF-16 positions covered by emotes (their names are not text: "LUL", "OMEGALUL"). */
function emoteMask(text: string, emotes: readonly ChatEmote[]): Uint8Array | null {
  if (emotes.length === 0) return null;
  const mask = new Uint8Array(text.length);
  for (const e of emotes) {
    const from = Math.max(0, e.start);
    const to = Math.min(text.length, e.end);
    for (let i = from; i < to; i++) mask[i] = 1;
  }
  return mask;
}

const LETTER = /\p{L}/u;
const UPPER = /\p{Lu}/u;

/** Letters and upper-case letters outside emotes and @mentions. */
export function capsStats(text: string, emotes: readonly ChatEmote[]): { letters: number; upper: number } {
  const mask = emoteMask(text, emotes);
  let letters = 0;
  let upper = 0;
  let inMention = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32) {
      inMention = false;
      continue;
    }
    if (c === 64 /* @ */ && (i === 0 || text.charCodeAt(i - 1) === 32)) inMention = true;
    if (inMention || (mask && mask[i])) continue;
    if (c < 128) {
      if (c >= 65 && c <= 90) {
        letters++;
        upper++;
      } else if (c >= 97 && c <= 122) letters++;
      continue;
    }
    if (c >= 0xd800 && c <= 0xdfff) continue;
    const ch = text[i]!;
    if (LETTER.test(ch)) {
      letters++;
      if (UPPER.test(ch)) upper++;
    }
  }
  return { letters, upper };
}

const WORDISH = /[\p{L}\p{N}\p{M}\s\p{Extended_Pictographic}]|\u200d|\ufe0f/u;
/** Visible characters and symbols (neither letter, digit, mark, space nor emoji) outside emotes. */
export function symbolStats(text: string, emotes: readonly ChatEmote[]): { visible: number; symbols: number } {
  const mask = emoteMask(text, emotes);
  let visible = 0;
  let symbols = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < text.length;
    if (mask && mask[i]) {
      if (pair) i++;
      continue;
    }
    if (c === 32) continue;
    visible++;
    if (c < 128) {
      const alnum = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
      if (!alnum && c > 32) symbols++;
      continue;
    }
    const ch = pair ? text.slice(i, i + 2) : text[i]!;
    if (pair) i++;
    if (!WORDISH.test(ch)) symbols++;
  }
  return { visible, symbols };
}

/** The longest run of combining marks on one character (zalgo text stacks dozens). */
export function longestMarkRun(text: string): number {
  let run = 0;
  let longest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isCombining(c)) {
      run++;
      if (run > longest) longest = run;
    } else run = 0;
  }
  return longest;
}

function isCombining(c: number): boolean {
  return (
    (c >= 0x0300 && c <= 0x036f) ||
    (c >= 0x1ab0 && c <= 0x1aff) ||
    (c >= 0x1dc0 && c <= 0x1dff) ||
    (c >= 0x20d0 && c <= 0x20ff) ||
    (c >= 0xfe20 && c <= 0xfe2f) ||
    (c >= 0x0483 && c <= 0x0489)
  );
}

/** Lower case, compatibility-folded, without combining marks (so "Ｂ̸ＡＤ" matches "bad"). */
// eslint-disable-next-line no-control-regex -- every ASCII code, control characters included
const ASCII = /^[\x00-\x7f]*$/;
export function foldText(text: string): string {
  if (ASCII.test(text)) return text.toLowerCase();
  let folded = text.normalize('NFKD');
  folded = folded.replace(/\p{M}+/gu, '');
  return folded.toLowerCase();
}

/** Characters of a text, for length limits (code points, as platforms count them). */
export function textLength(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xdc00 || c > 0xdfff) n++;
  }
  return n;
}

/** Character bigrams of a text (as numbers) with their counts. */
export interface Bigrams {
  readonly text: string;
  readonly counts: Map<number, number>;
  readonly total: number;
}

export function bigrams(text: string): Bigrams {
  const counts = new Map<number, number>();
  for (let i = 0; i < text.length - 1; i++) {
    const g = text.charCodeAt(i) * 65536 + text.charCodeAt(i + 1);
    counts.set(g, (counts.get(g) ?? 0) + 1);
  }
  return { text, counts, total: Math.max(0, text.length - 1) };
}

/** Dice coefficient of character bigrams, 0–1 (linear time, order-insensitive near-duplicates). */
export function bigramSimilarity(a: Bigrams, b: Bigrams): number {
  if (a.text === b.text) return 1;
  if (a.total === 0 || b.total === 0) return 0;
  let overlap = 0;
  const [small, large] = a.counts.size <= b.counts.size ? [a.counts, b.counts] : [b.counts, a.counts];
  for (const [g, n] of small) {
    const m = large.get(g);
    if (m) overlap += n < m ? n : m;
  }
  return (2 * overlap) / (a.total + b.total);
}

export function similarity(a: string, b: string): number {
  return bigramSimilarity(bigrams(a), bigrams(b));
}

/** Banned words: one case-insensitive pattern of whole words and phrases; `*` matches within a word. */
export function compileWords(words: readonly string[]): RegExp | null {
  const parts = words
    .map((w) => foldText(w.trim()))
    .filter((w) => w.length > 0)
    .map((w) =>
      w
        .split('*')
        .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+'))
        .join('[\\p{L}\\p{N}]{0,30}'),
    );
  if (parts.length === 0) return null;
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${parts.join('|')})(?![\\p{L}\\p{N}])`, 'u');
}

/** Compiles a user regular expression with RE2 (linear time). Throws `RegexError` with a readable message. */
export class RegexError extends Error {}
export function compileRegex(pattern: string): RE2JS {
  if (pattern.length > 500) throw new RegexError('Regular expressions are limited to 500 characters.');
  try {
    return RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE);
  } catch (error) {
    // RE2 names the pattern with the case-insensitive flag it was given; the user wrote it without.
    const message = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '').replaceAll('`(?i)', '`') : 'invalid';
    throw new RegexError(`Invalid regular expression: ${message}`);
  }
}

/**
 * True when a pattern matches the same texts case-insensitively as it does case-sensitively on
 * lower-cased text: no upper-case letter outside case-blind escapes (`\W`, `\s` …), no character
 * property or code escapes (`\p{Lu}`, `\x41`) and no inline flags. RE2's case folding is several
 * times slower than a case-sensitive match, so such patterns run on the lower-cased message.
 */
export function lowerCaseSafe(pattern: string): boolean {
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern.charCodeAt(i);
    if (c === 92 /* backslash */) {
      const next = pattern[i + 1] ?? '';
      if ('pPxuUQ0123456789'.includes(next)) return false;
      i++;
      continue;
    }
    if (pattern.startsWith('(?', i) && /^\(\?[a-zA-Z-]+[:)]/.test(pattern.slice(i, i + 12))) return false;
    const ch = pattern[i]!;
    if (ch !== ch.toLowerCase()) return false;
  }
  return true;
}

/**
 * A set of user patterns as at most two RE2 programs (one alternation matched on the lower-cased text,
 * one case-insensitive for the rest); the reason names the pattern that matched. Patterns that no longer
 * compile are skipped (the editor validates them when saved).
 */
export function compileRegexSet(patterns: readonly string[]): (text: string, lower: string) => string | null {
  const lowerOnes: RE2JS[] = [];
  const foldOnes: RE2JS[] = [];
  for (const source of patterns) {
    try {
      if (lowerCaseSafe(source)) lowerOnes.push(RE2JS.compile(source));
      else foldOnes.push(compileRegex(source));
    } catch {
      // skipped, see above
    }
  }
  const combine = (list: RE2JS[], flags: number) =>
    list.length === 0 ? null : list.length === 1 ? list[0]! : RE2JS.compile(list.map((p) => `(?:${p.pattern()})`).join('|'), flags);
  const lowerAll = combine(lowerOnes, 0);
  const foldAll = combine(foldOnes, RE2JS.CASE_INSENSITIVE);
  // RE2 is linear in the text: the whole message is matched, however long.
  return (text, lower) => {
    if (lowerAll?.test(lower)) return `matches /${lowerOnes.find((p) => p.test(lower))?.pattern() ?? lowerAll.pattern()}/`;
    if (foldAll?.test(text)) return `matches /${foldOnes.find((p) => p.test(text))?.pattern() ?? foldAll.pattern()}/`;
    return null;
  };
}

/** Messages per user kept for the repetition filter. */
const REPETITION_MEMORY = 3;
const REPETITION_WINDOW_MS = 10 * 60_000;
/** Users per channel remembered by the repetition filter (oldest forgotten first). */
const REPETITION_USERS = 5_000;

interface Compiled {
  def: FilterDefinition;
  check(input: FilterInput, prepared: Prepared): string | null;
}

/** Per-message values computed once, whichever filters need them. */
class Prepared {
  private foldedText: string | undefined;
  private lowerText: string | undefined;
  constructor(readonly input: FilterInput) {}
  get folded(): string {
    return (this.foldedText ??= foldText(this.input.text));
  }
  get lower(): string {
    return (this.lowerText ??= this.input.text.toLowerCase());
  }
  private gramsOf: Bigrams | undefined;
  /** Bigrams of the folded, trimmed text (first 300 characters), for repetition. */
  get grams(): Bigrams {
    return (this.gramsOf ??= bigrams(this.folded.trim().slice(0, 300)));
  }
}

/**
 * A channel's compiled filters (enabled ones, in order) and their memory (recent messages per user
 * for repetition, link permits).
 */
export class FilterSet {
  private readonly compiled: Compiled[];
  private readonly recent = new Map<string, { grams: Bigrams; at: number }[]>();
  private readonly permits = new Map<string, number>();
  readonly hasRepetition: boolean;

  constructor(defs: readonly FilterDefinition[]) {
    this.compiled = defs.filter((d) => d.enabled).map((d) => compileFilter(d, this));
    this.hasRepetition = this.compiled.some((c) => c.def.type === 'repetition');
  }

  get size(): number {
    return this.compiled.length;
  }

  /** The first filter the line breaks, or null. */
  check(input: FilterInput): FilterHit | null {
    if (this.compiled.length === 0) return null;
    const prepared = new Prepared(input);
    let hit: FilterHit | null = null;
    for (const c of this.compiled) {
      if (input.level >= c.def.exemptLevel) continue;
      const reason = c.check(input, prepared);
      if (reason !== null) {
        hit = { filter: c.def, reason };
        break;
      }
    }
    if (this.hasRepetition) this.remember(input, prepared);
    return hit;
  }

  /** `!permit`: the next link of this user (permit key) until `until` goes through. */
  permit(permitKey: string, until: number): void {
    this.permits.set(permitKey, until);
    if (this.permits.size > 1000) for (const [k, t] of this.permits) if (t < until - 3_600_000) this.permits.delete(k);
  }

  /** Uses a user's permit if one is running. */
  consumePermit(permitKey: string, now: number): boolean {
    const until = this.permits.get(permitKey);
    if (until === undefined) return false;
    this.permits.delete(permitKey);
    return until >= now;
  }

  recentOf(userKey: string): readonly { grams: Bigrams; at: number }[] {
    return this.recent.get(userKey) ?? [];
  }

  private remember(input: FilterInput, prepared: Prepared): void {
    const grams = prepared.grams;
    if (!grams.text) return;
    let list = this.recent.get(input.userKey);
    if (list) this.recent.delete(input.userKey);
    else list = [];
    list.push({ grams, at: input.now });
    if (list.length > REPETITION_MEMORY) list.shift();
    this.recent.set(input.userKey, list);
    if (this.recent.size > REPETITION_USERS) {
      const oldest = this.recent.keys().next().value;
      if (oldest !== undefined) this.recent.delete(oldest);
    }
  }
}

function compileFilter(def: FilterDefinition, set: FilterSet): Compiled {
  switch (def.type) {
    case 'links': {
      const allowed = (def.settings as FilterSettings['links']).allowed_domains.map((d) =>
        d
          .trim()
          .toLowerCase()
          .replace(/^https?:\/\//, '')
          .replace(/^\*\./, '')
          .replace(/\/.*$/, ''),
      );
      return {
        def,
        check: (input) => {
          const hosts = findLinks(input.text).filter((h) => !domainAllowed(h, allowed));
          if (hosts.length === 0) return null;
          if (set.consumePermit(input.permitKey, input.now)) return null;
          return `link to ${hosts[0]}`;
        },
      };
    }
    case 'caps': {
      const s = def.settings as FilterSettings['caps'];
      return {
        def,
        check: (input) => {
          const { letters, upper } = capsStats(input.text, input.emotes);
          if (letters < s.min_length || letters === 0) return null;
          const percent = Math.round((upper / letters) * 100);
          return percent >= s.max_percent ? `${percent}% capitals` : null;
        },
      };
    }
    case 'symbols': {
      const s = def.settings as FilterSettings['symbols'];
      return {
        def,
        check: (input) => {
          const { visible, symbols } = symbolStats(input.text, input.emotes);
          if (visible < s.min_length || visible === 0) return null;
          const percent = Math.round((symbols / visible) * 100);
          return percent >= s.max_percent ? `${percent}% symbols` : null;
        },
      };
    }
    case 'emotes': {
      const s = def.settings as FilterSettings['emotes'];
      return { def, check: (input) => (input.emotes.length > s.max_count ? `${input.emotes.length} emotes` : null) };
    }
    case 'words': {
      const re = compileWords((def.settings as FilterSettings['words']).words);
      return {
        def,
        check: (_input, p) => {
          if (!re) return null;
          const m = re.exec(p.folded);
          return m ? `banned word "${m[0]}"` : null;
        },
      };
    }
    case 'regex': {
      const matcher = compileRegexSet((def.settings as FilterSettings['regex']).patterns);
      return { def, check: (input, p) => matcher(input.text, p.lower) };
    }
    case 'repetition': {
      const s = def.settings as FilterSettings['repetition'];
      const threshold = s.similarity_percent / 100;
      return {
        def,
        check: (input, p) => {
          const text = p.folded.trim().slice(0, 300);
          if (textLength(text) < s.min_length) return null;
          const recent = set.recentOf(input.userKey);
          if (recent.length > 0) {
            const grams = p.grams;
            for (const prev of recent) {
              if (input.now - prev.at > REPETITION_WINDOW_MS) continue;
              // Dice ≤ 2·min/(a+b): skip what is too different in length to be similar enough.
              const bound = (2 * Math.min(prev.grams.total, grams.total)) / (prev.grams.total + grams.total || 1);
              if (bound < threshold) continue;
              const sim = bigramSimilarity(prev.grams, grams);
              if (sim >= threshold) return `${Math.round(sim * 100)}% like a recent message`;
            }
          }
          const words = text.split(/\s+/u).filter(Boolean);
          if (words.length >= 6) {
            const counts = new Map<string, number>();
            let most = 0;
            for (const w of words) {
              const n = (counts.get(w) ?? 0) + 1;
              counts.set(w, n);
              if (n > most) most = n;
            }
            const share = most / words.length;
            if (share >= threshold) return `one word is ${Math.round(share * 100)}% of the message`;
          }
          return null;
        },
      };
    }
    case 'length': {
      const s = def.settings as FilterSettings['length'];
      return {
        def,
        check: (input) => {
          const n = textLength(input.text);
          return n > s.max_length ? `${n} characters` : null;
        },
      };
    }
    case 'zalgo': {
      const s = def.settings as FilterSettings['zalgo'];
      return {
        def,
        check: (input) => {
          const run = longestMarkRun(input.text);
          return run > s.max_marks ? `${run} stacked marks` : null;
        },
      };
    }
  }
}

/** Stronger moderation actions, in order. */
const ladder: FilterAction[] = ['delete', 'timeout', 'ban'];

export interface PlatformModeration {
  deleteMessage: boolean;
  /** Timeouts and bans (the port's ban with or without a duration). */
  ban: boolean;
  maxTimeoutSeconds: number | null;
}

export interface PlannedAction {
  /** What the filter asked for. */
  readonly requested: FilterAction | 'warn';
  /** What will be done; null when the platform can do nothing. */
  readonly action: FilterAction | null;
  readonly durationSeconds: number | null;
  /** Why the action differs from the request (for the log). */
  readonly note: string | null;
}

/** Seconds of the timeout used when a message cannot be deleted on its own (a "purge"). */
export const PURGE_SECONDS = 1;

/**
 * Chooses the platform action: the filter's (or a warning's delete), else the next allowed one up the
 * ladder delete → timeout → ban, with a timeout clamped to the platform's longest.
 */
export function planAction(
  requested: FilterAction | 'warn',
  durationSeconds: number,
  platform: PlatformModeration,
  platformName: string,
): PlannedAction {
  const want: FilterAction = requested === 'warn' ? 'delete' : requested;
  const can = (a: FilterAction) => (a === 'delete' ? platform.deleteMessage : platform.ban);
  const start = ladder.indexOf(want);
  for (let i = start; i < ladder.length; i++) {
    const a = ladder[i]!;
    if (!can(a)) continue;
    let duration: number | null = a === 'timeout' ? (want === 'timeout' ? durationSeconds : PURGE_SECONDS) : null;
    let note: string | null = a === want ? null : `${platformName} cannot ${verb(want)}; ${describe(a, duration)} instead`;
    if (duration !== null && platform.maxTimeoutSeconds !== null && duration > platform.maxTimeoutSeconds) {
      const clamped = platform.maxTimeoutSeconds;
      note = `${note ? `${note}; ` : ''}${platformName} allows timeouts up to ${clamped} s`;
      duration = clamped;
    }
    return { requested, action: a, durationSeconds: duration, note };
  }
  return { requested, action: null, durationSeconds: null, note: `${platformName} has no moderation actions; nothing done` };
}

function verb(a: FilterAction): string {
  return a === 'delete' ? 'delete single messages' : a === 'timeout' ? 'time out' : 'ban';
}

function describe(a: FilterAction, duration: number | null): string {
  return a === 'timeout' ? `timed out ${duration ?? 0} s` : a === 'delete' ? 'deleted' : 'banned';
}

/** Offences per user and filter within the current stream (warn first, then escalate). Reset when a stream starts. */
export class Offences {
  private readonly counts = new Map<string, number>();

  /** Counts one offence; returns how many this user has now for this filter. */
  add(filterId: string, userKey: string): number {
    const key = `${filterId}\u0000${userKey}`;
    const n = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, n);
    if (this.counts.size > 50_000) this.counts.clear();
    return n;
  }

  reset(): void {
    this.counts.clear();
  }
}
