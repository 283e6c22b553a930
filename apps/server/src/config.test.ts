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

  it('trusts no proxy unless TRUST_PROXY says so', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).TRUST_PROXY).toEqual(['10.0.0.0/8', '127.0.0.1']);
    expect(() => loadConfig({ TRUST_PROXY: 'my-proxy' })).toThrow(/TRUST_PROXY: "my-proxy" is not an IP address/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/99' })).toThrow(/TRUST_PROXY/);
  });
});
