import { describe, expect, it } from 'vitest';
import { duration, formatDate, formatDateTime, formatTime, relativeTime } from './format';

describe('relativeTime', () => {
  const now = new Date('2025-03-05T12:00:00Z').getTime();
  const ago = (seconds: number) => now - seconds * 1000;

  it('says "Now" under 60 seconds, and for future moments', () => {
    expect(relativeTime(ago(0), now)).toBe('Now');
    expect(relativeTime(ago(59), now)).toBe('Now');
    expect(relativeTime(ago(-120), now)).toBe('Now');
  });

  it('counts minutes, then hours, then days', () => {
    expect(relativeTime(ago(60), now)).toBe('1m');
    expect(relativeTime(ago(5 * 60 + 30), now)).toBe('5m');
    expect(relativeTime(ago(59 * 60 + 59), now)).toBe('59m');
    expect(relativeTime(ago(3600), now)).toBe('1h');
    expect(relativeTime(ago(3 * 3600 + 1800), now)).toBe('3h');
    expect(relativeTime(ago(23 * 3600 + 3599), now)).toBe('23h');
    expect(relativeTime(ago(24 * 3600), now)).toBe('1d');
    expect(relativeTime(ago(2 * 86400 + 5), now)).toBe('2d');
    expect(relativeTime(ago(400 * 86400), now)).toBe('400d');
  });

  it('accepts ISO strings and Dates', () => {
    expect(relativeTime('2025-03-05T11:55:00Z', new Date(now))).toBe('5m');
  });
});

describe('duration', () => {
  it('formats seconds as h:mm:ss', () => {
    expect(duration(0)).toBe('0:00:00');
    expect(duration(59)).toBe('0:00:59');
    expect(duration(61)).toBe('0:01:01');
    expect(duration(3725)).toBe('1:02:05');
    expect(duration(36000)).toBe('10:00:00');
    expect(duration(100 * 3600 + 59)).toBe('100:00:59');
  });

  it('drops fractions and treats negative or invalid values as zero', () => {
    expect(duration(61.9)).toBe('0:01:01');
    expect(duration(-5)).toBe('0:00:00');
    expect(duration(Number.NaN)).toBe('0:00:00');
  });
});

describe('dates', () => {
  it('formats dates in long English format ("LL")', () => {
    expect(formatDate(new Date(2025, 2, 5, 14, 3, 9))).toBe('March 5, 2025');
  });

  it('formats times as HH:mm:ss', () => {
    expect(formatTime(new Date(2025, 2, 5, 4, 3, 9))).toBe('04:03:09');
    expect(formatTime(new Date(2025, 2, 5, 23, 59, 0))).toBe('23:59:00');
  });

  it('formats date and time together', () => {
    expect(formatDateTime(new Date(2025, 11, 31, 18, 0, 1))).toBe('December 31, 2025 18:00:01');
  });
});
