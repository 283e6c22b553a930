/** The public-chat module: the read-only chat popout for OBS (no sign-in, public message fields only). */
export { publicChatRoutes, type PublicChatRouteDeps } from './routes';
export { createPublicChatServices, type PublicChatServices } from './public-chat-services';
// The widgets' chat box shows chat the way the popout does, under the same per-address limits.
export { ConnectionLimiter, connectionCap, type ConnectionCap, type SharedCaps } from './connection-limiter';
export { publicEncoder } from './public-encoder';
