/** The channels module: creating, listing, renaming and deleting channels. */
export { channelRoutes, type ChannelRouteDeps } from './routes';
export { CHANNEL_ID_REQUIRED, ChannelService, type ChannelFilters, type ChannelServiceDeps } from './channel-service';
