import { describe, expect, it } from 'vitest';
import { kickErrorFixtures } from './kick-error-fixtures';
import { parseKickError } from './kick-errors';

describe('Kick error parser (recorded public API answers)', () => {
  it.each(kickErrorFixtures.map((f) => [f.name, f] as const))('%s', (_name, f) => {
    const error = parseKickError(
      { status: f.status, body: f.body },
      { what: 'send the message', scope: f.scope ?? null, tokenScopes: f.tokenScopes ?? [] },
    );
    expect(error).toMatchObject({ code: f.code, provider: 'kick' });
    expect(error.message).toMatch(f.message);
  });

  it('keeps Retry-After on a 429 and calls a 5xx temporary', () => {
    const context = { what: 'ban the user', scope: null, tokenScopes: [] };
    expect(parseKickError({ status: 429, body: null, retryAfterSeconds: 12 }, context)).toMatchObject({
      code: 'rate_limited',
      retryAfterSeconds: 12,
    });
    expect(parseKickError({ status: 500, body: null }, context)).toMatchObject({ code: 'temporary' });
  });
});
