/** Slots and roulette settings rows (validated by the service when read; the defaults until saved). */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { gameSettings } from '../../db/schema';

export interface GameSettingsRepository {
  all(): Promise<{ channelId: string; game: 'slots' | 'roulette'; settings: unknown }[]>;
  save(channelId: string, game: 'slots' | 'roulette', settings: object): Promise<void>;
}

export class DbGameSettingsRepository implements GameSettingsRepository {
  constructor(private readonly db: Db) {}

  async all() {
    return this.db
      .select({ channelId: gameSettings.channelId, game: gameSettings.game, settings: gameSettings.settings })
      .from(gameSettings);
  }

  async save(channelId: string, game: 'slots' | 'roulette', settings: object): Promise<void> {
    const value = settings as Record<string, unknown>;
    await this.db
      .insert(gameSettings)
      .values({ channelId, game, settings: value })
      .onConflictDoUpdate({ target: [gameSettings.channelId, gameSettings.game], set: { settings: value, updatedAt: sql`now()` } });
  }
}
