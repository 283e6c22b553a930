import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

describe('loadConfig', () => {
  it('defaults to the embedded database and the emulator when no platform credentials are set', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(3000);
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.useEmulator).toBe(true);
  });

  it('turns the emulator off once real credentials are configured', () => {
    expect(loadConfig({ TWITCH_CLIENT_ID: 'id', TWITCH_CLIENT_SECRET: 'secret' }).useEmulator).toBe(false);
    expect(loadConfig({ TWITCH_CLIENT_ID: 'id', TWITCH_CLIENT_SECRET: 'secret', EMULATOR: 'true' }).useEmulator).toBe(true);
  });

  it('names the variable of an invalid value', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL: must be a postgres/);
    expect(() => loadConfig({ KICK_CLIENT_ID: 'id' })).toThrow(/KICK_CLIENT_SECRET/);
    expect(() => loadConfig({ GREENROOM_ADMINS: 'twitch' })).toThrow(/GREENROOM_ADMINS/);
  });

  it('parses operators', () => {
    expect(loadConfig({ GREENROOM_ADMINS: 'twitch:1, kick:2' }).admins).toEqual([
      { provider: 'twitch', providerUserId: '1' },
      { provider: 'kick', providerUserId: '2' },
    ]);
  });
});
