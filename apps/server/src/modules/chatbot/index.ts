/**
 * The chatbot module: commands, timers, spam filters, quotes and command templates (routes), its chat pipeline
 * stages and effect handlers, and the built-in command registry other features extend (see builtins.ts).
 */
export { chatbotRoutes, type ChatbotRouteDeps } from './routes';
export { createChatbot, type Chatbot, type ChatbotDeps } from './chatbot-module';
export {
  connectionsPlatform,
  type BotConnection,
  type ChatbotPlatform,
  type PlatformOutcome,
  type StreamInfoChanger,
} from './chatbot-platform';
export type { BuiltinCommand, BuiltinInvocation, BuiltinRun, BuiltinStageContext } from './builtins';
