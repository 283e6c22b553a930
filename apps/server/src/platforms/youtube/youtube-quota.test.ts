/**
 * The quota reset: midnight in America/Los_Angeles, through daylight saving changes (a 23- and a 25-hour day), and
 * when a refused channel calls again (the reset plus a spread of at most the jitter).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quotaResumeAt } from './youtube-adapter';
import { quotaDay, quotaResetsAt } from './youtube-quota';

const losAngeles = new Intl.DateTimeFormat('en-US', {
  timeZone: 'America/Los_Angeles',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

describe('quotaResetsAt', () => {
  it('is midnight Pacific after the last instant of each day around the DST changes', () => {
    // Spring forward: 2026-03-08 02:00 PST becomes 03:00 PDT (a 23-hour day).
    expect(quotaResetsAt(new Date('2026-03-08T07:59:59.999Z')).toISOString()).toBe('2026-03-08T08:00:00.000Z');
    expect(quotaResetsAt(new Date('2026-03-08T08:00:00.000Z')).toISOString()).toBe('2026-03-09T07:00:00.000Z');
    expect(quotaResetsAt(new Date('2026-03-08T10:30:00Z')).toISOString()).toBe('2026-03-09T07:00:00.000Z'); // 03:30 PDT
    // Fall back: 2026-11-01 02:00 PDT becomes 01:00 PST (a 25-hour day; 01:30 happens twice).
    expect(quotaResetsAt(new Date('2026-11-01T06:59:59.999Z')).toISOString()).toBe('2026-11-01T07:00:00.000Z');
    expect(quotaResetsAt(new Date('2026-11-01T08:30:00Z')).toISOString()).toBe('2026-11-02T08:00:00.000Z'); // 01:30 PDT
    expect(quotaResetsAt(new Date('2026-11-01T09:30:00Z')).toISOString()).toBe('2026-11-02T08:00:00.000Z'); // 01:30 PST
    // A year later the rule still holds (2027: March 14 and November 7).
    expect(quotaResetsAt(new Date('2027-03-14T12:00:00Z')).toISOString()).toBe('2027-03-15T07:00:00.000Z');
    expect(quotaResetsAt(new Date('2027-11-07T12:00:00Z')).toISOString()).toBe('2027-11-08T08:00:00.000Z');
  });

  it('is always the next Pacific midnight: later than now, within 25 hours, and the start of the next quota day', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('2024-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true }), (now) => {
        const reset = quotaResetsAt(now);
        expect(reset.getTime()).toBeGreaterThan(now.getTime());
        expect(reset.getTime() - now.getTime()).toBeLessThanOrEqual(25 * 3_600_000);
        expect(losAngeles.format(reset)).toBe('00:00:00');
        expect(quotaDay(reset)).not.toBe(quotaDay(now));
        expect(quotaDay(new Date(reset.getTime() - 1))).toBe(quotaDay(now));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('quotaResumeAt', () => {
  it('is the reset plus a spread below the jitter', () => {
    const now = new Date('2026-07-04T18:00:00Z');
    expect(quotaResumeAt(now, 60_000, () => 0).toISOString()).toBe('2026-07-05T07:00:00.000Z');
    expect(quotaResumeAt(now, 60_000, () => 0.999).toISOString()).toBe('2026-07-05T07:00:59.940Z');
  });
});
