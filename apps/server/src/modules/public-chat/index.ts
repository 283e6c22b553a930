/** The public-chat module: the read-only chat popout for OBS (no sign-in, public message fields only). */
export { publicChatRoutes, type PublicChatRouteDeps } from './routes';
export { createPublicChatServices, type PublicChatServices } from './public-chat-services';
