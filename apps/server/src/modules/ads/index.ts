/** Ad breaks on the platforms that have them (Twitch's Start Commercial). */
export { adsRoutes, type AdsRouteDeps } from './routes';
export { AdsService, type AdsServiceDeps } from './ads-service';
