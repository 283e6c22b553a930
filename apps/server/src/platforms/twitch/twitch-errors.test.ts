import { describe, expect, it } from 'vitest';
import { twitchErrorFixtures } from './twitch-error-fixtures';
import { parseTwitchError } from './twitch-errors';

describe('Twitch error parser (recorded Helix answers)', () => {
  it.each(twitchErrorFixtures.map((f) => [f.name, f] as const))('%s', (_name, f) => {
    const error = parseTwitchError({ status: f.status, body: f.body });
    expect(error).toMatchObject({ code: f.code, provider: 'twitch' });
    expect(error.message).toMatch(f.message);
  });

  it('reads a body that is not JSON, and a 429 as a rate limit', () => {
    expect(parseTwitchError({ status: 502, body: '<html>Bad gateway</html>' })).toMatchObject({ code: 'temporary' });
    expect(parseTwitchError({ status: 429, body: '', retryAfterSeconds: 3 })).toMatchObject({ code: 'rate_limited', retryAfterSeconds: 3 });
  });
});
