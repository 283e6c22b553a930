/**
 * Watch-time ticks on a real database (PGlite here, PostgreSQL under `npm run test:pg`): a channel's tick is claimed by
 * exactly one instance, its claimer may take it again (a retry after a failed payout), another instance only once the
 * claim is stale, and a finished tick is never claimed again. The watch-time job pays through these claims.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client';
import { channels } from '../src/db/schema';
import { newId } from '../src/lib/ids';
import { DbPointsRepository } from '../src/modules/points';
import { freshDatabase } from './helper';

let database: Database;
let drop: () => Promise<void>;
let repo: DbPointsRepository;
let channelId: string;

beforeAll(async () => {
  ({ database, drop } = await freshDatabase());
  repo = new DbPointsRepository(database.db);
  channelId = newId();
  await database.db.insert(channels).values({ id: channelId, displayName: 'Chan' });
});
afterAll(async () => {
  await database.close();
  await drop();
});

describe('watch-time ticks', () => {
  it('are claimed once, retried by their claimer, taken over only when stale, never after they finish', async () => {
    const tick = new Date('2026-11-27T12:05:00Z');
    const claims = await Promise.all([repo.claimTick(channelId, tick, 'a', 60_000), repo.claimTick(channelId, tick, 'b', 60_000)]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    const winner = claims[0] ? 'a' : 'b';
    const loser = winner === 'a' ? 'b' : 'a';
    expect(await repo.claimTick(channelId, tick, winner, 60_000)).toBe(true);
    expect(await repo.claimTick(channelId, tick, loser, 60_000)).toBe(false);
    // A claim older than the stale limit (0 ms here) is taken over by another instance.
    await new Promise((r) => setTimeout(r, 5));
    expect(await repo.claimTick(channelId, tick, loser, 0)).toBe(true);
    await repo.finishTick(channelId, tick, 3);
    expect(await repo.claimTick(channelId, tick, loser, 0)).toBe(false);
    expect(await repo.claimTick(channelId, tick, winner, 0)).toBe(false);
    // The next tick is a new claim.
    expect(await repo.claimTick(channelId, new Date('2026-11-27T12:10:00Z'), winner, 60_000)).toBe(true);
  });
});
