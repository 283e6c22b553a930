/**
 * The chat module's public entry: the chat log (written by the ingest pipeline), the staff live chat, history and
 * sending. Other modules read the chat log through what is exported here (row mappers, the fan-out hub, the public
 * message shape); nothing else of chat/ is imported from outside it.
 */
export { chatRoutes, type ChatRouteDeps } from './routes';
export { createChatServices, type ChatLog, type ChatServices } from './chat-services';
export { ChatQueries, planTerm, type TextSample } from './chat-queries';
export type { ChatActionsSource } from './chat-send-service';
export { FanoutHub, CLOSE_TRY_AGAIN_LATER, type Encoded, type EncoderFactory, type HubSocket } from './fanout-hub';
export { activityFromRow, messageFromRow, moderationFromRow } from '../../pipeline/chat-rows';
export { ChatRetention, RetentionJob } from './retention';
export { toPublicMessage } from './public-message';
