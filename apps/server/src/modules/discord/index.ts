/** Discord go-live announcements: settings, the webhook calls, and the job posting and editing them. */
export { discordRoutes, type DiscordRouteDeps } from './routes';
export { DiscordService, END_AFTER_MS, renderAnnouncement, type DiscordServiceDeps } from './discord-service';
export { DiscordJob } from './discord-job';
export { DiscordWebhookClient } from './discord-webhook';
