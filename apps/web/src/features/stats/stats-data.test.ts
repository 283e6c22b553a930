import { describe, expect, it } from 'vitest';
import type { StatsDto } from '@greenroom/contracts/api/stats';
import { chartData, statsCsv } from './stats-data';

const stats: StatsDto = {
  from: '2026-03-02T20:00:00.000Z',
  to: '2026-03-02T20:03:00.000Z',
  bucket_seconds: 60,
  series: [
    {
      at: '2026-03-02T20:00:00.000Z',
      channel_provider_id: 'tw',
      provider: 'twitch',
      viewers: 100.4,
      messages: 12,
      follows: 1,
      subs: 0,
      moderation: 0,
      commands: 4,
    },
    {
      at: '2026-03-02T20:01:00.000Z',
      channel_provider_id: 'ki',
      provider: 'kick',
      viewers: null,
      messages: 3,
      follows: 0,
      subs: 2,
      moderation: 1,
      commands: 0,
    },
  ],
  totals: {
    messages: 15,
    follows: 1,
    subs: 2,
    moderation: 1,
    commands: 4,
    peak_viewers: 100,
    average_viewers: 100,
    minutes_live: 1,
    unique_chatters: 4,
  },
  platforms: [],
  top_chatters: [],
  streams: [],
  points_series: [{ at: '2026-03-02T20:01:00.000Z', earned: 120, spent: 30, won: 5, lost: 10, given: 7, adjusted: -2 }],
  points_totals: { earned: 120, spent: 30, won: 5, lost: 10, given: 7, adjusted: -2 },
  top_commands: [],
};

describe('stats chart data', () => {
  it('makes one series per connection and a chat row for every bucket, viewers only where sampled', () => {
    const data = chartData(stats);
    expect(data.series).toEqual([
      { name: 'tw', label: 'Twitch', color: 'grape.6' },
      { name: 'ki', label: 'Kick', color: 'green.6' },
    ]);
    const t0 = Date.parse('2026-03-02T20:00:00Z');
    expect(data.chatRate).toEqual([
      { at: t0, tw: 12, ki: 0 },
      { at: t0 + 60_000, tw: 0, ki: 3 },
      { at: t0 + 120_000, tw: 0, ki: 0 },
    ]);
    expect(data.viewers).toEqual([{ at: t0, tw: 100 }]);
    expect(data.commands).toEqual([
      { at: t0, tw: 4, ki: 0 },
      { at: t0 + 60_000, tw: 0, ki: 0 },
      { at: t0 + 120_000, tw: 0, ki: 0 },
    ]);
    expect(data.points).toEqual([
      { at: t0, earned: 0, spent: 0, won: 0, lost: 0, given: 0 },
      { at: t0 + 60_000, earned: 120, spent: 30, won: 5, lost: 10, given: 7 },
      { at: t0 + 120_000, earned: 0, spent: 0, won: 0, lost: 0, given: 0 },
    ]);
  });

  it('divides a wider bucket into messages per minute', () => {
    const data = chartData({
      ...stats,
      bucket_seconds: 300,
      to: '2026-03-02T20:05:00.000Z',
      series: [{ ...stats.series[0]!, messages: 50 }],
    });
    expect(data.chatRate[0]).toMatchObject({ tw: 10 });
  });

  it('exports CSV with a header and empty cells for missing viewers', () => {
    const csv = statsCsv(stats);
    expect(csv.split('\r\n')).toEqual([
      'time,platform,viewers,chat_messages,chat_messages_per_minute,new_followers,new_subscribers,moderation_actions,commands_used,points_earned,points_spent,points_won,points_lost,points_given,points_adjusted',
      '2026-03-02T20:00:00.000Z,Twitch,100.4,12,12,1,0,0,4,,,,,,',
      '2026-03-02T20:01:00.000Z,Kick,,3,3,0,2,1,0,,,,,,',
      '2026-03-02T20:01:00.000Z,All platforms,,,,,,,,120,30,5,10,7,-2',
      '',
    ]);
  });
});
