/**
 * The points module: one wallet per viewer per channel across platforms, its ledger, earning (chat
 * stage, activities, watch time), the points chat commands and `!link`, and the staff pages' API.
 * Games, giveaways and the queue build on its wallets and ledger operations.
 */
export { pointsRoutes, type PointsRouteDeps } from './routes';
export { createPoints, EARN_BATCH, EARN_CONCURRENCY_POSTGRES, EARN_LINGER_MS, type Points, type PointsDeps } from './points-module';
export { PointsService, identityOf, type BotChat, type ChatCaller } from './points-service';
export { callerOf } from './builtins';
export {
  DbPointsRepository,
  InsufficientPoints,
  PointsLedger,
  walletIdFor,
  walletIdSql,
  type EarnEntry,
  type IdentityInput,
  type PlayInput,
  type PlayResult,
  type WalletRow,
  type WalletsMergedHook,
} from './points-repository';
export { formatPoints, parseBet, resolveBet, type BetSpec } from './domain/amounts';
export { PointsState, type ChannelPoints } from './points-state';
export { EARN_EFFECT, createEarnHandler, earnEntryOf, type EarnPayload } from './stages';
export { MessageEarnings, identityKey, messageEarnKey } from './domain/earning';
export { EarnBatcher, earnLane } from './earn-batcher';
export type { Chatter, LiveConnectionRef } from './watch-job';
