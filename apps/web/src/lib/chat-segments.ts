import type { ChatEmote } from '@greenroom/contracts/api/events';

/** One piece of a chat message as rendered: plain text, an emote image, a safe link or a mention. */
export type ChatSegment =
  | { kind: 'text'; text: string }
  | { kind: 'emote'; code: string; url: string; source: ChatEmote['source'] }
  | { kind: 'link'; text: string; href: string }
  | { kind: 'mention'; text: string; login: string; highlighted: boolean };

type EmoteRange = Pick<ChatEmote, 'start' | 'end' | 'name' | 'url' | 'source'>;

/** Links are only ever http(s) — anything else (javascript:, data:, vbscript:…) stays plain text. */
export function safeHref(raw: string): string | null {
  const candidate = /^www\./i.test(raw) ? `https://${raw}` : raw;
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return null;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
}

/** Emote ranges sorted by start; invalid, out-of-range and overlapping ranges (the later one) are dropped. */
export function normaliseEmotes(emotes: readonly EmoteRange[], textLength: number): EmoteRange[] {
  const sorted = emotes
    .filter(
      (e) =>
        Number.isInteger(e.start) &&
        Number.isInteger(e.end) &&
        e.start >= 0 &&
        e.end > e.start &&
        e.end <= textLength &&
        safeHref(e.url) !== null,
    )
    .toSorted((a, b) => a.start - b.start || b.end - a.end);
  const kept: EmoteRange[] = [];
  let cursor = 0;
  for (const emote of sorted) {
    if (emote.start < cursor) continue;
    kept.push(emote);
    cursor = emote.end;
  }
  return kept;
}

// A URL-ish token (scheme or www.) or an @mention. Compiled once.
const TOKEN_RE = /(\b[a-z][a-z0-9+.-]*:\/\/[^\s<>"']+|\bwww\.[^\s<>"']+)|(@[A-Za-z0-9_]{2,25})/gi;
const TRAILING_PUNCTUATION_RE = /[.,!?;:)\]}]+$/;

function splitText(text: string, mentionLogins: ReadonlySet<string>, out: ChatSegment[]): void {
  let last = 0;
  for (const match of text.matchAll(TOKEN_RE)) {
    const index = match.index;
    let token = match[0];
    if (match[1]) {
      // Leave trailing punctuation ("see https://x.y/a.") outside the link.
      const trailing = TRAILING_PUNCTUATION_RE.exec(token)?.[0] ?? '';
      token = token.slice(0, token.length - trailing.length);
      const href = safeHref(token);
      if (!href) continue;
      if (index > last) out.push({ kind: 'text', text: text.slice(last, index) });
      out.push({ kind: 'link', text: token, href });
      last = index + token.length;
    } else {
      const login = token.slice(1).toLowerCase();
      if (index > last) out.push({ kind: 'text', text: text.slice(last, index) });
      out.push({ kind: 'mention', text: token, login, highlighted: mentionLogins.has(login) });
      last = index + token.length;
    }
  }
  if (last < text.length) out.push({ kind: 'text', text: text.slice(last) });
}

/**
 * Splits a message into renderable segments: emotes from their [start, end) UTF-16 ranges, then links
 * (http/https only) and @mentions in the text between them. `highlightLogins` are the streamer's logins
 * (lower case): mentions of them are flagged for highlighting.
 */
export function segmentMessage(
  text: string,
  emotes: readonly EmoteRange[],
  highlightLogins: ReadonlySet<string> = new Set(),
): ChatSegment[] {
  const out: ChatSegment[] = [];
  let cursor = 0;
  for (const emote of normaliseEmotes(emotes, text.length)) {
    if (emote.start > cursor) splitText(text.slice(cursor, emote.start), highlightLogins, out);
    out.push({ kind: 'emote', code: text.slice(emote.start, emote.end) || emote.name, url: emote.url, source: emote.source });
    cursor = emote.end;
  }
  if (cursor < text.length) splitText(text.slice(cursor), highlightLogins, out);
  return out;
}

/** True when the message mentions one of the given logins (from the message's own `mentions` or its text). */
export function mentionsAny(mentions: readonly string[], text: string, logins: ReadonlySet<string>): boolean {
  if (logins.size === 0) return false;
  if (mentions.some((m) => logins.has(m.toLowerCase()))) return true;
  for (const match of text.matchAll(TOKEN_RE)) {
    if (match[2] && logins.has(match[2].slice(1).toLowerCase())) return true;
  }
  return false;
}
