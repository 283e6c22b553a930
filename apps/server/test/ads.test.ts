/**
 * "Run an ad" against the emulator's Twitch Start Commercial: refused while offline, the length served and the
 * wait until the next ad when live (recorded on the platform and in the audit log), the next ad inside that wait
 * refused with the time left (by Greenroom, and by the platform when Greenroom has forgotten), lengths outside
 * Twitch's set refused before any call, platforms without ads refused with a clear error.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '@greenroom/platform-emulator';
import { AccessLevel } from '@greenroom/contracts/access';
import { auditLog, channelProviders } from '../src/db/schema';
import { AdsService } from '../src/modules/ads';
import type { TestApp, TestUser } from './helper';
import { startChatWorld, type ChatWorld } from './chat-world';
import { actionsSince, control, lastActionSeq } from './platform-fixtures';

let world: ChatWorld;
let emulator: Emulator;
let t: TestApp;
let editor: TestUser;

const run = (cp: string, length: number) =>
  t.inject(editor, {
    method: 'POST',
    url: `/api/2/channels/${world.channelId}/providers/${cp}/commercial`,
    payload: { length_seconds: length },
  });

beforeAll(async () => {
  world = await startChatWorld('Ads');
  ({ emulator, t } = world);
  editor = await world.member('Eddie', AccessLevel.EDITOR);
}, 60_000);

afterAll(async () => {
  await world?.close();
});

describe('POST …/providers/{id}/commercial', () => {
  it('is refused by Twitch while the channel is offline', async () => {
    await control(emulator, 'POST', `/channels/twitch/${world.streamer.twitch.id}/live`, { live: false });
    const res = await run(world.cp.twitch, 60);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      type: 'provider_refused',
      message: 'Twitch refused: To start a commercial, the broadcaster must be streaming live.',
    });
  });

  it('runs an ad while live: the served length and the wait, on the platform and in the audit log', async () => {
    await control(emulator, 'POST', `/channels/twitch/${world.streamer.twitch.id}/live`, { live: true, viewerCount: 10 });
    const since = await lastActionSeq(emulator);
    const res = await run(world.cp.twitch, 90);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ length_seconds: 90, retry_after_seconds: 480, message: '' });
    const actions = await actionsSince(emulator, 'twitch', since);
    expect(actions.map((a) => [a.type, a.data])).toEqual([['commercial', { length: 90 }]]);
    const rows = await t.s.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.channelId, world.channelId), eq(auditLog.action, 'stream.commercial')));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actorUserId: editor.id,
      data: { provider: 'twitch', length_seconds: 90, requested_length_seconds: 90 },
    });

    // The next ad inside the wait: refused with the time left, without asking Twitch.
    const again = await run(world.cp.twitch, 30);
    expect(again.statusCode).toBe(429);
    expect(again.json<{ message: string }>().message).toMatch(/^Twitch allows the next ad in [78]:\d\d\.$/);
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(470);
    expect(await actionsSince(emulator, 'twitch', since)).toHaveLength(1);

    // Greenroom restarted (the wait forgotten): Twitch itself refuses, and the connection stays healthy.
    const fresh = new AdsService({ connections: t.s.connections, audit: t.s.audit });
    const refused = await fresh
      .start({ channelId: world.channelId, channelProviderId: world.cp.twitch }, 30, { userId: editor.id })
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'rate_limited', reason: 'commercial_cooldown' });
    const [row] = await t.s.db.select().from(channelProviders).where(eq(channelProviders.id, world.cp.twitch));
    expect(row?.scopeNeeded).toBe(false);
  });

  it('takes only the lengths Twitch serves, and refuses platforms without ads', async () => {
    const odd = await run(world.cp.twitch, 45);
    expect(odd.statusCode).toBe(400);
    const kick = await run(world.cp.kick, 60);
    expect(kick.statusCode).toBe(422);
    expect(kick.json()).toEqual({ type: 'unsupported', message: 'Kick has no ad breaks Greenroom can run.' });
  });
});
