/** The emotes module: a channel's 7TV/BTTV emotes for autocomplete (the sets themselves live in platforms/emotes). */
export { emoteRoutes, type EmoteRouteDeps } from './routes';
export { ChannelEmotesService } from './channel-emotes-service';
