/** The moderation module: ban/timeout, unban and delete a message on a platform, audited and published. */
export { moderationRoutes, type ModerationRouteDeps } from './routes';
export { ModerationService, type ModerationServiceDeps, type ModerationTarget, type Moderator } from './moderation-service';
export { ChatLogModerationNames, type ModerationNames } from './moderation-names';
