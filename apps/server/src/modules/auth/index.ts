/** The auth module: OAuth flows (sign-in, link, channel and bot connections), sessions and their routes. */
export { authRoutes, type AuthRouteDeps } from './routes';
export { OAUTH_STATE_COOKIE, OAuthFlows, type CompletedFlow, type FlowHandler, type FlowPurpose } from './oauth-flows';
export { SessionService, type AuthUser, type ChannelStanding, type SessionLookup } from './sessions';
