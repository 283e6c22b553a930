/** The public watch page: a channel's players, live state and latest stream, found by a platform channel name. */
export { watchRoutes, type WatchRouteDeps } from './routes';
export { WatchService, type WatchServiceDeps } from './watch-service';
