/** The activity module: the channel's persisted activity feed (follows, subs, raids …) with replay to widgets. */
export { activityRoutes, type ActivityRouteDeps } from './routes';
export { ActivityService } from './activity-service';
