/**
 * Builds the points module from what it takes (database, audit log, the bot's chat, the live
 * connections and their chatter lists, the bus for stream status and bans) and hands back what the
 * server plugs in: the service for routes and other features, the chat stage and effect handler,
 * the built-in commands, the watch-time job.
 */
import type { ModerationEvent, StreamStatus } from '@greenroom/contracts/api/events';
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import type { Db } from '../../db/client';
import { newId } from '../../lib/ids';
import { cryptoRandom, type RandomSource } from '../../lib/random';
import type { ChatStage, EffectHandler } from '../../pipeline/stage';
import type { AuditRecorder } from '../audit';
import type { BuiltinCommand } from '../chatbot';
import { pointsBuiltins } from './builtins';
import { EarnBatcher } from './earn-batcher';
import { DbPointsRepository } from './points-repository';
import { PointsService, type BotChat } from './points-service';
import { PointsState, type ChannelPoints } from './points-state';
import { createEarnHandler, createPointsStage } from './stages';
import { WatchTimeJob, type Chatter, type LiveConnectionRef } from './watch-job';

export interface PointsDeps {
  db: Db;
  audit: AuditRecorder;
  chat: BotChat;
  /** A channel's stream statuses and moderation events (the bus); returns the unsubscribe. */
  watch?: (channelId: string, on: { status(s: StreamStatus): void; moderation(e: ModerationEvent): void }) => () => void;
  /** The live connections this instance pays watch time for. */
  liveConnections: () => Promise<LiveConnectionRef[]>;
  /** A connection's chatter list where the platform has one (null: none or unavailable). */
  chatters: (connection: LiveConnectionRef) => Promise<Chatter[] | null>;
  /** The channels' own bot accounts and the system bots. */
  botIdentities: () => Promise<{ provider: ChannelProviderId; providerUserId: string }[]>;
  log: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
  random?: RandomSource;
  clock?: () => number;
  watchCheckEveryMs?: number;
  /** Earning batches committed at once: 1 on the embedded database, a few on PostgreSQL (see `EarnBatcher`). */
  earnConcurrency?: number;
}

export interface Points {
  repo: DbPointsRepository;
  state: PointsState;
  service: PointsService;
  batcher: EarnBatcher;
  stages: ChatStage[];
  effectHandlers: EffectHandler[];
  builtins: BuiltinCommand[];
  watchJob: WatchTimeJob;
  /** Loads every channel's settings and the bot accounts, starts the watch-time job. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** Earnings a batch (one transaction). */
export const EARN_BATCH = 1000;
/** Earning batches committed at once on PostgreSQL (three of the pool's connections at most). */
export const EARN_CONCURRENCY_POSTGRES = 3;
/** A lane starts a batch that is not full at most every this many ms (fewer, larger transactions under a trickle). */
export const EARN_LINGER_MS = 25;

export function createPoints(deps: PointsDeps): Points {
  const repo = new DbPointsRepository(deps.db);
  const watchChannel = (c: ChannelPoints) =>
    deps.watch?.(c.channelId, {
      status: (s) => c.sawStatus(s),
      moderation: (e) => {
        if (!e.target || (e.kind !== 'ban' && e.kind !== 'unban')) return;
        const identity = {
          provider: e.provider,
          providerUserId: e.target.provider_user_id,
          login: e.target.display_name.toLowerCase(),
          displayName: e.target.display_name,
        };
        void repo
          .setBanned(c.channelId, identity, e.kind === 'ban')
          .catch((error: unknown) => deps.log.warn({ err: error }, 'recording a ban for points failed'));
      },
    }) ?? (() => {});
  const state = new PointsState(watchChannel);
  const service = new PointsService({
    repo,
    state,
    audit: deps.audit,
    chat: deps.chat,
    random: deps.random ?? cryptoRandom,
    ...(deps.clock ? { clock: deps.clock } : {}),
  });
  const batcher = new EarnBatcher((entries) => repo.earn(entries), EARN_BATCH, deps.earnConcurrency ?? 1, EARN_LINGER_MS);
  const watchJob = new WatchTimeJob({
    repo,
    state,
    batcher,
    liveConnections: deps.liveConnections,
    chatters: deps.chatters,
    instanceId: newId(),
    log: deps.log,
    ...(deps.clock ? { clock: deps.clock } : {}),
    ...(deps.watchCheckEveryMs ? { checkEveryMs: deps.watchCheckEveryMs } : {}),
  });
  let botTimer: NodeJS.Timeout | null = null;
  const loadBots = () =>
    deps
      .botIdentities()
      .then((ids) => state.setBotIdentities(ids))
      .catch((error: unknown) => deps.log.warn({ err: error }, 'loading bot accounts failed'));

  return {
    repo,
    state,
    service,
    batcher,
    stages: [createPointsStage(state)],
    effectHandlers: [createEarnHandler(batcher)],
    builtins: pointsBuiltins(service),
    watchJob,
    async start() {
      await service.loadAll();
      await loadBots();
      // Bot accounts are connected in another module: re-read every minute.
      botTimer = setInterval(() => void loadBots(), 60_000);
      botTimer.unref();
      watchJob.start();
    },
    async stop() {
      if (botTimer) clearInterval(botTimer);
      await watchJob.stop();
      await batcher.idle();
      state.close();
    },
  };
}
