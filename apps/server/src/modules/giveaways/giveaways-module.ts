/**
 * Builds the giveaways module: repository (ticket payments through the points ledger), in-memory
 * state for the chat stage, the service, the stage and effect handlers, and the timer job (entries
 * closing, claims running out) — every transition is a conditional update, so with several
 * instances each happens once.
 */
import type { Giveaway } from '@greenroom/contracts/api/giveaways';
import type { Db } from '../../db/client';
import { cryptoRandom, type RandomSource } from '../../lib/random';
import type { ChatStage, EffectHandler, StageMessage } from '../../pipeline/stage';
import type { AuditRecorder } from '../audit';
import type { BotChat, PointsLedger } from '../points';
import { GiveawayRepository } from './giveaway-repository';
import { GiveawayService, type GiveawayPoints } from './giveaway-service';
import { GiveawayState } from './giveaway-state';
import { createGiveawayHandlers, createGiveawayStage } from './stages';

export interface GiveawaysDeps {
  db: Db;
  ledger: PointsLedger;
  points: GiveawayPoints;
  /** Bots never enter. */
  isBot(channelId: string, message: StageMessage['message']): boolean;
  chat: BotChat;
  audit: AuditRecorder;
  publish(channelId: string, event: { type: 'giveaway.updated'; data: Giveaway }): void;
  log: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
  random?: RandomSource;
  clock?: () => number;
  tickMs?: number;
}

export interface Giveaways {
  repo: GiveawayRepository;
  state: GiveawayState;
  service: GiveawayService;
  stages: ChatStage[];
  effectHandlers: EffectHandler[];
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createGiveaways(deps: GiveawaysDeps): Giveaways {
  const repo = new GiveawayRepository(deps.db, deps.ledger);
  const state = new GiveawayState();
  const service = new GiveawayService({
    repo,
    state,
    points: deps.points,
    chat: deps.chat,
    audit: deps.audit,
    publish: (channelId, event) => deps.publish(channelId, event),
    random: deps.random ?? cryptoRandom,
    log: deps.log,
    ...(deps.clock ? { clock: deps.clock } : {}),
  });
  let timer: NodeJS.Timeout | null = null;
  let ticking: Promise<void> | null = null;
  const tick = () => {
    ticking ??= service
      .tick()
      .catch((error: unknown) => deps.log.warn({ err: error }, 'giveaway timers failed'))
      .finally(() => {
        ticking = null;
      });
  };
  return {
    repo,
    state,
    service,
    stages: [createGiveawayStage(state, (channelId, m) => deps.isBot(channelId, m))],
    effectHandlers: createGiveawayHandlers(service),
    async start() {
      await service.load();
      timer = setInterval(tick, deps.tickMs ?? 1000);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      await ticking;
      service.stop();
      state.clear();
    },
  };
}
