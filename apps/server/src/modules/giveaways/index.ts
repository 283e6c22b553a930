/** The giveaways module: keyword or ticket entry from every platform, weighted draws, claims, re-rolls, refunds, history. */
export { giveawayRoutes, type GiveawayRouteDeps } from './routes';
export { createGiveaways, type Giveaways, type GiveawaysDeps } from './giveaways-module';
export { GiveawayService, type GiveawayPoints } from './giveaway-service';
export { GiveawayRepository } from './giveaway-repository';
