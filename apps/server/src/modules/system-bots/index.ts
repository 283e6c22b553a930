/** The system-bots module: the operators' bot account per platform. */
export { systemBotRoutes, type SystemBotRouteDeps } from './routes';
export { SystemBotService } from './system-bot-service';
