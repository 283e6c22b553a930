/** The channel-providers module: a channel's platform connections (connect, list live, disconnect) and their websocket. */
export { channelProviderRoutes, type ChannelProviderRouteDeps } from './routes';
export { ChannelProviderService } from './channel-provider-service';
