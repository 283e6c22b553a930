/** Shapes the stats answer for the charts and the CSV export (pure, unit-tested). */
import type { StatsDto } from '@greenroom/contracts/api/stats';
import { providers, type ChannelProviderId } from '@greenroom/contracts/providers';

export interface ChartSeries {
  /** The row key: the connection id. */
  name: string;
  label: string;
  color: string;
}

export interface ChartData {
  series: ChartSeries[];
  /** One row per bucket: `at` (epoch ms) and a value per connection (absent: no data). */
  viewers: Record<string, number>[];
  chatRate: Record<string, number>[];
  /** Commands answered per bucket, per connection (0 where none). */
  commands: Record<string, number>[];
  /** The points economy per bucket, channel-wide (0 where nothing changed). */
  points: Record<string, number>[];
}

/** The points economy's figures as chart series. */
export const pointsSeries: ChartSeries[] = [
  { name: 'earned', label: 'Earned', color: 'teal.6' },
  { name: 'spent', label: 'Spent', color: 'orange.6' },
  { name: 'won', label: 'Won at games', color: 'yellow.6' },
  { name: 'lost', label: 'Lost at games', color: 'red.6' },
  { name: 'given', label: 'Given', color: 'blue.6' },
];

/** Viewers (average in the bucket) and chat messages per minute, one series per connection, one row per bucket. */
export function chartData(stats: StatsDto): ChartData {
  const seen = new Map<string, ChannelProviderId>();
  for (const p of stats.series) seen.set(p.channel_provider_id, p.provider);
  const count = new Map<ChannelProviderId, number>();
  for (const provider of seen.values()) count.set(provider, (count.get(provider) ?? 0) + 1);
  const series = [...seen].map(([id, provider], i) => ({
    name: id,
    // Two connections of one platform (one removed and added again) keep apart.
    label: (count.get(provider) ?? 0) > 1 ? `${providers[provider].name} ${i + 1}` : providers[provider].name,
    color: `${providers[provider].color}.6`,
  }));
  const minutes = stats.bucket_seconds / 60;
  const viewers = new Map<number, Record<string, number>>();
  const chat = new Map<number, Record<string, number>>();
  const commands = new Map<number, Record<string, number>>();
  const points = new Map<number, Record<string, number>>();
  const from = Date.parse(stats.from);
  const to = Date.parse(stats.to);
  const step = stats.bucket_seconds * 1000;
  // Every bucket of the range gets a row (0 without activity), so quiet stretches show as quiet.
  for (let at = Math.floor(from / step) * step; at < to; at += step) {
    const row: Record<string, number> = { at };
    for (const s of series) row[s.name] = 0;
    chat.set(at, row);
    commands.set(at, { ...row });
    const economy: Record<string, number> = { at };
    for (const s of pointsSeries) economy[s.name] = 0;
    points.set(at, economy);
  }
  for (const p of stats.points_series) {
    const at = Date.parse(p.at);
    const row = points.get(at) ?? { at };
    for (const s of pointsSeries) row[s.name] = p[s.name as keyof typeof p] as number;
    points.set(at, row);
  }
  for (const p of stats.series) {
    const at = Date.parse(p.at);
    const c = chat.get(at) ?? { at };
    c[p.channel_provider_id] = Math.round((p.messages / minutes) * 10) / 10;
    chat.set(at, c);
    const k = commands.get(at) ?? { at };
    k[p.channel_provider_id] = p.commands;
    commands.set(at, k);
    if (p.viewers !== null) {
      const v = viewers.get(at) ?? { at };
      v[p.channel_provider_id] = Math.round(p.viewers);
      viewers.set(at, v);
    }
  }
  const byTime = (a: Record<string, number>, b: Record<string, number>) => a.at! - b.at!;
  return {
    series,
    viewers: [...viewers.values()].sort(byTime),
    chatRate: [...chat.values()].sort(byTime),
    commands: [...commands.values()].sort(byTime),
    points: [...points.values()].sort(byTime),
  };
}

function csvCell(value: string | number | null): string {
  if (value === null) return '';
  const text = String(value);
  // Quote what would break the row, and neutralise formulas for spreadsheet programs (a negative number stays one).
  const safe = typeof value === 'string' && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * The series as CSV: one line per connection and bucket; the points economy (channel-wide) on lines of its own
 * whose platform is "All platforms".
 */
export function statsCsv(stats: StatsDto): string {
  const header = [
    'time',
    'platform',
    'viewers',
    'chat_messages',
    'chat_messages_per_minute',
    'new_followers',
    'new_subscribers',
    'moderation_actions',
    'commands_used',
    'points_earned',
    'points_spent',
    'points_won',
    'points_lost',
    'points_given',
    'points_adjusted',
  ];
  const minutes = stats.bucket_seconds / 60;
  const noPoints = [null, null, null, null, null, null];
  const rows: { at: string; cells: (string | number | null)[] }[] = stats.series.map((p) => ({
    at: p.at,
    cells: [
      p.at,
      providers[p.provider].name,
      p.viewers === null ? null : Math.round(p.viewers * 10) / 10,
      p.messages,
      Math.round((p.messages / minutes) * 100) / 100,
      p.follows,
      p.subs,
      p.moderation,
      p.commands,
      ...noPoints,
    ],
  }));
  for (const p of stats.points_series) {
    rows.push({
      at: p.at,
      cells: [p.at, 'All platforms', null, null, null, null, null, null, null, p.earned, p.spent, p.won, p.lost, p.given, p.adjusted],
    });
  }
  // By time; within a bucket the connections (in the answer's order) before the channel-wide line.
  const ordered = rows.map((r, i) => ({ ...r, i })).sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || a.i - b.i);
  const lines = ordered.map((r) => r.cells.map(csvCell).join(','));
  return [header.join(','), ...lines].join('\r\n') + '\r\n';
}
