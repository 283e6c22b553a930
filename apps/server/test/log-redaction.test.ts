import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { sql } from 'drizzle-orm';
import { createLogger, httpLoggerOptions, redactUrl } from '../src/lib/logging';
import { createTestApp, type TestApp } from './helper';

/** A pino destination keeping every line written. */
function memoryStream(): { stream: Writable; text(): string } {
  const lines: string[] = [];
  return {
    stream: new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    }),
    text: () => lines.join(''),
  };
}

const SECRET_CHAT = 'my secret chat line 4471';
const SECRET_SETTING = 'private-setting-value-9921';
const INVITE = 'Qm9vayBvZiB0aGUgZGVhZCBzZWNyZXQgaW52aXRlIGlk';

let t: TestApp;
const log = memoryStream();
beforeAll(async () => {
  t = await createTestApp({
    loggerInstance: pino(httpLoggerOptions('info'), log.stream),
    configure: (app) => {
      // A query failing with user text in its parameters, as a route's database error would.
      app.post('/api/test/failing-query', { config: { access: 'public' } }, async () => {
        await t.s.db.execute(sql`select ${SECRET_CHAT}::int, ${JSON.stringify({ theme: SECRET_SETTING })}::int`);
        return { ok: true };
      });
    },
  });
});
afterAll(async () => t.close());

describe('logs hold no secrets and no user data', () => {
  it('redacts invitation ids and OAuth codes in request URLs', async () => {
    const user = await t.createUser();
    await t.inject(user, { method: 'GET', url: `/api/2/channel-invites/${INVITE}` });
    await t.inject(user, { method: 'POST', url: `/api/2/channel-invites/${INVITE}/accept` });
    await t.inject(user, { method: 'DELETE', url: `/api/2/channels/some-channel/user-invites/${INVITE}` });
    await t.inject(null, { method: 'GET', url: `/channel-invite/${INVITE}` });
    await t.inject(null, { method: 'GET', url: `/oauth/twitch?code=oauthcode123&state=oauthstate456&scope=chat` });
    const text = log.text();
    expect(text).toContain('/api/2/channel-invites/[redacted]/accept');
    expect(text).toContain('/oauth/twitch?code=[redacted]&state=[redacted]&scope=chat');
    expect(text).not.toContain(INVITE);
    expect(text).not.toContain('oauthcode123');
    expect(text).not.toContain('oauthstate456');
  });

  it('logs a failed query without its parameters or the values quoted by the database', async () => {
    const res = await t.inject(null, { method: 'POST', url: '/api/test/failing-query' });
    expect(res.statusCode).toBe(500);
    const text = log.text();
    expect(text).toContain('Failed query');
    expect(text).not.toContain(SECRET_CHAT);
    expect(text).not.toContain(SECRET_SETTING);
  });

  it('does the same in the loggers outside requests', async () => {
    const out = memoryStream();
    const logger = createLogger('info', 'chat', out.stream);
    const error = await t.s.db.execute(sql`select ${SECRET_CHAT}::int`).then(
      () => null,
      (e: unknown) => e,
    );
    logger.warn({ err: error }, 'writing chat failed');
    expect(out.text()).toContain('writing chat failed');
    expect(out.text()).not.toContain(SECRET_CHAT);
  });

  it('redactUrl keeps everything else', () => {
    expect(redactUrl('/api/2/channels/abc/chat/messages?q=hi&limit=5')).toBe('/api/2/channels/abc/chat/messages?q=hi&limit=5');
    expect(redactUrl('/api/2/channels/abc/user-invites/XYZ')).toBe('/api/2/channels/abc/user-invites/[redacted]');
    expect(redactUrl('/x?STATE=1&Code=2')).toBe('/x?STATE=[redacted]&Code=[redacted]');
  });
});
