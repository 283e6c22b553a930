import { describe, expect, it } from 'vitest';
import { timeoutProblem } from './providers';

describe('timeoutProblem', () => {
  it('Kick: whole minutes from 1 minute to 7 days (10,080 minutes)', () => {
    const minutes = 'Kick times out in whole minutes, from 1 minute to 7 days.';
    expect(timeoutProblem('kick', 30)).toBe(minutes);
    expect(timeoutProblem('kick', 90)).toBe(minutes);
    expect(timeoutProblem('kick', 0)).toBe(minutes);
    expect(timeoutProblem('kick', 60)).toBeNull();
    expect(timeoutProblem('kick', 10_080 * 60)).toBeNull();
    expect(timeoutProblem('kick', 10_081 * 60)).toBe('Kick timeouts last from 1 minute to 7 days.');
  });

  it('Twitch and YouTube: whole seconds up to their longest timeout', () => {
    expect(timeoutProblem('twitch', 1)).toBeNull();
    expect(timeoutProblem('twitch', 30)).toBeNull();
    expect(timeoutProblem('twitch', 1.5)).toBe('Twitch timeouts are a whole number of seconds, from 1 second to 14 days.');
    expect(timeoutProblem('twitch', 1_209_601)).toBe('Twitch timeouts last from 1 second to 14 days.');
    expect(timeoutProblem('youtube', 86_400)).toBeNull();
    expect(timeoutProblem('youtube', 86_401)).toBe('YouTube timeouts last from 1 second to 1 day.');
  });
});
