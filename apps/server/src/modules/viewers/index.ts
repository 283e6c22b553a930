/** The viewers module: a viewer's card (profile, counters, recent messages, moderation history, ban state). */
export { viewerRoutes, type ViewerRouteDeps } from './routes';
export { ViewerCardService, banState } from './viewer-card-service';
export { DbViewerRepository, type ViewerKey, type ViewerRepository, type ViewerSnapshot } from './viewer-repository';
