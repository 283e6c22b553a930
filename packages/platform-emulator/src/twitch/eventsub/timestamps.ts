/**
 * EventSub timestamps: RFC 3339 with nanoseconds, as Go's time.RFC3339Nano prints them (Twitch's servers are Go):
 * up to nine fraction digits with trailing zeros dropped, so the length varies ("…:51.634234626Z", "…:11.1710671Z",
 * "…:12Z"). A client that assumes JavaScript's three-digit milliseconds breaks on Twitch; it must here too.
 */
let lastMs = 0;
let subMs = 0;

export function rfc3339Nano(date: Date = new Date()): string {
  const ms = date.getTime();
  // Sub-millisecond digits from the monotonic clock, increasing within a millisecond (distinct, ordered stamps).
  const sub =
    ms === lastMs ? Math.min(999_999, subMs + 1 + Math.floor(Math.random() * 1000)) : Number(process.hrtime.bigint() % 1_000_000n);
  lastMs = ms;
  subMs = sub;
  const iso = date.toISOString(); // YYYY-MM-DDTHH:MM:SS.mmmZ
  const fraction = `${iso.slice(20, 23)}${String(sub).padStart(6, '0')}`.replace(/0+$/, '');
  return `${iso.slice(0, 19)}${fraction ? `.${fraction}` : ''}Z`;
}
